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
// the peak itself cannot fall yet). A move is applied by difference: moving an op from one
// start to the next changes one cell per interval end that moved, so scanning an op's window in
// increasing order costs the window's width, not its width times the intervals' lengths.
// Ops are taken from a work list: every op once, then, after a move, the ops whose window or
// intervals the move changed (the op's distance-0 neighbours); when the list runs dry a sweep
// over every op checks that no move is left (a peak that fell, or the sum of squares, can make
// a distant op's move pay), and refills the list if one is. So the search ends in a local
// optimum under the move set, as full sweeps until one changes nothing would, in a few sweeps
// instead of a dozen on a 214,591-op circuit. Then compound moves are tried
// on the ops live at a peak cycle: an op goes up to 4 cycles outside its window and the ops
// precedence then forces along move with it (successors pushed later, predecessors pulled
// earlier, at most 32 ops), judged the same way; after one helps, single moves sweep again. On
// and-inverter graphs at D = the critical path single moves leave peak cycles whose values
// critical producers and readers pin (docs/benchmarks.md, "Scale: formulation B"), which
// compound moves can still lower. Every accepted move lowers (peak, cycles at peak, sum of
// squares) lexicographically, so the search ends, and the result is never worse than its input
// and a local optimum of single moves.
//
// Splicing (splice()) takes a second legal schedule, the donor, and moves to the donor's starts
// the ops around each cluster of peak cycles (kRegionGap): the ops live or starting there in
// either schedule, within a margin, closed under the edges that would otherwise break. A large
// graph's peak is a few such clusters far apart; candidates at the same peak have different ones
// high, and no single move sequence of the local search joins what two of them got right. The
// splice is judged by the same figures as a move, so it keeps the search's order and its ending.
// This is partition crossover in the sense of the genetic-algorithm literature (Whitley et al.):
// the schedule splits where the two parents' differences are independent, and each part takes the
// better parent; here the split is by time, and the closure makes the parts independent.

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include <gaus/core/analysis.hpp>
#include <gaus/live_memory/refinement.hpp>

namespace gaus::live_memory {

class Refiner::Search {
 public:
  Search(const Graph& graph, Cycle horizon, const Schedule& legal)
      : graph_(graph),
        horizon_(horizon),
        start_(legal.start),
        live_(static_cast<std::size_t>(std::max<Cycle>(horizon, 1)) + 1, 0.0) {
    affected_.resize(static_cast<std::size_t>(graph_.numOps()));
    neighbours_.resize(static_cast<std::size_t>(graph_.numOps()));
    inSplice_.assign(static_cast<std::size_t>(graph_.numOps()), 0);
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      std::vector<OpId>& ops = affected_[op];
      std::vector<OpId>& near = neighbours_[op];
      for (const EdgeId e : graph_.inEdges(op)) {
        const OpId producer = graph_.edgeSource(e);
        if (graph_.edgeDistance(e) == 0 && producer != op) ops.push_back(producer);
      }
      for (const EdgeId e : graph_.outEdges(op)) {
        const OpId reader = graph_.edgeTarget(e);
        if (graph_.edgeDistance(e) == 0 && reader != op) near.push_back(reader);
      }
      std::sort(ops.begin(), ops.end());
      ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
      near.insert(near.end(), ops.begin(), ops.end());
      std::sort(near.begin(), near.end());
      near.erase(std::unique(near.begin(), near.end()), near.end());
      ops.insert(ops.begin(), op);
    }
    lastReader_.assign(static_cast<std::size_t>(graph_.numOps()), kNoReader);
    readersAtLast_.assign(static_cast<std::size_t>(graph_.numOps()), 0);
    for (OpId op = 0; op < graph_.numOps(); ++op) recomputeLastReader(op);
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      const auto [begin, end] = interval(op);
      addRange(begin, end, graph_.mem(op));
    }
    recomputePeak();
  }

  const std::vector<Cycle>& starts() const { return start_; }
  double peak() const { return peak_; }
  // The ops a move of `op` may have made improvable: itself and its distance-0 neighbours,
  // whose windows (predecessors, successors) or intervals (producers) it changed.
  const std::vector<OpId>& neighbours(OpId op) const { return neighbours_[op]; }

  // The best start of `op` in its window, applied when it improves; true when it moved. The
  // candidates are visited in increasing order, the op moving from one to the next, so that each
  // visit changes only the cells between two neighbouring starts.
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
    }
    moveTo(op, bestStart);
    return bestStart != current;
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
  // earlier, kMaxPushed ops at most). Applied when it improves, the ops it moved appended to
  // `moved`; true when it did.
  bool improveByPush(OpId op, std::vector<OpId>& moved) {
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
          for (const auto& [u, from] : undo) moved.push_back(u);
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
    for (const auto& [u, from] : undo) moved.push_back(u);
    return true;
  }

  // The cycles at the peak, grouped into regions [from, to): cycles at most kRegionGap apart
  // share one.
  std::vector<std::pair<Cycle, Cycle>> peakRegions() const {
    std::vector<std::pair<Cycle, Cycle>> regions;
    for (Cycle t = 0; t < static_cast<Cycle>(live_.size()); ++t) {
      if (!atPeak(live_[static_cast<std::size_t>(t)])) continue;
      if (!regions.empty() && t - regions.back().second < kRegionGap) {
        regions.back().second = t + 1;
      } else {
        regions.emplace_back(t, t + 1);
      }
    }
    return regions;
  }

  enum class Splice { kNone, kBetter, kPeakFell };

  // Gives the ops around cycles [from, to) the starts of `donor` (a legal schedule; `donorLive`
  // its live intervals): the ops whose value is live there or that start there, in either
  // schedule, `margin` cycles either side, and every op that precedence then ties to them (an
  // edge between an op that takes the donor's start and one that keeps its own must still hold,
  // or the other op takes the donor's start too). Both schedules are legal, so the result is.
  // Kept when the figures improve, the ops it moved appended to `moved`.
  Splice spliceRegion(std::span<const Cycle> donor,
                      const std::vector<std::pair<Cycle, Cycle>>& donorLive, Cycle from, Cycle to,
                      Cycle margin, std::vector<OpId>& moved) {
    const Cycle low = from - margin;
    const Cycle high = to + margin;
    const auto touches = [low, high](std::pair<Cycle, Cycle> live) {
      return live.first < high && std::max(live.second, live.first + 1) > low;
    };
    spliced_.clear();
    const auto take = [this](OpId op) {
      if (inSplice_[op] != 0) return;
      inSplice_[op] = 1;
      spliced_.push_back(op);
    };
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      if (touches(interval(op)) || touches(donorLive[op])) take(op);
    }
    // The closure: spliced_ grows while it is walked.
    bool tooLarge = false;
    for (std::size_t k = 0; k < spliced_.size() && !tooLarge; ++k) {
      const OpId u = spliced_[k];
      for (const EdgeId e : graph_.outEdges(u)) {
        const OpId w = graph_.edgeTarget(e);
        if (graph_.edgeDistance(e) == 0 && inSplice_[w] == 0 &&
            start_[w] < donor[u] + graph_.edgeDelay(e)) {
          take(w);
        }
      }
      for (const EdgeId e : graph_.inEdges(u)) {
        const OpId w = graph_.edgeSource(e);
        if (graph_.edgeDistance(e) == 0 && inSplice_[w] == 0 &&
            donor[u] < start_[w] + graph_.edgeDelay(e)) {
          take(w);
        }
      }
      tooLarge = spliced_.size() > kMaxSpliced;
    }
    std::vector<std::pair<OpId, Cycle>> undo;
    if (!tooLarge) {
      const Figures before = figures();
      for (const OpId op : spliced_) {
        if (start_[op] == donor[op]) continue;
        undo.emplace_back(op, start_[op]);
        moveTo(op, donor[op]);
      }
      const Figures after = figures();
      if (after.peakFalls || after.better(before)) {
        for (const auto& [op, previous] : undo) moved.push_back(op);
        undo.clear();
        for (const OpId op : spliced_) inSplice_[op] = 0;
        if (!after.peakFalls) return Splice::kBetter;
        recomputePeak();
        return Splice::kPeakFell;
      }
      revert(undo);
    }
    for (const OpId op : spliced_) inSplice_[op] = 0;
    return Splice::kNone;
  }

  std::pair<Cycle, Cycle> interval(std::span<const Cycle> start, OpId op) const {
    if (graph_.mem(op) == 0.0) return {start[op], start[op]};
    const LiveInterval live = liveInterval(graph_, start, 0, op);
    return {live.begin, live.end};
  }

 private:
  static constexpr Cycle kPushReach = 4;
  // Peak cycles at most this far apart are one region to splice; a splice reaching further than
  // kMaxSpliced ops is not tried (it would take most of the donor, whose candidate the worker
  // judges whole anyway).
  static constexpr Cycle kRegionGap = 8;
  static constexpr std::size_t kMaxSpliced = 4096;
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

  void addRange(Cycle from, Cycle to, double delta) {
    for (Cycle t = from; t < to; ++t) addToCycle(t, delta);
  }

  // Op u's value is live from s_u until its last distance-0 reader starts (core's rule; empty
  // without mem), from the last reader's start kept up to date by moveTo: a move costs the
  // intervals of the op and its producers, not a scan of every producer's readers.
  std::pair<Cycle, Cycle> interval(OpId op) const {
    const Cycle begin = start_[op];
    if (graph_.mem(op) == 0.0) return {begin, begin};
    return {begin, std::max(begin, lastReader_[op])};
  }

  // The latest start among the distance-0 readers of `op`, and how many reader edges end there.
  void recomputeLastReader(OpId op) {
    Cycle last = kNoReader;
    std::int32_t count = 0;
    for (const EdgeId e : graph_.outEdges(op)) {
      if (graph_.edgeDistance(e) != 0) continue;
      const Cycle s = start_[graph_.edgeTarget(e)];
      if (s > last) {
        last = s;
        count = 1;
      } else if (s == last) {
        ++count;
      }
    }
    lastReader_[op] = last;
    readersAtLast_[op] = count;
  }

  // A reader edge of `producer` moved from `from` to `to`.
  void readerMoved(OpId producer, Cycle from, Cycle to) {
    Cycle& last = lastReader_[producer];
    std::int32_t& count = readersAtLast_[producer];
    if (to > last) {
      last = to;
      count = 1;
      return;
    }
    if (to == last) ++count;
    if (from == last && --count == 0) recomputeLastReader(producer);
  }

  // Op u's live interval changes from `before` to `after`: only the cells of their symmetric
  // difference change, one cell per end for a move by one cycle.
  void changeInterval(OpId u, std::pair<Cycle, Cycle> before, std::pair<Cycle, Cycle> after) {
    const double mem = graph_.mem(u);
    if (mem == 0.0 || before == after) return;
    const bool overlap = before.first < before.second && after.first < after.second &&
                         before.first < after.second && after.first < before.second;
    if (!overlap) {
      addRange(before.first, before.second, -mem);
      addRange(after.first, after.second, mem);
      return;
    }
    if (after.first < before.first) {
      addRange(after.first, before.first, mem);
    } else {
      addRange(before.first, after.first, -mem);
    }
    if (after.second > before.second) {
      addRange(before.second, after.second, mem);
    } else {
      addRange(after.second, before.second, -mem);
    }
  }

  // Moves `op` to `to`, updating by difference the intervals a move changes: the op's own and
  // its distinct distance-0 producers' (their last reader may move).
  void moveTo(OpId op, Cycle to) {
    const std::vector<OpId>& ops = affected_[op];
    intervalsBefore_.clear();
    for (const OpId u : ops) intervalsBefore_.push_back(interval(u));
    const Cycle from = start_[op];
    start_[op] = to;
    if (from != to) {
      for (const EdgeId e : graph_.inEdges(op)) {
        if (graph_.edgeDistance(e) == 0) readerMoved(graph_.edgeSource(e), from, to);
      }
    }
    for (std::size_t k = 0; k < ops.size(); ++k) {
      changeInterval(ops[k], intervalsBefore_[k], interval(ops[k]));
    }
  }

  std::pair<Cycle, Cycle> window(OpId op) const {
    return precedenceWindow(graph_, start_, op, horizon_);
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
  static constexpr Cycle kNoReader = std::numeric_limits<Cycle>::min();
  std::vector<Cycle> lastReader_;              // per op: its last distance-0 reader's start
  std::vector<std::int32_t> readersAtLast_;    // and how many reader edges start then
  std::vector<std::vector<OpId>> affected_;    // per op: itself, then its distinct producers
  std::vector<std::vector<OpId>> neighbours_;  // per op: its distinct distance-0 neighbours
  std::vector<std::pair<Cycle, Cycle>> intervalsBefore_;  // moveTo's scratch
  std::vector<char> inSplice_;                            // spliceRegion's membership, all 0
  std::vector<OpId> spliced_;                             // and its ops
};

Refiner::Refiner(const Graph& graph, Cycle horizon, const Schedule& legal,
                 const RefinementOptions& options)
    : graph_(graph),
      options_(options),
      search_(std::make_unique<Search>(graph, horizon, legal)),
      queued_(static_cast<std::size_t>(graph.numOps()), 0) {
  result_.schedule = legal;
  queueEveryOp();
}

Refiner::~Refiner() = default;

void Refiner::queueEveryOp() {
  ++result_.sweeps;
  for (OpId op = 0; op < graph_.numOps(); ++op) queue(op);
}

void Refiner::queue(OpId op) {
  if (queued_[op] != 0) return;
  queued_[op] = 1;
  work_.push_back(op);
}

// The work list until it runs dry; then compound moves of the ops live at the peak; then a
// sweep over every op when anything moved since the last one. Ends when a sweep and the
// compound moves after it change nothing, or when `stop` says so (asked before each op: an op's
// visit costs far more than a look at a clock).
bool Refiner::run(const std::function<bool()>& stop) {
  const auto stopped = [&] { return stop && stop(); };
  std::vector<OpId> moved;
  while (!result_.localOptimum) {
    while (!pushing_ && !work_.empty()) {
      if (stopped()) return false;
      const OpId op = work_.front();
      work_.pop_front();
      queued_[op] = 0;
      if (search_->improve(op, options_.maxCandidates)) {
        ++result_.moves;
        movedSinceSweep_ = true;
        for (const OpId near : search_->neighbours(op)) queue(near);
      }
    }
    // The compound moves of the ops live at the peak, listed once per round and kept with the
    // place reached, so that a run stopped among them goes on from there.
    if (!pushing_) {
      pushCandidates_ = search_->opsLiveAtPeak();
      nextPush_ = 0;
      pushing_ = true;
    }
    for (; nextPush_ < pushCandidates_.size(); ++nextPush_) {
      if (stopped()) return false;
      moved.clear();
      if (search_->improveByPush(pushCandidates_[nextPush_], moved)) {
        ++result_.pushes;
        movedSinceSweep_ = true;
        for (const OpId u : moved) {
          queue(u);
          for (const OpId near : search_->neighbours(u)) queue(near);
        }
      }
    }
    pushing_ = false;
    if (!work_.empty()) continue;
    if (!movedSinceSweep_) {
      result_.localOptimum = true;
      break;
    }
    movedSinceSweep_ = false;
    queueEveryOp();
  }
  return true;
}

// Regions of `donor` around the peak cycles, each with the narrowest margin that improves the
// figures, pass after pass while one is taken; the ops a splice moved are queued for run().
std::int64_t Refiner::splice(const Schedule& donor, const std::function<bool()>& stop) {
  std::vector<std::pair<Cycle, Cycle>> donorLive(static_cast<std::size_t>(graph_.numOps()));
  for (OpId op = 0; op < graph_.numOps(); ++op) donorLive[op] = search_->interval(donor.start, op);
  std::int64_t taken = 0;
  std::vector<OpId> moved;
  bool takenInPass = true;
  while (takenInPass) {
    takenInPass = false;
    for (const auto& [from, to] : search_->peakRegions()) {
      if (stop && stop()) break;
      Search::Splice outcome = Search::Splice::kNone;
      for (const Cycle margin : kSpliceMargins) {
        outcome = search_->spliceRegion(donor.start, donorLive, from, to, margin, moved);
        if (outcome != Search::Splice::kNone) break;
      }
      if (outcome == Search::Splice::kNone) continue;
      ++taken;
      takenInPass = true;
      if (outcome == Search::Splice::kPeakFell) break;  // the regions are another peak's now
    }
    if (stop && stop()) break;
  }
  if (taken > 0) {
    result_.splices += taken;
    result_.localOptimum = false;
    movedSinceSweep_ = true;
    pushing_ = false;
    for (const OpId u : moved) {
      queue(u);
      for (const OpId near : search_->neighbours(u)) queue(near);
    }
  }
  return taken;
}

const Refinement& Refiner::result() {
  result_.schedule.start = search_->starts();
  return result_;
}

double Refiner::peak() const {
  return search_->peak();
}

Refinement refine(const Graph& graph, Cycle horizon, const Schedule& legal,
                  const RefinementOptions& options) {
  Refiner refiner(graph, horizon, legal, options);
  refiner.run(options.stop);
  return refiner.result();
}

}  // namespace gaus::live_memory
