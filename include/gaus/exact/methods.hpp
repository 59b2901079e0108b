// Registration of the exact engine's methods and their option tables.
// - "ilp": kLatency (time-indexed latency MILP, latency_milp.hpp) and kModulo (modulo MILP and
//   the search over II, modulo_milp.hpp).
// - "twill": kModuloWarp (joint software pipelining + warp specialization, twill.hpp).
#pragma once

#include <optional>

#include <gaus/core/option_table.hpp>
#include <gaus/core/registry.hpp>
#include <gaus/exact/modulo_milp.hpp>
#include <gaus/exact/twill.hpp>

namespace gaus {

void registerExactMethods(MethodRegistry& registry);

}  // namespace gaus

namespace gaus::exact {

// Options of the "ilp" method, for both kinds of problem it solves. The latency MILP takes the
// MILP settings it shares with the modulo one (start, symmetry, size guard, normalization) from
// `search`.
struct IlpOptions {
  // Wall clock for the whole call; each MILP also stops at search.milp.timeLimitSeconds.
  std::optional<double> timeLimitSeconds;
  ModuloSearchOptions search;
  std::optional<Cycle> latencyBound;  // latency problems: upper bound on L
};

const OptionTable<IlpOptions>& ilpOptionTable();
const OptionTable<TwillOptions>& twillOptionTable();

}  // namespace gaus::exact
