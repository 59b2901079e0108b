// What the GauS suites (gaus-step, gaus-scale, gaus-quality) share: the generated workload of
// the speed suites, a run of method "gaus" through the method catalog, and the figures the
// engine reports about itself (the result's `extra`: adam_steps, seconds_per_step,
// first_legal_seconds; its log: one "D=..." line per horizon attempt).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/instance.hpp>
#include <gaus/core/random_graph.hpp>
#include <gaus/core/result.hpp>

namespace gaus::bench {

// The speed suites' DAG: `ops` ops, average out-degree 3 between ops at most 2,000 apart in a
// random topological order, three op types of which two have limited units (ALU: 8, MUL: 2), so
// that list scheduling's latency, the horizon of GauS's first attempt, grows with |V| (about
// 1,000 cycles at 10,000 ops: the MUL units are the bottleneck).
RandomGraphOptions gausWorkloadOptions(std::int32_t ops, std::uint64_t seed);
Instance generateGausWorkload(std::int32_t ops, std::uint64_t seed);

// The and-inverter-graph-like workload of gaus-scale --workload aig, with the profile of EPFL's
// largest arithmetic circuit, hyp (256 inputs, 214,335 AND gates, 24,801 levels: 8.65 nodes per
// level): `ops` nodes in round(ops / 8.65) layers, the first layer the inputs, every gate with
// exactly two fan-ins (the second at most 16 layers up), latency 1 and mem 1 on an unlimited
// resource, as the AIGER reader maps a circuit. So the critical path is the number of layers.
RandomGraphOptions aigWorkloadOptions(std::int32_t ops, std::uint64_t seed);
Instance generateAigWorkload(std::int32_t ops, std::uint64_t seed);

// The horizons D of formulation L's attempts, in order, from the result's attempt records.
std::vector<std::int64_t> attemptedHorizons(const Result& result);

// Throws naming the instance unless the result holds a schedule that verify() accepted.
void requireVerified(const Result& result, std::string_view method, std::string_view instance);

// "12.3" seconds, or "-" when not measured.
std::string optionalText(const std::optional<double>& value, int decimals);

}  // namespace gaus::bench
