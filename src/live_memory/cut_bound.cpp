// A lower bound on the peak live memory of every schedule within a horizon D (formulation B) by
// one minimum cut per cycle; the idea is issue 41's, the argument and the measurements are in
// docs/exact.md "Bounds".
//
// The verifier's live interval (core's liveInterval): the value of op v is live at cycle t when
// s_v <= t < s_r for some distance-0 reader r. Let P(t) = {ops with s <= t}, the ops started by t.
// Then v is live at t exactly when v is in P(t) and some reader of v is not, so the live memory
// at t is w(P) = sum of mem_v over {v in P with a reader outside P}. Which sets can P(t) be?
// - Every edge u -> r has delay >= 0, so s_u <= s_r: P(t) is closed under predecessors.
// - s_v <= ALAP(v) and s_v >= ASAP(v) at horizon D: must(t) = {ALAP <= t} is inside P(t), and
//   P(t) is inside may(t) = {ASAP <= t}.
// So the live memory at t of any schedule is at least cut(t) = min w(P) over the
// predecessor-closed P with must(t) <= P <= may(t), and the peak is at least max over t of
// cut(t). Resources only remove schedules, so the bound holds with them too.
//
// cut(t) is a minimum s-t cut (P = the source side). Nodes: the ops whose side is open at t (the
// free ops, ASAP <= t < ALAP); must(t) is merged into the source and the ops beyond may(t) into
// the sink. Arcs, with the reason each cut arc costs what it should:
// - r -> p, infinite, for a free reader r of a free p: r in P forces p in P (closure).
// - v -> v*, mem_v, and v* -> r, infinite, per reader r (an auxiliary node v* per value): v in P
//   with a reader outside P puts v* outside P and cuts v -> v* once, whatever the number of
//   such readers. With one free reader the pair becomes v -> r, and a reader beyond may(t)
//   (always outside P) makes it v -> sink.
// - A value of must(t) with a reader beyond may(t) is live at t in every schedule: a constant,
//   the mandatory lifetime of mandatoryLifetimeBound. One whose readers are all free or in
//   must(t) gets source -> v* -> its free readers.
// A maximum flow (max_flow.hpp: Boykov and Kolmogorov's) equals the min cut; a
// flow stopped early is below it and still a bound.
//
// Making it scale: the live profile of any schedule within D is, cycle by cycle, an upper bound
// on cut(t) (its P(t) is one of the sets minimized over), and so is the ASAP's and the ALAP's.
// The cycles are visited by that upper bound, largest first, and the search ends at the first
// cycle whose upper bound does not exceed the best cut so far: no later cycle can raise the max.
// A deadline (`stop`) ends it earlier with the max over the cycles done.

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/deadline.hpp>
#include <gaus/core/gap.hpp>
#include <gaus/live_memory/cut_bound.hpp>

#include "live_profile.hpp"
#include "max_flow.hpp"

namespace gaus::live_memory {

namespace {

// The network of one cycle and its min cut.
class CycleCut {
 public:
  CycleCut(const Graph& graph, const std::vector<Cycle>& asap, const std::vector<Cycle>& alap,
           const std::vector<Cycle>& lastReaderAsap)
      : graph_(graph),
        asap_(asap),
        alap_(alap),
        lastReaderAsap_(lastReaderAsap),
        nodeOf_(static_cast<std::size_t>(graph.numOps()), -1),
        stamp_(static_cast<std::size_t>(graph.numOps()), -1) {
    // The free ops of a cycle t are found without scanning every op: those of mobility up to
    // kShortMobility by their ASAP in [t - kShortMobility, t] (buckets), the others by a scan
    // of their own list in ASAP order.
    Cycle lastAsap = 0;
    for (OpId op = 0; op < graph.numOps(); ++op) lastAsap = std::max(lastAsap, asap[op]);
    firstOfAsap_.assign(static_cast<std::size_t>(lastAsap) + 2, 0);
    for (OpId op = 0; op < graph.numOps(); ++op) {
      if (alap[op] - asap[op] <= kShortMobility) {
        ++firstOfAsap_[static_cast<std::size_t>(asap[op]) + 1];
      } else {
        longMobility_.push_back(op);
      }
    }
    std::partial_sum(firstOfAsap_.begin(), firstOfAsap_.end(), firstOfAsap_.begin());
    shortByAsap_.resize(static_cast<std::size_t>(firstOfAsap_.back()));
    std::vector<std::int64_t> fill(firstOfAsap_.begin(), firstOfAsap_.end() - 1);
    for (OpId op = 0; op < graph.numOps(); ++op) {
      if (alap[op] - asap[op] <= kShortMobility) {
        shortByAsap_[static_cast<std::size_t>(fill[static_cast<std::size_t>(asap[op])]++)] = op;
      }
    }
    std::stable_sort(longMobility_.begin(), longMobility_.end(),
                     [&](OpId a, OpId b) { return asap[a] < asap[b]; });
  }

  // The min cut at cycle t beyond the mandatory lifetimes (the flow, when stopped early).
  double flowAt(Cycle t, const std::function<bool()>& stop, bool& stopped) {
    flow_.clear();
    free_.clear();
    const auto addIfFree = [&](OpId op) {
      if (alap_[op] > t) {
        nodeOf_[op] = flow_.addNode();
        free_.push_back(op);
      }
    };
    const Cycle lastBucket = static_cast<Cycle>(firstOfAsap_.size()) - 2;
    for (Cycle a = std::max<Cycle>(0, t - kShortMobility); a <= std::min(t, lastBucket); ++a) {
      for (std::int64_t i = firstOfAsap_[static_cast<std::size_t>(a)];
           i < firstOfAsap_[static_cast<std::size_t>(a) + 1]; ++i) {
        addIfFree(shortByAsap_[static_cast<std::size_t>(i)]);
      }
    }
    for (const OpId op : longMobility_) {
      if (asap_[op] > t) break;
      addIfFree(op);
    }
    for (const OpId v : free_) {
      addValueArcs(v, t);
      for (const EdgeId e : graph_.inEdges(v)) {
        if (graph_.edgeDistance(e) != 0) continue;
        const OpId producer = graph_.edgeSource(e);
        if (nodeOf_[producer] >= 0) {
          flow_.addArc(nodeOf_[v], nodeOf_[producer], MaxFlow::kInfinite);
        } else if (alap_[producer] <= t) {
          addSettledValueArc(producer, v, t);
        }
      }
    }
    stopped = !flow_.run(stop);
    const double flow = flow_.lowerBound();
    for (const OpId v : free_) nodeOf_[v] = -1;
    for (const OpId producer : settledProducers_) auxOf_[producer] = -1;
    settledProducers_.clear();
    return flow;
  }

 private:
  // The arcs that charge free op v's value when v is in P and a reader is not.
  void addValueArcs(OpId v, Cycle t) {
    const double mem = graph_.mem(v);
    if (mem == 0.0) return;
    ++stampCount_;
    readers_.clear();
    for (const EdgeId e : graph_.outEdges(v)) {
      if (graph_.edgeDistance(e) != 0) continue;
      const OpId reader = graph_.edgeTarget(e);
      if (asap_[reader] > t) {  // outside P in every schedule
        flow_.addTerminal(nodeOf_[v], 0.0, mem);
        return;
      }
      // A reader in must(t) would put v there too (alap(v) <= alap(reader)): every reader left
      // is free.
      if (stamp_[reader] != stampCount_) {
        stamp_[reader] = stampCount_;
        readers_.push_back(reader);
      }
    }
    if (readers_.empty()) return;
    if (readers_.size() == 1) {
      flow_.addArc(nodeOf_[v], nodeOf_[readers_.front()], mem);
      return;
    }
    const MaxFlow::Node aux = flow_.addNode();
    flow_.addArc(nodeOf_[v], aux, mem);
    for (const OpId reader : readers_) flow_.addArc(aux, nodeOf_[reader], MaxFlow::kInfinite);
  }

  // Producer in must(t), free reader: the value is live at t unless every reader is in P. A
  // producer with a reader beyond may(t) is live in every schedule, counted as mandatory.
  void addSettledValueArc(OpId producer, OpId reader, Cycle t) {
    if (graph_.mem(producer) == 0.0 || lastReaderAsap_[producer] > t) return;
    if (auxOf_.empty()) auxOf_.assign(static_cast<std::size_t>(graph_.numOps()), -1);
    if (auxOf_[producer] < 0) {
      auxOf_[producer] = flow_.addNode();
      settledProducers_.push_back(producer);
      flow_.addTerminal(auxOf_[producer], graph_.mem(producer), 0.0);
    }
    flow_.addArc(auxOf_[producer], nodeOf_[reader], MaxFlow::kInfinite);
  }

  const Graph& graph_;
  const std::vector<Cycle>& asap_;
  const std::vector<Cycle>& alap_;
  const std::vector<Cycle>& lastReaderAsap_;
  static constexpr Cycle kShortMobility = 64;
  std::vector<std::int64_t> firstOfAsap_;  // CSR by ASAP over the ops of short mobility
  std::vector<OpId> shortByAsap_;
  std::vector<OpId> longMobility_;    // the others, by ASAP
  std::vector<std::int32_t> nodeOf_;  // the op's node while it is free, else -1
  std::vector<std::int32_t> auxOf_;   // a must(t) producer's auxiliary node, else -1
  std::vector<OpId> settledProducers_;
  std::vector<std::int64_t> stamp_;  // dedupes a value's readers
  std::int64_t stampCount_ = 0;
  std::vector<OpId> free_;
  std::vector<OpId> readers_;
  MaxFlow flow_;
};

}  // namespace

Expected<CutBound> cutBound(const Graph& graph, Cycle horizon, const std::function<bool()>& stop) {
  return cutBound(*graphFacts(graph, horizon), stop);
}

Expected<CutBound> cutBound(const ProblemFacts& facts, const std::function<bool()>& stop) {
  const auto& alap = facts.alap();
  if (!alap) return Error{alap.error()};
  const Graph& graph = facts.graph();
  const Cycle horizon = *facts.horizon();
  const std::vector<Cycle>& asap = facts.asap();
  CutBound bound;
  if (horizon <= 0) return bound;

  std::vector<Cycle> lastReaderAsap(static_cast<std::size_t>(graph.numOps()), -1);
  bool integral = true;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    integral = integral && graph.mem(op) == std::floor(graph.mem(op));
    for (const EdgeId e : graph.outEdges(op)) {
      if (graph.edgeDistance(e) == 0) {
        lastReaderAsap[op] = std::max(lastReaderAsap[op], asap[graph.edgeTarget(e)]);
      }
    }
  }
  // mandatory[t]: the values of must(t) with a reader beyond may(t), live in every schedule.
  std::vector<double> mandatory(static_cast<std::size_t>(horizon), 0.0);
  {
    std::vector<double> change(static_cast<std::size_t>(horizon) + 1, 0.0);
    for (OpId op = 0; op < graph.numOps(); ++op) {
      const Cycle begin = (*alap)[op];
      const Cycle end = std::min(lastReaderAsap[op], horizon);
      if (graph.mem(op) == 0.0 || end <= begin) continue;
      change[static_cast<std::size_t>(begin)] += graph.mem(op);
      change[static_cast<std::size_t>(end)] -= graph.mem(op);
    }
    double running = 0.0;
    for (Cycle t = 0; t < horizon; ++t) {
      mandatory[static_cast<std::size_t>(t)] = running += change[static_cast<std::size_t>(t)];
      bound.mandatory = std::max(bound.mandatory, running);
    }
  }
  bound.value = bound.mandatory;

  // Each cycle's cut is at most the live memory of the ASAP and of the ALAP schedule there.
  const std::vector<double> asapLive = liveProfile(graph, asap, horizon);
  const std::vector<double> alapLive = liveProfile(graph, *alap, horizon);
  std::vector<double> ceiling(static_cast<std::size_t>(horizon));
  for (std::size_t t = 0; t < ceiling.size(); ++t) ceiling[t] = std::min(asapLive[t], alapLive[t]);
  std::vector<Cycle> cycles(static_cast<std::size_t>(horizon));
  std::iota(cycles.begin(), cycles.end(), Cycle{0});
  std::stable_sort(cycles.begin(), cycles.end(),
                   [&](Cycle a, Cycle b) { return ceiling[a] > ceiling[b]; });

  // A cut equal to the ceiling within rounding is not an improvement worth another cut.
  const double tolerance = 1e-9 * std::max(1.0, ceiling.empty() ? 0.0 : ceiling[cycles[0]]);
  CycleCut cut(graph, asap, *alap, lastReaderAsap);
  for (std::size_t i = 0; i < cycles.size(); ++i) {
    const Cycle t = cycles[i];
    if (ceiling[t] <= bound.value + tolerance) {
      bound.cyclesSkipped += static_cast<Cycle>(cycles.size() - i);
      break;
    }
    if (stop && stop()) {
      bound.complete = false;
      break;
    }
    bool stopped = false;
    double live = mandatory[t] + cut.flowAt(t, stop, stopped);
    // Live memory with integer mems is an integer: a bound of 30.2 is a bound of 31. The
    // allowance absorbs the flow's rounding.
    if (integral) live = std::ceil(live - 1e-6);
    ++bound.cyclesCut;
    if (live > bound.value) {
      bound.value = live;
      bound.peakCycle = t;
    }
    if (stopped) {
      bound.complete = false;
      break;
    }
  }
  return bound;
}

Expected<double> mandatoryLifetimeBound(const Graph& graph, Cycle horizon) {
  auto order = topologicalOrder(graph);
  if (!order) return Error{order.error()};
  const std::vector<Cycle> asap = asapTimes(graph, *order);
  auto alap = alapTimes(graph, *order, horizon);
  if (!alap) return Error{alap.error()};
  std::vector<double> change(static_cast<std::size_t>(std::max<Cycle>(horizon, 0)) + 1, 0.0);
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (graph.mem(op) == 0.0) continue;
    Cycle lastReader = -1;
    for (const EdgeId e : graph.outEdges(op)) {
      if (graph.edgeDistance(e) == 0) lastReader = std::max(lastReader, asap[graph.edgeTarget(e)]);
    }
    const Cycle begin = (*alap)[op];
    if (lastReader <= begin) continue;
    change[static_cast<std::size_t>(begin)] += graph.mem(op);
    change[static_cast<std::size_t>(std::min(lastReader, horizon))] -= graph.mem(op);
  }
  double live = 0.0;
  double peak = 0.0;
  for (const double delta : change) peak = std::max(peak, live += delta);
  return peak;
}

}  // namespace gaus::live_memory
