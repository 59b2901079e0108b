#include "plugin_loader.hpp"

#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <link.h>
#include <system_error>

#include <fmt/format.h>

#include <gaus/core/option_table.hpp>
#include <gaus/methods/plugin_abi.hpp>

namespace gaus {

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> pluginFolders() {
  std::vector<fs::path> folders;
  if (const char* configured = std::getenv("GAUS_PLUGIN_DIR")) {
    std::string_view rest(configured);
    while (!rest.empty()) {
      const auto colon = rest.find(':');
      if (colon != 0) folders.emplace_back(std::string(rest.substr(0, colon)));
      rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
    }
  }
  std::error_code error;
  const fs::path executable = fs::read_symlink("/proc/self/exe", error);
  // A loader linked into a shared library (the Python module, python/) looks beside that library
  // first: the wheel carries the plugins there, whatever program loaded it.
  // The program itself has an empty name in its link map.
  Dl_info holder{};
  link_map* holderMap = nullptr;
  if (dladdr1(reinterpret_cast<const void*>(&pluginFolders), &holder,
              reinterpret_cast<void**>(&holderMap), RTLD_DL_LINKMAP) != 0 &&
      holderMap != nullptr && holderMap->l_name != nullptr && holderMap->l_name[0] != '\0') {
    std::error_code canonical;
    const fs::path library = fs::weakly_canonical(holderMap->l_name, canonical);
    if (!canonical) folders.push_back(library.parent_path());
  }
  if (!executable.empty()) {
    folders.push_back(executable.parent_path());
    folders.push_back(executable.parent_path().parent_path() / "lib" / "gaus");
  }
  return folders;
}

// A stand-in for a method whose plugin could not be loaded: every use says why.
MethodInfo unavailableMethod(const std::string& name, const std::string& reason) {
  MethodInfo method;
  method.name = name;
  method.summary = "unavailable: " + reason;
  method.kinds = {ProblemKind::kLatency, ProblemKind::kLatencyBounded, ProblemKind::kModulo,
                  ProblemKind::kModuloWarp, ProblemKind::kStages};
  const std::string message = fmt::format("method {}: {}", name, reason);
  method.unavailable = message;
  method.parseOptions = [message](const MethodOptions&, const Settings&) -> Expected<ParsedOptions> {
    return Error{message};
  };
  method.solve = [message](const Problem&, const ParsedOptions&, const RunContext&) {
    return errorResult(message);
  };
  return method;
}

// Loads one plugin file; an empty string when it registered its methods, else why not.
std::string loadFile(MethodRegistry& registry, const fs::path& path) {
  // RTLD_LOCAL: the plugin keeps its own copy of the core library and of its engine's
  // dependencies to itself; only the two entry points below are looked up.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) return fmt::format("cannot load {}: {}", path.string(), dlerror());
  const auto abi = reinterpret_cast<GausPluginAbiFunction>(dlsym(handle, "gaus_plugin_abi"));
  const auto add =
      reinterpret_cast<GausPluginRegisterFunction>(dlsym(handle, "gaus_plugin_register"));
  if (abi == nullptr || add == nullptr) {
    return fmt::format("{} is not a gaus plugin (no gaus_plugin_abi/gaus_plugin_register)",
                       path.string());
  }
  if (abi() != kPluginAbi) {
    return fmt::format(
        "{} was built from other sources than this program (interface {:x}, expected {:x}); "
        "rebuild both",
        path.string(), abi(), kPluginAbi);
  }
  // The plugin stays loaded for the life of the process: its methods live in it.
  add(&registry);
  return {};
}

}  // namespace

void loadPlugin(MethodRegistry& registry, const std::string& file,
                const std::vector<std::string>& methods) {
  std::string reason;
  std::vector<std::string> searched;
  for (const fs::path& folder : pluginFolders()) {
    const fs::path path = folder / file;
    std::error_code error;
    if (!fs::is_regular_file(path, error)) {
      searched.push_back(folder.string());
      continue;
    }
    reason = loadFile(registry, path);
    if (reason.empty()) {
      for (const auto& name : methods) {
        if (registry.find(name) == nullptr) {
          registry.add(unavailableMethod(name, fmt::format("{} does not provide it", file)));
        }
      }
      return;
    }
    break;
  }
  if (reason.empty()) {
    reason = fmt::format(
        "its engine plugin {} was not found (looked in {}); build it with the gaus program, or "
        "set GAUS_PLUGIN_DIR to its folder",
        file,
        searched.empty() ? std::string("no folder") : option_text::listChoices(searched, ", "));
  }
  for (const auto& name : methods) registry.add(unavailableMethod(name, reason));
}

}  // namespace gaus
