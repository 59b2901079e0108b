// Loads an engine plugin (a shared library built from an engine module, src/methods/
// CMakeLists.txt) into a registry: the gaus program links no engine, so that its commands start
// in milliseconds, and loads one the first time a method of it is looked up.
#pragma once

#include <string>
#include <vector>

#include <gaus/methods/registry.hpp>

namespace gaus {

// Finds `file` in $GAUS_PLUGIN_DIR (colon-separated), beside the shared library that holds this
// loader when it is one (the Python module), beside the running executable and in ../lib/gaus
// from it; loads it, checks its interface fingerprint and lets it register its
// methods. When the plugin is missing, stale or fails to load, each of `methods` is registered as
// a method whose every use fails with the reason and the remedy, so the failure surfaces where
// the method is used, not as an unknown name.
void loadPlugin(MethodRegistry& registry, const std::string& file,
                const std::vector<std::string>& methods);

}  // namespace gaus
