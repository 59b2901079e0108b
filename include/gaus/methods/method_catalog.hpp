// Every scheduling method of the enabled modules, by name. The CLI and the experiment runner
// look methods up here and never switch on method names themselves.
#pragma once

#include <gaus/methods/registry.hpp>

namespace gaus {

const MethodRegistry& methodCatalog();

}  // namespace gaus
