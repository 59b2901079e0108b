// The GS-Schedule problem (benchmarks/gs-schedule-icml24-rw/README.md) on a graph read from its
// GML files: give each node a stage s in {0, ..., D-1} with s_u <= s_v on every edge ("same
// stage allowed"). The GML reader keeps the format's general meaning (latency-1 ops, delay-1
// edges); this builds the stage problem from it for the latency-bounded schedulers.
#pragma once

#include <gaus/core/expected.hpp>
#include <gaus/core/instance.hpp>
#include <gaus/core/problem.hpp>

namespace gaus::io {

// A latency-bounded problem with horizon `stages`: every op of latency 1 (its start is its
// stage, and start + 1 <= D), every edge of delay 0, weights and communication flags kept, the
// instance's machine (no resources for GML). Fails when the graph cannot be rebuilt.
Expected<Problem> gsScheduleProblem(const Instance& instance, Cycle stages);

}  // namespace gaus::io
