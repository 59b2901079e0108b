// Registration of the exact engine's methods and their option tables.
// - "ilp": kLatency (time-indexed latency MILP, latency_milp.hpp), kModulo (modulo MILP and
//   the search over II, modulo_milp.hpp), kLatencyBounded (peak live memory under a horizon,
//   peak_memory_milp.hpp) and kStages (the stage MILP, stage_milp.hpp).
// - "twill": kModuloWarp (joint software pipelining + warp specialization, twill.hpp).
#pragma once

#include <optional>
#include <string_view>

#include <gaus/core/enum_names.hpp>
#include <gaus/core/option_table.hpp>
#include <gaus/exact/latency_milp.hpp>
#include <gaus/exact/modulo_milp.hpp>
#include <gaus/exact/twill.hpp>
#include <gaus/methods/registry.hpp>

namespace gaus {

void registerExactMethods(MethodRegistry& registry);

}  // namespace gaus

namespace gaus::exact {

// A method "ilp" runs first to start from (init=gaus, list or ims).
enum class InitMethod { kNone, kGaus, kList, kIms };
inline constexpr auto kInitMethodNames = makeEnumNames<InitMethod>({
    {InitMethod::kNone, "none"},
    {InitMethod::kGaus, "gaus"},
    {InitMethod::kList, "list"},
    {InitMethod::kIms, "ims"},
});
inline std::string_view toString(InitMethod method) {
  return kInitMethodNames.name(method);
}

// Options of the "ilp" method, for both kinds of problem it solves. The latency MILP takes the
// MILP settings it shares with the modulo one (start, symmetry, size guard, normalization) from
// `search`.
struct IlpOptions {
  // Wall clock for the whole call; each MILP also stops at search.milp.attemptSeconds.
  std::optional<double> timeLimitSeconds;
  ModuloSearchOptions search;
  std::optional<Cycle> latencyBound;  // latency problems: upper bound on L
  // Latency problems: share of the time for refuting L below the start on the SAT model before
  // the MILP (LatencyMilpOptions::refutationShare).
  double refutationShare = LatencyMilpOptions{}.refutationShare;
  // Runs this method first, through the registry, and starts from its verified schedule as from
  // one given with --init. It gets initShare of time_limit, or without one of milp_time_limit;
  // its time counts against time_limit and, for latency problems, against the one MILP's.
  InitMethod initMethod = InitMethod::kNone;
  double initShare = 0.25;
};

const OptionTable<IlpOptions>& ilpOptionTable();
const OptionTable<TwillOptions>& twillOptionTable();

}  // namespace gaus::exact
