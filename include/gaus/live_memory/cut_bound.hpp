// The per-cycle min-cut lower bound on the peak live memory of every schedule within a horizon D
// (formulation B), which src/live_memory/cut_bound.cpp derives; docs/exact.md "Bounds".
#pragma once

#include <functional>
#include <optional>

#include <gaus/core/expected.hpp>
#include <gaus/core/graph.hpp>
#include <gaus/core/problem_facts.hpp>
#include <gaus/core/types.hpp>

namespace gaus::live_memory {

struct CutBound {
  // No schedule within the horizon has a smaller peak live memory: the largest min cut over the
  // cycles examined, never below `mandatory`. Rounded up to an integer when every mem is one.
  double value = 0.0;
  // The mandatory-lifetimes bound (mandatoryLifetimeBound), where the cuts start from.
  double mandatory = 0.0;
  std::optional<Cycle> peakCycle;  // a cycle whose cut attains `value`, when a cut raised it
  Cycle cyclesCut = 0;             // cycles whose min cut was computed
  Cycle cyclesSkipped = 0;  // cycles settled without a cut: their cheap upper bound is <= value
  bool complete = true;     // false when `stop` ended the search before every cycle was settled
};

// The bound above. `stop` is asked between cuts and between the phases of one max-flow; when it
// answers true the best bound so far is returned (a max over fewer cycles, or a flow short of
// the min cut, is still a lower bound) with `complete` false. Fails as alapTimes does (horizon
// shorter than the critical path) or on a cycle of distance-0 edges.
// `facts` are a posed problem's, at its horizon (their order, ASAP and ALAP, computed once per
// call); the graph's own are those of graphFacts(graph, horizon).
Expected<CutBound> cutBound(const ProblemFacts& facts, const std::function<bool()>& stop = {});
Expected<CutBound> cutBound(const Graph& graph, Cycle horizon,
                            const std::function<bool()>& stop = {});

// The weaker bound the cuts start from: a value of op v is live from s_v until its last
// distance-0 reader starts (core's liveInterval), and s_v <= ALAP(v) while every reader r starts
// at ASAP(r) or later, so v is live throughout [ALAP(v), max over readers of ASAP(r)) in every
// legal schedule; the bound is the largest sum of mem over those intervals at one cycle. Fails
// as alapTimes does.
Expected<double> mandatoryLifetimeBound(const Graph& graph, Cycle horizon);

}  // namespace gaus::live_memory
