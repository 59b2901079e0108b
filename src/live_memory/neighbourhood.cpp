// The neighbourhoods of a schedule's peak live memory (include/gaus/live_memory/neighbourhood.hpp).

#include <algorithm>
#include <cmath>

#include <gaus/core/analysis.hpp>
#include <gaus/live_memory/neighbourhood.hpp>

namespace gaus::live_memory {

PeakNeighbourhoods::PeakNeighbourhoods(std::shared_ptr<const ProblemFacts> facts,
                                       const Schedule& legal)
    : facts_(std::move(facts)),
      graph_(facts_->graph()),
      horizon_(facts_->horizon().value_or(0)),
      schedule_(legal),
      position_(static_cast<std::size_t>(graph_.numOps()), 0),
      windowIndex_(static_cast<std::size_t>(graph_.numOps()), -1) {
  if (const auto& order = facts_->order()) {
    for (std::size_t k = 0; k < order->size(); ++k) position_[(*order)[k]] = std::int64_t(k);
  }
  recomputeProfile();
}

void PeakNeighbourhoods::reset(const Schedule& legal) {
  schedule_ = legal;
  recomputeProfile();
  inPass_ = false;
}

void PeakNeighbourhoods::recomputeProfile() {
  profile_.assign(static_cast<std::size_t>(std::max<Cycle>(horizon_, 1)) + 1, 0.0);
  for (OpId op = 0; op < graph_.numOps(); ++op) {
    if (graph_.mem(op) == 0.0) continue;
    const LiveInterval live = liveInterval(graph_, schedule_.start, 0, op);
    for (Cycle t = live.begin; t < live.end; ++t) profile_[t] += graph_.mem(op);
  }
  peak_ = *std::max_element(profile_.begin(), profile_.end());
  atPeak_ = std::count_if(profile_.begin(), profile_.end(), [this](double value) {
    return std::abs(value - peak_) <= kTolerance * std::max(1.0, peak_);
  });
}

std::vector<std::pair<Cycle, Cycle>> PeakNeighbourhoods::peakClusters() const {
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

std::vector<MovingStart> PeakNeighbourhoods::movingOps(Cycle low, Cycle high, std::int64_t maxOps) {
  std::vector<MovingStart> moving;
  for (OpId op = 0; op < graph_.numOps(); ++op) {
    if (schedule_.start[op] >= low && schedule_.start[op] < high) {
      moving.push_back({op, low, std::min(high - 1, horizon_ - graph_.duration(op))});
    }
  }
  if (moving.empty() || static_cast<std::int64_t>(moving.size()) > maxOps) return {};
  std::sort(moving.begin(), moving.end(), [this](const MovingStart& a, const MovingStart& b) {
    return position_[a.op] < position_[b.op];
  });
  for (std::size_t k = 0; k < moving.size(); ++k) {
    windowIndex_[moving[k].op] = static_cast<std::int32_t>(k);
  }
  for (MovingStart& u : moving) {
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
  for (const MovingStart& u : moving) {
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
  for (const MovingStart& u : moving) {
    const Cycle s = schedule_.start[u.op];
    consistent = consistent && u.earliest <= s && s <= u.latest;
    canMove = canMove || u.earliest < u.latest;
  }
  for (const MovingStart& u : moving) windowIndex_[u.op] = -1;
  if (!canMove || !consistent) return {};
  return moving;
}

bool PeakNeighbourhoods::offer(const std::vector<Cycle>& start,
                               std::span<const MovingStart> moving) {
  const std::vector<Cycle> before = schedule_.start;
  schedule_.start = start;
  const double peakBefore = peak_;
  const std::int64_t atPeakBefore = atPeak_;
  recomputeProfile();
  // A window whose certain part holds the peak cannot lower its cluster, and a solver's
  // tolerances could let a placement through that does not help: kept only when better.
  const bool better =
      peak_ < peakBefore - kTolerance * std::max(1.0, peakBefore) ||
      (peak_ <= peakBefore + kTolerance * std::max(1.0, peakBefore) && atPeak_ < atPeakBefore);
  if (better && keepsPrecedence(moving)) return true;
  schedule_.start = before;
  recomputeProfile();
  return false;
}

// Every distance-0 edge at a moving op holds (the solvers keep them; this checks their answer).
bool PeakNeighbourhoods::keepsPrecedence(std::span<const MovingStart> moving) const {
  const std::span<const Cycle> starts = schedule_.start;
  for (const MovingStart& u : moving) {
    for (const EdgeId e : graph_.outEdges(u.op)) {
      if (graph_.edgeDistance(e) != 0) continue;
      if (starts[graph_.edgeTarget(e)] < starts[u.op] + graph_.edgeDelay(e)) return false;
    }
    for (const EdgeId e : graph_.inEdges(u.op)) {
      if (graph_.edgeDistance(e) != 0) continue;
      if (starts[u.op] < starts[graph_.edgeSource(e)] + graph_.edgeDelay(e)) return false;
    }
  }
  return true;
}

bool PeakNeighbourhoods::runPasses(
    std::span<const Cycle> margins, const std::function<bool()>& stop,
    const std::function<bool(Cycle from, Cycle to, Cycle margin)>& lower) {
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
      for (const Cycle margin : margins) {
        if (stop && stop()) return false;
        if (lower(from, to, margin)) {
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

}  // namespace gaus::live_memory
