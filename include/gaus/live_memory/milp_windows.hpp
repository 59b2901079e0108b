// Exact re-optimization of a legal acyclic schedule for peak live memory (formulation B of GauS)
// in windows of time: the ops that start in a window around a cluster of peak cycles move, every
// other op keeps its start, and a small MILP (HiGHS or CBC) finds the window's best placement. A
// large neighbourhood search (LNS) whose neighbourhoods are solved exactly: it lowers peaks that
// the local moves of Refiner and the splices of other candidates leave. The
// file src/live_memory/milp_windows.cpp says what the model is and why.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/problem_facts.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/milp/milp_model.hpp>

namespace gaus::live_memory {

struct MilpWindowOptions {
  // Half widths of the windows tried around a cluster of peak cycles, narrowest first: the
  // window is the cluster widened by this many cycles on each side. The middle rung matters: on
  // the 100,000-op graph of docs/benchmarks.md the last cluster could not be lowered at 6
  // cycles (159 ops, proven), ran out of 30 s at 16 (328 ops, unproven) in two runs of three,
  // and was lowered at 11 (242 ops) in 5.5 s.
  std::vector<Cycle> halfWidths = {6, 11, 16};
  // A window with more ops than this is not solved: its model grows with ops x cycles. On the
  // 100,000-op and-inverter graph (docs/benchmarks.md) windows of 110-160 ops are solved or
  // proven infeasible in 0.03-1 s, of 280-390 ops in 0.1-18 s.
  std::int64_t maxWindowOps = 400;
  // Branch-and-bound nodes and seconds per window (milp::MilpModel::solve holds the limit on
  // solvers); the solver's incumbent at a limit is used when it helps.
  std::int64_t nodeLimit = 500;
  double secondsPerWindow = 30.0;
  // The solver of every window (GauS's `-O solver`).
  milp::MilpSolver solver = milp::kDefaultMilpSolver;
};

struct MilpWindowFigures {
  std::int64_t solves = 0;        // window MILPs solved
  std::int64_t improvements = 0;  // windows whose solution lowered the cycles at the peak
  double solveSeconds = 0.0;      // in the MILP solver
};

// The search as work that can stop and go on, as Refiner: run() works until
// `stop` says so (asked between windows) or no window around the current peak's clusters can
// lower it, and a later run() goes on from the cluster it reached.
class MilpWindowSearch {
 public:
  // `legal` must keep every distance-0 edge and every op within [0, horizon - duration], as
  // for refine; the search keeps both, and its peak never rises.
  MilpWindowSearch(const Graph& graph, Cycle horizon, const Schedule& legal,
                   MilpWindowOptions options = {});
  // At the horizon of `facts` (a posed problem's: their order is computed once per call).
  MilpWindowSearch(std::shared_ptr<const ProblemFacts> facts, const Schedule& legal,
                   MilpWindowOptions options = {});
  ~MilpWindowSearch();
  MilpWindowSearch(const MilpWindowSearch&) = delete;
  MilpWindowSearch& operator=(const MilpWindowSearch&) = delete;

  // Goes on from another legal schedule (the caller's schedule changed), keeping the figures
  // and the windows already solved in vain: a window whose model is the same is not solved
  // again.
  void restart(const Schedule& legal);
  // True when every cluster of the current peak was tried at every width and none could be
  // lowered (or the peak is 0); false when `stop` ended this slice.
  // `secondsLeft` bounds each window's solve too (a solve is not cut by `stop`).
  bool run(const std::function<bool()>& stop,
           double secondsLeft = std::numeric_limits<double>::infinity());
  const Schedule& schedule() const;
  double peak() const;
  const MilpWindowFigures& figures() const;

 private:
  class Search;
  std::unique_ptr<Search> search_;
};

}  // namespace gaus::live_memory
