// Registration of the exact engine's methods and the option parsing they share with the CLI.
// - "ilp": kLatency (time-indexed latency MILP, latency_milp.hpp) and kModulo (modulo MILP and
//   the search over II, modulo_milp.hpp).
// - "twill": kModuloWarp (joint software pipelining + warp specialization, twill.hpp).
#pragma once

#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/options.hpp>
#include <gaus/core/registry.hpp>
#include <gaus/exact/twill.hpp>

namespace gaus {

void registerExactMethods(MethodRegistry& registry);

}  // namespace gaus

namespace gaus::exact {

// Documented options of each method (what `--help-method` prints).
std::vector<OptionDoc> ilpOptionDocs();
std::vector<OptionDoc> twillOptionDocs();

// Twill options from a method option map, as the "twill" method reads them; `echo` receives
// every option with the value used. Fails naming unknown options and unparsable values.
Expected<TwillOptions> readTwillOptions(
    const MethodOptions& options, std::vector<std::pair<std::string, std::string>>* echo = nullptr);

}  // namespace gaus::exact
