// Refinement of a legal schedule for peak live memory, run after GauS's legalization of
// formulation B (Cai et al., GauS, arXiv 2602.20427: latency-bounded, minimize the peak of the
// memory held by live values) on problems whose units are unlimited, as the EPFL circuits'.
//
// The paper has no such step: the means are rounded and list-legalized, which restores
// precedence but knows nothing of memory. On and-inverter graphs at D = the critical path most
// of the peak is fixed by the critical ops, and what is left is a few ops per peak cycle that
// could start elsewhere: a combinatorial job for local moves, which a smooth maximum's gradient
// spreads over every cycle instead.
//
// The move set: one op moves to another start inside its precedence window (the latest
// predecessor start + delay to the earliest successor start - delay, within [0, D - duration]).
// A move changes the live interval of the op (it starts elsewhere) and of each of its producers
// (their last reader may move), and nothing else. The live-memory profile is kept per cycle;
// a move is applied cell by cell and undone when it does not help, with three figures kept up
// to date on the way: the cycles above the current peak, the cycles at it, and the sum of
// squared live memory. A move is accepted when no cycle rises above the peak and either no
// cycle is left at the peak (the peak falls: it is recomputed), or fewer cycles sit at it, or
// as many with a smaller sum of squares (which lets load leave a cycle next to the peak, where
// the peak itself cannot fall yet). Sweeps over every op, taking each op's best start, repeat
// until one changes nothing: a local optimum under the move set. Then compound moves are tried
// on the ops live at a peak cycle: an op goes up to 4 cycles outside its window and the ops
// precedence then forces along move with it (successors pushed later, predecessors pulled
// earlier, at most 32 ops), judged the same way; after one helps, single moves sweep again. On
// and-inverter graphs at D = the critical path single moves leave peak cycles whose values
// critical producers and readers pin (docs/benchmarks.md, "Scale: formulation B"), which
// compound moves can still lower. Every accepted move lowers (peak, cycles at peak, sum of
// squares) lexicographically, so the search ends, and the result is never worse than its input
// and a local optimum of single moves.

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include <gaus/heuristic/memory_refinement.hpp>

#include "precedence_window.hpp"

namespace gaus::heuristic {

namespace {

class MemorySearch {
 public:
  MemorySearch(const Graph& graph, Cycle horizon, const Schedule& legal)
      : graph_(graph),
        horizon_(horizon),
        start_(legal.start),
        live_(static_cast<std::size_t>(std::max<Cycle>(horizon, 1)) + 1, 0.0) {
    affected_.resize(static_cast<std::size_t>(graph_.numOps()));
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      std::vector<OpId>& ops = affected_[op];
      for (const EdgeId e : graph_.inEdges(op)) {
        const OpId producer = graph_.edgeSource(e);
        if (graph_.edgeDistance(e) == 0 && producer != op) ops.push_back(producer);
      }
      std::sort(ops.begin(), ops.end());
      ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
      ops.insert(ops.begin(), op);
    }
    for (OpId op = 0; op < graph_.numOps(); ++op) addInterval(op, 1.0);
    recomputePeak();
  }

  const std::vector<Cycle>& starts() const { return start_; }

  // The best start of `op` in its window, applied when it improves; true when it moved.
  bool improve(OpId op, std::int32_t maxCandidates) {
    const auto [low, high] = window(op);
    if (low >= high) return false;
    const Cycle current = start_[op];
    const Cycle span = high - low;
    const std::int64_t count = std::min<std::int64_t>(span + 1, std::max(2, maxCandidates));
    Cycle bestStart = current;
    Figures best = figures();
    for (std::int64_t k = 0; k < count; ++k) {
      const Cycle candidate = count == span + 1 ? low + k : low + span * k / (count - 1);
      if (candidate == current) continue;
      moveTo(op, candidate);
      const Figures after = figures();
      if (after.peakFalls) {  // the best an op can do: take it at once
        recomputePeak();
        return true;
      }
      if (after.better(best)) {
        best = after;
        bestStart = candidate;
      }
      moveTo(op, current);
    }
    if (bestStart == current) return false;
    moveTo(op, bestStart);
    return true;
  }

  // Ops whose value is live at a cycle at the peak: only moves around them can lower it.
  std::vector<OpId> opsLiveAtPeak() const {
    std::vector<Cycle> atPeakBefore(live_.size() + 1, 0);  // cycles at the peak before t
    for (std::size_t t = 0; t < live_.size(); ++t) {
      atPeakBefore[t + 1] = atPeakBefore[t] + (atPeak(live_[t]) ? 1 : 0);
    }
    std::vector<OpId> result;
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      const auto [begin, end] = interval(op);
      if (end > begin && atPeakBefore[end] > atPeakBefore[begin]) result.push_back(op);
    }
    return result;
  }

  // The best compound move of `op`: to a start up to kPushReach cycles outside its window,
  // with the ops precedence then forces along (successors pushed later, predecessors pulled
  // earlier, kMaxPushed ops at most). Applied when it improves; true when it did.
  bool improveByPush(OpId op) {
    const Cycle current = start_[op];
    std::vector<std::pair<OpId, Cycle>> undo;
    std::optional<Cycle> bestStart;
    Figures best = figures();
    for (Cycle reach = 1; reach <= kPushReach; ++reach) {
      for (const Cycle candidate : {current + reach, current - reach}) {
        undo.clear();
        if (!push(op, candidate, undo)) continue;
        const Figures after = figures();
        if (after.peakFalls) {
          recomputePeak();
          return true;
        }
        if (after.better(best)) {
          best = after;
          bestStart = candidate;
        }
        revert(undo);
      }
    }
    if (!bestStart) return false;
    undo.clear();
    push(op, *bestStart, undo);
    return true;
  }

 private:
  static constexpr Cycle kPushReach = 4;
  static constexpr std::size_t kMaxPushed = 32;

  // Moves `op` to `to` and every op precedence then forces along; false, with nothing changed,
  // when an op would leave [0, horizon - duration] or more than kMaxPushed ops would move.
  bool push(OpId op, Cycle to, std::vector<std::pair<OpId, Cycle>>& undo) {
    const bool later = to > start_[op];
    std::vector<std::pair<OpId, Cycle>> pending{{op, to}};
    while (!pending.empty()) {
      const auto [u, t] = pending.back();
      pending.pop_back();
      if (later ? t <= start_[u] : t >= start_[u]) continue;
      if (t < 0 || t > horizon_ - graph_.duration(u) || undo.size() >= kMaxPushed) {
        revert(undo);
        return false;
      }
      undo.emplace_back(u, start_[u]);
      moveTo(u, t);
      if (later) {
        for (const EdgeId e : graph_.outEdges(u)) {
          if (graph_.edgeDistance(e) != 0) continue;
          const OpId w = graph_.edgeTarget(e);
          if (start_[w] < t + graph_.edgeDelay(e)) pending.emplace_back(w, t + graph_.edgeDelay(e));
        }
      } else {
        for (const EdgeId e : graph_.inEdges(u)) {
          if (graph_.edgeDistance(e) != 0) continue;
          const OpId v = graph_.edgeSource(e);
          if (start_[v] > t - graph_.edgeDelay(e)) pending.emplace_back(v, t - graph_.edgeDelay(e));
        }
      }
    }
    return true;
  }

  void revert(std::vector<std::pair<OpId, Cycle>>& undo) {
    for (auto it = undo.rbegin(); it != undo.rend(); ++it) moveTo(it->first, it->second);
    undo.clear();
  }

  // What the profile looks like against the peak it had before the move.
  struct Figures {
    bool above = false;      // some cycle rose above the peak
    bool peakFalls = false;  // no cycle is left at the peak
    std::int64_t atPeak = 0;
    double sumSquares = 0.0;
    bool better(const Figures& other) const {
      if (above) return false;
      if (atPeak != other.atPeak) return atPeak < other.atPeak;
      return sumSquares < other.sumSquares - kTolerance * std::max(1.0, other.sumSquares);
    }
  };
  static constexpr double kTolerance = 1e-9;

  Figures figures() const {
    return {above_ > 0, above_ == 0 && atPeak_ == 0, atPeak_, sumSquares_};
  }

  bool atPeak(double value) const {
    return std::abs(value - peak_) <= kTolerance * std::max(1.0, peak_);
  }
  bool abovePeak(double value) const { return value > peak_ + kTolerance * std::max(1.0, peak_); }

  void addToCycle(Cycle t, double delta) {
    double& cell = live_[static_cast<std::size_t>(t)];
    atPeak_ -= atPeak(cell) ? 1 : 0;
    above_ -= abovePeak(cell) ? 1 : 0;
    sumSquares_ -= cell * cell;
    cell += delta;
    atPeak_ += atPeak(cell) ? 1 : 0;
    above_ += abovePeak(cell) ? 1 : 0;
    sumSquares_ += cell * cell;
  }

  // Op u's value is live from s_u until its last distance-0 reader starts (core's rule; empty
  // without mem).
  std::pair<Cycle, Cycle> interval(OpId op) const {
    if (graph_.mem(op) == 0.0) return {start_[op], start_[op]};
    const LiveInterval live = liveInterval(graph_, start_, 0, op);
    return {live.begin, live.end};
  }

  void addInterval(OpId op, double sign) {
    const auto [begin, end] = interval(op);
    for (Cycle t = begin; t < end; ++t) addToCycle(t, sign * graph_.mem(op));
  }

  // Moves `op` to `to`, updating its interval and its producers'.
  void moveTo(OpId op, Cycle to) {
    forEachAffected(op, [&](OpId u) { addInterval(u, -1.0); });
    start_[op] = to;
    forEachAffected(op, [&](OpId u) { addInterval(u, 1.0); });
  }

  // The op and its distinct distance-0 producers: the intervals a move of the op changes.
  template <typename Visit>
  void forEachAffected(OpId op, Visit visit) const {
    for (const OpId u : affected_[op]) visit(u);
  }

  std::pair<Cycle, Cycle> window(OpId op) const {
    return detail::precedenceWindow(graph_, start_, op, horizon_);
  }

  void recomputePeak() {
    peak_ = *std::max_element(live_.begin(), live_.end());
    atPeak_ = 0;
    above_ = 0;
    sumSquares_ = 0.0;
    for (const double cell : live_) {
      atPeak_ += atPeak(cell) ? 1 : 0;
      sumSquares_ += cell * cell;
    }
  }

  const Graph& graph_;
  Cycle horizon_;
  std::vector<Cycle> start_;
  std::vector<double> live_;  // live memory per cycle
  double peak_ = 0.0;
  std::int64_t atPeak_ = 0;
  std::int64_t above_ = 0;
  double sumSquares_ = 0.0;
  std::vector<std::vector<OpId>> affected_;  // per op: itself, then its distinct producers
};

}  // namespace

MemoryRefinement refineLiveMemory(const Graph& graph, Cycle horizon, const Schedule& legal,
                                  const MemoryRefinementOptions& options) {
  MemoryRefinement result;
  MemorySearch search(graph, horizon, legal);
  bool stopped = false;
  const auto stop = [&](std::int64_t index) {
    if (!stopped && options.stop && (index % 256) == 0 && options.stop()) stopped = true;
    return stopped;
  };
  // Single moves until none helps; then compound moves of the ops live at the peak, and single
  // moves again after any of them helped. So the result is a local optimum of single moves.
  for (bool pushed = true; pushed && !stopped;) {
    for (bool moved = true; moved && !stopped;) {
      moved = false;
      ++result.sweeps;
      for (OpId op = 0; op < graph.numOps() && !stop(op); ++op) {
        if (search.improve(op, options.maxCandidates)) {
          ++result.moves;
          moved = true;
        }
      }
    }
    pushed = false;
    const std::vector<OpId> candidates = stopped ? std::vector<OpId>{} : search.opsLiveAtPeak();
    for (std::size_t k = 0; k < candidates.size() && !stop(static_cast<std::int64_t>(k)); ++k) {
      if (search.improveByPush(candidates[k])) {
        ++result.pushes;
        pushed = true;
      }
    }
  }
  result.localOptimum = !stopped;
  result.schedule = legal;
  result.schedule.start = search.starts();
  return result;
}

}  // namespace gaus::heuristic
