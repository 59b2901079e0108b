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
//   models that CBC proves in milliseconds: on the 100,000-op graph a window of 328 ops that
//   ran out of 30 s with the current placement as its first incumbent was solved in 18 s with
//   the cap, and 30 others proven infeasible in 0.03-4.7 s each.
// The solve is bounded by a node limit and a few seconds (MilpModel::solve: a child process,
// stopped from outside if CBC overruns). A
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

namespace gaus::live_memory {

using milp::LinearExpression;
using milp::MilpModel;
using milp::MilpSolution;
using milp::ModelSize;
using milp::StartGrid;
using milp::VariableId;

class MilpWindowSearch::Search {
 public:
  Search(const Graph& graph, Cycle horizon, const Schedule& legal, MilpWindowOptions options)
      : graph_(graph),
        horizon_(horizon),
        schedule_(legal),
        options_(std::move(options)),
        position_(static_cast<std::size_t>(graph.numOps()), 0),
        windowIndex_(static_cast<std::size_t>(graph.numOps()), -1) {
    if (auto order = topologicalOrder(graph)) {
      for (std::size_t k = 0; k < order->size(); ++k) position_[(*order)[k]] = std::int64_t(k);
    }
    recomputeProfile();
  }

  void restart(const Schedule& legal) {
    schedule_ = legal;
    recomputeProfile();
    inPass_ = false;
  }

  bool run(const std::function<bool()>& stop, double secondsLeft) {
    const auto began = std::chrono::steady_clock::now();
    const auto left = [&] {
      return secondsLeft -
             std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    };
    while (true) {
      if (!inPass_) {
        if (peak_ <= kTolerance) return true;
        clusters_ = peakClusters();
        nextCluster_ = 0;
        loweredInPass_ = false;
        inPass_ = true;
      }
      for (; nextCluster_ < clusters_.size(); ++nextCluster_) {
        const auto [from, to] = clusters_[nextCluster_];
        for (const Cycle halfWidth : options_.halfWidths) {
          if (stop && stop()) return false;
          const double seconds = std::min(options_.secondsPerWindow, left());
          if (seconds <= 0.0) return false;
          if (lowerWindow(from, to, halfWidth, seconds)) {
            loweredInPass_ = true;
            break;
          }
        }
      }
      inPass_ = false;
      // A pass that lowered something changed what the other clusters' windows see.
      if (!loweredInPass_) return true;
    }
  }

  const Schedule& schedule() const { return schedule_; }
  double peak() const { return peak_; }
  const MilpWindowFigures& figures() const { return figures_; }

 private:
  static constexpr double kTolerance = 1e-9;
  static constexpr double kCapMargin = 1e-4;  // P's cap below the peak, relative
  static constexpr Cycle kClusterGap = 8;     // peak cycles at most this far apart share a cluster

  struct MovingOp {
    OpId op;
    Cycle earliest;
    Cycle latest;
  };

  std::span<const Cycle> starts() const { return schedule_.start; }

  void recomputeProfile() {
    profile_.assign(static_cast<std::size_t>(std::max<Cycle>(horizon_, 1)) + 1, 0.0);
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      if (graph_.mem(op) == 0.0) continue;
      const LiveInterval live = liveInterval(graph_, starts(), 0, op);
      for (Cycle t = live.begin; t < live.end; ++t) profile_[t] += graph_.mem(op);
    }
    peak_ = *std::max_element(profile_.begin(), profile_.end());
    atPeak_ = std::count_if(profile_.begin(), profile_.end(), [this](double value) {
      return std::abs(value - peak_) <= kTolerance * std::max(1.0, peak_);
    });
  }

  std::vector<std::pair<Cycle, Cycle>> peakClusters() const {
    std::vector<std::pair<Cycle, Cycle>> clusters;
    for (Cycle t = 0; t < static_cast<Cycle>(profile_.size()); ++t) {
      if (std::abs(profile_[t] - peak_) > kTolerance * std::max(1.0, peak_)) continue;
      if (!clusters.empty() && t - clusters.back().second < kClusterGap) {
        clusters.back().second = t + 1;
      } else {
        clusters.emplace_back(t, t + 1);
      }
    }
    return clusters;
  }

  // The moving ops of window [low, high) with their start ranges, in topological order; empty
  // when there are none, too many, or none can move.
  std::vector<MovingOp> movingOps(Cycle low, Cycle high) {
    std::vector<MovingOp> moving;
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      if (schedule_.start[op] >= low && schedule_.start[op] < high) {
        moving.push_back({op, low, std::min(high - 1, horizon_ - graph_.duration(op))});
      }
    }
    if (moving.empty() || static_cast<std::int64_t>(moving.size()) > options_.maxWindowOps) {
      return {};
    }
    std::sort(moving.begin(), moving.end(), [this](const MovingOp& a, const MovingOp& b) {
      return position_[a.op] < position_[b.op];
    });
    for (std::size_t k = 0; k < moving.size(); ++k) {
      windowIndex_[moving[k].op] = static_cast<std::int32_t>(k);
    }
    for (MovingOp& u : moving) {
      for (const EdgeId e : graph_.inEdges(u.op)) {
        const OpId p = graph_.edgeSource(e);
        if (graph_.edgeDistance(e) == 0 && windowIndex_[p] < 0) {
          u.earliest = std::max(u.earliest, schedule_.start[p] + graph_.edgeDelay(e));
        }
      }
      for (const EdgeId e : graph_.outEdges(u.op)) {
        const OpId q = graph_.edgeTarget(e);
        if (graph_.edgeDistance(e) == 0 && windowIndex_[q] < 0) {
          u.latest = std::min(u.latest, schedule_.start[q] - graph_.edgeDelay(e));
        }
      }
    }
    for (const MovingOp& u : moving) {
      for (const EdgeId e : graph_.outEdges(u.op)) {
        const std::int32_t v = windowIndex_[graph_.edgeTarget(e)];
        if (graph_.edgeDistance(e) == 0 && v >= 0) {
          moving[v].earliest = std::max(moving[v].earliest, u.earliest + graph_.edgeDelay(e));
        }
      }
    }
    for (auto u = moving.rbegin(); u != moving.rend(); ++u) {
      for (const EdgeId e : graph_.outEdges(u->op)) {
        const std::int32_t v = windowIndex_[graph_.edgeTarget(e)];
        if (graph_.edgeDistance(e) == 0 && v >= 0) {
          u->latest = std::min(u->latest, moving[v].latest - graph_.edgeDelay(e));
        }
      }
    }
    bool canMove = false;
    bool consistent = true;
    for (const MovingOp& u : moving) {
      const Cycle s = schedule_.start[u.op];
      consistent = consistent && u.earliest <= s && s <= u.latest;
      canMove = canMove || u.earliest < u.latest;
    }
    if (!canMove || !consistent) {
      clearWindowIndex(moving);
      return {};
    }
    return moving;
  }

  void clearWindowIndex(const std::vector<MovingOp>& moving) {
    for (const MovingOp& u : moving) windowIndex_[u.op] = -1;
  }

  // Solves the window [from - halfWidth, to + halfWidth) around cluster [from, to); applies its
  // solution and returns true when it lowers the window below the peak.
  bool lowerWindow(Cycle from, Cycle to, Cycle halfWidth, double seconds) {
    const Cycle low = std::max<Cycle>(0, from - halfWidth);
    const Cycle high = std::min<Cycle>(horizon_, to + halfWidth);
    std::vector<MovingOp> moving = movingOps(low, high);
    if (moving.empty()) return false;
    const bool lowered = solveWindow(moving, seconds);
    clearWindowIndex(moving);
    return lowered;
  }

  bool solveWindow(const std::vector<MovingOp>& moving, double seconds) {
    PeakMemoryModelInput input;
    input.graph = &graph_;
    input.horizon = horizon_;
    input.start = schedule_.start;
    for (const MovingOp& u : moving) input.moving.push_back({u.op, u.earliest, u.latest});
    // Only a placement below the peak helps: P is capped just below it (kCapMargin, well above
    // CBC's tolerances; with whole mems P is whole, so this is one below), which prunes CBC's
    // search where the current placement, at the peak, would only be its first incumbent.
    input.peakCap = peak_ - kCapMargin * std::max(1.0, peak_);
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
    const bool proven = solution.status == ModelStatus::kOptimal;

    const std::vector<Cycle> before = schedule_.start;
    schedule_.start = model.decode(solution);
    const double peakBefore = peak_;
    const std::int64_t atPeakBefore = atPeak_;
    recomputeProfile();
    // Kept when legal and better in the refinement's order: the peak fell, or as many cycles
    // at it became fewer, none above it. A window whose certain part holds the peak cannot
    // lower its cluster, and CBC's tolerances could let a solution through that does not help.
    const bool better =
        peak_ < peakBefore - kTolerance * std::max(1.0, peakBefore) ||
        (peak_ <= peakBefore + kTolerance * std::max(1.0, peakBefore) && atPeak_ < atPeakBefore);
    if (!better || !keepsPrecedence(moving)) {
      schedule_.start = before;
      recomputeProfile();
      if (proven) unimprovable_.insert(fingerprint);
      return false;
    }
    ++figures_.improvements;
    return true;
  }

  // Every distance-0 edge at a moving op holds (the model keeps them; this checks its answer).
  bool keepsPrecedence(const std::vector<MovingOp>& moving) const {
    for (const MovingOp& u : moving) {
      for (const EdgeId e : graph_.outEdges(u.op)) {
        if (graph_.edgeDistance(e) != 0) continue;
        if (starts()[graph_.edgeTarget(e)] < starts()[u.op] + graph_.edgeDelay(e)) return false;
      }
      for (const EdgeId e : graph_.inEdges(u.op)) {
        if (graph_.edgeDistance(e) != 0) continue;
        if (starts()[u.op] < starts()[graph_.edgeSource(e)] + graph_.edgeDelay(e)) return false;
      }
    }
    return true;
  }

  const Graph& graph_;
  Cycle horizon_;
  Schedule schedule_;
  MilpWindowOptions options_;
  std::vector<std::int64_t> position_;     // topological position of each op
  std::vector<std::int32_t> windowIndex_;  // index among the moving ops, -1 elsewhere
  std::vector<double> profile_;
  double peak_ = 0.0;
  std::int64_t atPeak_ = 0;  // cycles at the peak
  std::vector<std::pair<Cycle, Cycle>> clusters_;
  std::size_t nextCluster_ = 0;
  bool loweredInPass_ = false;
  bool inPass_ = false;
  std::unordered_set<std::uint64_t> unimprovable_;  // fingerprints of windows solved in vain
  MilpWindowFigures figures_;
};

}  // namespace gaus::live_memory

namespace gaus::live_memory {

MilpWindowSearch::MilpWindowSearch(const Graph& graph, Cycle horizon, const Schedule& legal,
                                   MilpWindowOptions options)
    : search_(std::make_unique<Search>(graph, horizon, legal, std::move(options))) {}

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
