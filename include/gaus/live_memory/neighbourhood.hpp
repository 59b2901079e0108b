// The neighbourhoods of a legal schedule's peak live memory that formulation B's window searches
// re-solve: the cycles of each cluster of peak cycles widened by a margin, the ops that start in
// them free to move within what their fixed neighbours allow, every other op where it is. The
// exact windows (milp_windows.hpp, a MILP per window) and the cut windows (cut_windows.hpp, the
// Lagrangian's minimum cuts per window) share it: the schedule and its profile, the clusters, the
// moving ops and their ranges, the rule by which a new placement is kept, and the passes over
// the clusters, resumable between time slices.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/problem_facts.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus::live_memory {

// An op that moves and the starts it may take.
struct MovingStart {
  OpId op = 0;
  Cycle earliest = 0;
  Cycle latest = 0;  // >= earliest
};

class PeakNeighbourhoods {
 public:
  // `legal` must keep every distance-0 edge and every op within [0, horizon - duration].
  // `facts` at the horizon (a posed problem's, or graphFacts): their order ranks the ops.
  PeakNeighbourhoods(std::shared_ptr<const ProblemFacts> facts, const Schedule& legal);

  // Goes on from another legal schedule; the passes start again.
  void reset(const Schedule& legal);
  const Graph& graph() const { return graph_; }
  Cycle horizon() const { return horizon_; }
  const Schedule& schedule() const { return schedule_; }
  const std::vector<double>& profile() const { return profile_; }  // per cycle, [0, horizon]
  double peak() const { return peak_; }
  std::int64_t atPeak() const { return atPeak_; }

  // The ops that start in [low, high), with the starts each may take when every other op keeps
  // its start (their fixed neighbours, the window, the horizon, and the moving ops' own edges),
  // in topological order; empty when there are none or more than `maxOps`, or none can move.
  std::vector<MovingStart> movingOps(Cycle low, Cycle high, std::int64_t maxOps);

  // Takes `start` (the schedule with the moving ops placed anew) when it keeps their edges and
  // is better in the refinement's order: the peak fell, or as many cycles at it became fewer,
  // none above it. True when taken; else the schedule stays as it was.
  bool offer(const std::vector<Cycle>& start, std::span<const MovingStart> moving);

  // Tries `lower(from, to, margin)` on every cluster [from, to) of peak cycles at each margin,
  // narrowest first, until one lowers it (returns true); passes repeat while one lowered
  // something. True when a pass lowered nothing (or the peak is 0): the clusters are done;
  // false when `stop` ended it (a later call goes on from the cluster it reached, as long as
  // the schedule was not reset).
  bool runPasses(std::span<const Cycle> margins, const std::function<bool()>& stop,
                 const std::function<bool(Cycle from, Cycle to, Cycle margin)>& lower);

 private:
  static constexpr double kTolerance = 1e-9;
  static constexpr Cycle kClusterGap = 8;  // peak cycles at most this far apart share a cluster

  void recomputeProfile();
  std::vector<std::pair<Cycle, Cycle>> peakClusters() const;
  bool keepsPrecedence(std::span<const MovingStart> moving) const;

  std::shared_ptr<const ProblemFacts> facts_;
  const Graph& graph_;
  Cycle horizon_;
  Schedule schedule_;
  std::vector<std::int64_t> position_;     // topological position of each op
  std::vector<std::int32_t> windowIndex_;  // index among the moving ops, -1 elsewhere
  std::vector<double> profile_;
  double peak_ = 0.0;
  std::int64_t atPeak_ = 0;  // cycles at the peak
  std::vector<std::pair<Cycle, Cycle>> clusters_;
  std::size_t nextCluster_ = 0;
  bool loweredInPass_ = false;
  bool inPass_ = false;
};

}  // namespace gaus::live_memory
