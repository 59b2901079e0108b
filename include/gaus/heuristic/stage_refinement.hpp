// Local search on a legal stage schedule (the GS-Schedule objective, formulation A of GauS):
// single ops move between stages within their precedence window, and pairs of ops swap stages,
// to lower ratio x peak stage weight + communication. src/heuristic/stage_refinement.cpp says
// what it implements and why.
#pragma once

#include <cstdint>
#include <functional>

#include <gaus/core/graph.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus::heuristic {

struct StageRefinementOptions {
  // Weight of the peak stage weight against one stage boundary crossed by a comm edge
  // (GS-Schedule's 100; GauS's formulation A uses 1 / alpha).
  double ratio = 100.0;
  // Balance the stage loads first (pairs of stages made more even, communication second), then
  // descend on the objective; without it only the descent runs.
  bool balanceFirst = true;
  // Polled between moves; returning true ends the search with the best schedule so far.
  std::function<bool()> stop;
};

struct StageRefinement {
  Schedule schedule;
  std::int64_t moves = 0;  // single-op moves applied (both phases)
  std::int64_t swaps = 0;  // pair swaps applied (both phases)
  // The search ended because no move or swap lowers (objective, sum of squared stage loads),
  // not because `stop` said so.
  bool localOptimum = false;
};

// `legal` must satisfy the stage problem at `horizon` D: every op v in [0, D - duration(v)] and
// s_v >= s_u + delay on every distance-0 edge u -> v (GS-Schedule's problem has latency-1 ops and
// delay-0 edges, so stages 0..D-1 and "same stage allowed"). The result satisfies the same and
// its objective ratio x peak + communication (core's stage_objective.hpp) is never above the
// input's. Reservations are not looked at: call it only on problems without limited resources.
StageRefinement refineStages(const Graph& graph, Cycle horizon, const Schedule& legal,
                             const StageRefinementOptions& options = {});

}  // namespace gaus::heuristic
