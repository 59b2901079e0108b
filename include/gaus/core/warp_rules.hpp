// The warp rules of modulo-warp schedules that a dependence sees (TWILL.md "Inputs"). The
// verifier checks them, Twill's SMT model encodes them, and the warp-aware RecMII bounds II with
// them: all three read them here.
#pragma once

#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>

namespace gaus {

// The delay an edge needs when its two ends run on different warp sets: its delay plus the
// spill cost of its source (the value travels through shared memory to the other warps).
Cycle crossWarpDelay(const Graph& graph, EdgeId e);

// Whether ops u and v run on different warp sets in every schedule the verifier accepts on
// `machine`: an op holds exactly min_warps warps (warp uniqueness), so ops of different
// min_warps never share a set; a variable-latency op runs alone on the machine's
// variable-latency warp and no other op runs there, so a variable-latency and a fixed-latency
// op never share one.
bool warpSetsAlwaysDiffer(const Graph& graph, const Machine& machine, OpId u, OpId v);

}  // namespace gaus
