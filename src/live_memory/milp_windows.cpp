// Windows of exact re-optimization for peak live memory (formulation B of GauS,
// include/gaus/milp/live_memory_windows.hpp).
//
// Why: on the 100,000-op and-inverter graph of docs/benchmarks.md the local search of
// Refiner ends at a peak of 68 in five clusters of cycles, and neither its
// moves nor the regions of 1,100 other candidates (Refiner::splice) lower any of them
// for long. The ops around one cluster number about a hundred, each with a few starts left by
// its fixed neighbours: small enough for a MILP to place them all at once, which is what no
// sequence of single and compound moves that each must not raise the figures can do.
//
// The model of one window [low, high) around a cluster [from, to) of peak cycles:
// - The ops that start in the window move; every other op keeps its start. A moving op u starts
//   in [e_u, l_u]: the window, its duration's room before the horizon, and its fixed
//   neighbours (s_u >= s_p + delay for a fixed producer p, s_u <= s_q - delay for a fixed
//   successor q), tightened along the moving ops' own edges in topological order.
// - The window is then the live-memory model of milp/live_memory_model.cpp with these ops
//   moving: x[u][t], precedence between moving ops, a live status per value and cycle where a
//   move can change it, and P over the cycles with a variable; the objective is P, capped just
//   below the schedule's peak (a relative 1e-4: one below, with whole mems). Only a placement
//   below the peak helps, and the cap turns most windows that cannot get there into infeasible
//   models that the MILP solver proves in milliseconds: on the 100,000-op graph a window of 328 ops
//   that ran out of 30 s with the current placement as its first incumbent was solved in 18 s with
//   the cap, and 30 others proven infeasible in 0.03-4.7 s each.
// The solve is bounded by a node limit and a few seconds (MilpModel::solve: a child process,
// stopped from outside if the solver overruns). A
// solution is kept when the whole schedule is better in the refinement's order: the peak fell,
// or the cycles at it are fewer and none rose above it (a cluster whose cycles are certain
// cannot fall, whatever P the window reaches). Its precedence is checked before it is kept.
//
// Windows are tried cluster by cluster, at each half width (narrowest first) until one lowers
// the cluster; passes over the current peak's clusters repeat while one lowered something, and
// a pass that lowered nothing ends the search. A window solved to optimality in vain is
// remembered by a fingerprint of its model and skipped while the model is the same. The search
// never makes a cycle rise above the peak, so the peak never rises; each kept window lowers the
// peak or the count of cycles at it.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <unordered_set>

#include <gaus/core/analysis.hpp>
#include <gaus/live_memory/milp_windows.hpp>
#include <gaus/live_memory/model.hpp>
#include <gaus/live_memory/neighbourhood.hpp>

namespace gaus::live_memory {

using milp::MilpSolution;

class MilpWindowSearch::Search {
 public:
  Search(std::shared_ptr<const ProblemFacts> facts, const Schedule& legal,
         MilpWindowOptions options)
      : neighbourhoods_(std::move(facts), legal), options_(std::move(options)) {}

  void restart(const Schedule& legal) { neighbourhoods_.reset(legal); }

  bool run(const std::function<bool()>& stop, double secondsLeft) {
    const auto began = std::chrono::steady_clock::now();
    const auto left = [&] {
      return secondsLeft -
             std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    };
    return neighbourhoods_.runPasses(
        options_.halfWidths, [&] { return (stop && stop()) || left() <= 0.0; },
        [&](Cycle from, Cycle to, Cycle halfWidth) {
          return lowerWindow(from, to, halfWidth, std::min(options_.secondsPerWindow, left()));
        });
  }

  const Schedule& schedule() const { return neighbourhoods_.schedule(); }
  double peak() const { return neighbourhoods_.peak(); }
  const MilpWindowFigures& figures() const { return figures_; }

 private:
  static constexpr double kCapMargin = 1e-4;  // P's cap below the peak, relative

  // Solves the window [from - halfWidth, to + halfWidth) around cluster [from, to); applies its
  // solution and returns true when it lowers the window below the peak.
  bool lowerWindow(Cycle from, Cycle to, Cycle halfWidth, double seconds) {
    const Cycle low = std::max<Cycle>(0, from - halfWidth);
    const Cycle high = std::min<Cycle>(neighbourhoods_.horizon(), to + halfWidth);
    const std::vector<MovingStart> moving =
        neighbourhoods_.movingOps(low, high, options_.maxWindowOps);
    if (moving.empty()) return false;
    return solveWindow(moving, seconds);
  }

  bool solveWindow(const std::vector<MovingStart>& moving, double seconds) {
    const double peak = neighbourhoods_.peak();
    PeakMemoryModelInput input;
    input.graph = &neighbourhoods_.graph();
    input.horizon = neighbourhoods_.horizon();
    input.start = neighbourhoods_.schedule().start;
    input.moving = moving;
    // Only a placement below the peak helps: P is capped just below it (kCapMargin, well above
    // the solvers' tolerances; with whole mems P is whole, so this is one below), which prunes
    // the search where the current placement, at the peak, would only be its first incumbent.
    input.peakCap = peak - kCapMargin * std::max(1.0, peak);
    PeakMemoryModel model(input);
    if (model.empty()) return false;
    // A window solved to optimality in vain is not solved again while its model is the same.
    const std::uint64_t fingerprint = model.fingerprint();
    if (unimprovable_.count(fingerprint) != 0) return false;
    model.model().setNodeLimit(options_.nodeLimit);
    model.model().setSolver(options_.solver);
    const MilpSolution solution = model.model().solve(seconds);
    ++figures_.solves;
    figures_.solveSeconds += solution.seconds;
    // Infeasible: no placement of the window goes below the peak (P's cap), proven.
    if (solution.status == ModelStatus::kInfeasible) unimprovable_.insert(fingerprint);
    if (!solution.hasSolution() || solution.values.empty()) return false;
    if (!neighbourhoods_.offer(model.decode(solution), moving)) {
      if (solution.status == ModelStatus::kOptimal) unimprovable_.insert(fingerprint);
      return false;
    }
    ++figures_.improvements;
    return true;
  }

  PeakNeighbourhoods neighbourhoods_;
  MilpWindowOptions options_;
  std::unordered_set<std::uint64_t> unimprovable_;  // fingerprints of windows solved in vain
  MilpWindowFigures figures_;
};

}  // namespace gaus::live_memory

namespace gaus::live_memory {

MilpWindowSearch::MilpWindowSearch(const Graph& graph, Cycle horizon, const Schedule& legal,
                                   MilpWindowOptions options)
    : MilpWindowSearch(graphFacts(graph, horizon), legal, std::move(options)) {}

MilpWindowSearch::MilpWindowSearch(std::shared_ptr<const ProblemFacts> facts, const Schedule& legal,
                                   MilpWindowOptions options)
    : search_(std::make_unique<Search>(std::move(facts), legal, std::move(options))) {}

MilpWindowSearch::~MilpWindowSearch() = default;

void MilpWindowSearch::restart(const Schedule& legal) {
  search_->restart(legal);
}

bool MilpWindowSearch::run(const std::function<bool()>& stop, double secondsLeft) {
  return search_->run(stop, secondsLeft);
}

const Schedule& MilpWindowSearch::schedule() const {
  return search_->schedule();
}

double MilpWindowSearch::peak() const {
  return search_->peak();
}

const MilpWindowFigures& MilpWindowSearch::figures() const {
  return search_->figures();
}

}  // namespace gaus::live_memory
