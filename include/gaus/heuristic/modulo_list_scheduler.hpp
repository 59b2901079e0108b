// Modulo list scheduling at a fixed II: operation-driven list placement into a modulo reservation
// table, repeated until the loop-carried edges hold (GAUS.md "Legalization", modulo). The one
// folded list placement of the project: GauS legalizes its rounded means with it, and the exact
// engine takes it as a quick start schedule for its MILPs.
#pragma once

#include <cstdint>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus::heuristic {

struct ModuloListOptions {
  // Among eligible ops the smaller priority key goes first, then the smaller tie-break key, then
  // the smaller id. Each is empty (0 for every op) or holds one key per op.
  std::vector<double> priorityKey;
  std::vector<double> tieBreakKey;
  // Empty, or one earliest start per op (it never starts before it), e.g. GauS's "never before
  // round(mu)".
  std::vector<Cycle> releaseTime;
  // Whether the caller already knows that the distance-0 edges close no cycle (a posed
  // problem's facts hold its order): the scheduler then does not look for one again.
  bool knownAcyclic = false;
};

// A modulo schedule at `ii` (Schedule::ii set), or an error saying why none was found:
// - each op starts no earlier than its earliest start over every edge at this II (core's
//   moduloAsapTimes, a bound every legal schedule with starts >= 0 obeys) and its release time;
// - a pass places ops as their distance-0 predecessors are placed, in key order, each at the
//   first cycle >= its earliest start (over the placed predecessors, loop-carried ones included)
//   where its reservation table fits the table; an op that fits at no residue of II consecutive
//   cycles fails the II;
// - after a pass, every loop-carried edge still violated raises its target's earliest start to
//   what the edge needs and the pass is repeated, at most |V| + 1 passes in all (a fixed point).
// Wherever a single pass already meets every edge, the result is the plain folded list schedule.
// No horizon is checked: the caller compares the latency with it.
Expected<Schedule> moduloListSchedule(const Graph& graph, const Machine& machine, std::int32_t ii,
                                      const ModuloListOptions& options = {});

}  // namespace gaus::heuristic
