// The random instances of the cross-method check: one per seed, drawn from five families that
// cover every problem kind (docs/benchmarks.md, "Cross-method check"). The graph comes from the
// random graph generator (core/random_graph.hpp, with the case's seed); what the generator does
// not draw (extra reservation blocks, edge delays, memory weights, horizons, warp annotations)
// is added from the same seed, so a seed names one instance on every platform.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include <gaus/core/enum_names.hpp>
#include <gaus/core/instance.hpp>
#include <gaus/core/problem.hpp>

namespace gaus::crosscheck {

enum class Family {
  kLatency,         // acyclic latency, limited units, multi-cycle and multi-resource tables
  kLatencyBounded,  // a horizon D near the critical path, memory weights on the values
  kModulo,          // loop-carried edges (recurrences); a fixed II in one case of five
  kModuloWarp,      // warps, registers, memory footprints, variable-latency ops, spill costs
  // GS-Schedule's stage problem (ProblemKind::kStages: latency-1 ops, delay-0 edges, weights
  // and communication, D stages).
  kStages,
};
inline constexpr auto kFamilyNames = makeEnumNames<Family>({
    {Family::kLatency, "latency"},
    {Family::kLatencyBounded, "latency-bounded"},
    {Family::kModulo, "modulo"},
    {Family::kModuloWarp, "modulo-warp"},
    {Family::kStages, "stages"},
});
inline std::string_view toString(Family family) {
  return kFamilyNames.name(family);
}

struct CrossCheckCase {
  std::uint64_t seed = 0;
  Family family = Family::kLatency;
  Instance instance;  // the graph and machine the problem poses
  Problem problem;    // kind, horizon and fixed II
};

// The case of `seed`, of `family` when given, else of the family the seed draws. Sizes run from
// 3 to 40 ops (up to 12 with warps); three cases in five have at most 8 ops, small enough for
// the exhaustive references. With `maxOps` every case has 3 to maxOps ops (tiny cases, all
// within the exhaustive references' reach; another draw than without it).
Expected<CrossCheckCase> generateCase(std::uint64_t seed,
                                      std::optional<Family> family = std::nullopt,
                                      std::optional<std::int32_t> maxOps = std::nullopt);

// A case around a problem read back from a reproducer (the instance is the problem's graph and
// machine).
CrossCheckCase caseOf(std::uint64_t seed, Family family, const Problem& problem, std::string name);

}  // namespace gaus::crosscheck
