// Force-directed scheduling: P. G. Paulin and J. P. Knight, "Force-Directed Scheduling for the
// Behavioral Synthesis of ASIC's", IEEE Trans. CAD 8(6):661-679, 1989. Method "fds".
//
// Latency-bounded problems (horizon D): the paper's time-constrained FDS. Every op starts in its
// time frame [ASAP, ALAP] at D (edge delays and durations included) with uniform probability.
// A distribution graph (DG) sums those probabilities per cycle; the force of narrowing an op's
// frame is the change of sum_t DG(t) x(t) it causes, where x is what the op adds to the DG. The
// force of fixing an op at a step is its self force plus the forces on the direct predecessors
// and successors whose frames the step narrows. The op and step of least force are fixed, the
// frames are updated (ASAP forward, ALAP backward, transitively), and so on until every op is
// fixed. Two distribution graphs:
// - resources (the paper's): per resource, the expected units in use per cycle, an op adding its
//   whole reservation table;
// - memory (formulation B, peak live memory): the expected live weight per cycle,
//   sum_v mem_v F_v(t) (1 - prod over readers r of F_r(t)), F being the frames' cumulative
//   distributions, since a value is live from its op's start until its last reader starts
//   (core's liveInterval); GauS's E[live_v(t)] (GAUS.md) with uniform frames. Narrowing op k's
//   frame changes the terms of k's value and of the values k reads.
// FDS ignores capacities: where the machine limits a resource and the FDS starts overflow it,
// the list scheduler legalizes them, the FDS starts serving as priorities and release times (as
// GauS's legalization passes its means), and the result says so, or that it misses D.
//
// Latency problems (the latency under resources): the paper's force-directed list scheduling,
// a list scheduler that fills cycle after cycle, rather than the time-constrained FDS at a bound
// taken from a list schedule. The latency bound starts at the critical path; at each cycle the
// ready ops are placed where their reservations fit, those whose deferral has the largest force
// first (ops without mobility before all); an op that does not fit is deferred (its frame starts
// a cycle later), and where it has no mobility left the bound grows by one cycle and every frame
// with it. The forces use the resource distribution graphs.
//
// Departures from the paper:
// - Lazy forces (the default): the op to fix comes from a heap of each op's least force, and an
//   entry is recomputed when it reaches the top after the frames or distribution graph cycles it
//   reads changed. The paper recomputes every force at each step (O(n^2 D) work), which takes
//   minutes beyond a few hundred ops; an op whose force fell since its last evaluation may wait
//   in the heap. Option lazy=false recomputes, after each fix, every force whose inputs changed,
//   and so picks as the paper does; on the EPFL circuits it is no better and up to 100 times
//   slower (docs/benchmarks.md).
// - The memory distribution graph is this project's; the paper has the resource graphs only.
// - Ties (equal forces) go to the earliest step, then to the smaller op id: runs repeat exactly.
// - Time limit: the ops not fixed when it runs out start at their ASAP within their frames
//   (legal, since the frames stay consistent), or, in list scheduling, are ranked by height.

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <queue>
#include <span>
#include <string>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/live_memory_bound.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/heuristic/force_directed.hpp>
#include <gaus/heuristic/heuristic_figures.hpp>
#include <gaus/heuristic/list_scheduler.hpp>
#include <gaus/heuristic/memory_refinement.hpp>
#include <gaus/heuristic/reservation_runs.hpp>

#include "resource_timeline.hpp"

namespace gaus::heuristic {

namespace {

// A distance-0 neighbour and the largest delay of the edges to it.
struct Neighbour {
  OpId op;
  Cycle delay;
};

// Each op's distinct distance-0 predecessors or successors (CSR).
class NeighbourLists {
 public:
  NeighbourLists(const Graph& graph, bool successors) {
    const auto opCount = static_cast<std::size_t>(graph.numOps());
    offset_.assign(opCount + 1, 0);
    std::vector<std::int64_t> slot(opCount, -1);
    for (OpId op = 0; op < graph.numOps(); ++op) {
      const auto first = static_cast<std::int64_t>(items_.size());
      for (EdgeId e : successors ? graph.outEdges(op) : graph.inEdges(op)) {
        if (graph.edgeDistance(e) != 0) continue;
        const OpId other = successors ? graph.edgeTarget(e) : graph.edgeSource(e);
        const Cycle delay = graph.edgeDelay(e);
        if (slot[other] >= first) {
          auto& item = items_[static_cast<std::size_t>(slot[other])];
          item.delay = std::max(item.delay, delay);
        } else {
          slot[other] = static_cast<std::int64_t>(items_.size());
          items_.push_back({other, delay});
        }
      }
      offset_[op + 1] = static_cast<std::int64_t>(items_.size());
    }
  }
  std::span<const Neighbour> of(OpId op) const {
    return {items_.data() + offset_[op], items_.data() + offset_[op + 1]};
  }
  std::size_t size(OpId op) const {
    return static_cast<std::size_t>(offset_[op + 1] - offset_[op]);
  }

 private:
  std::vector<std::int64_t> offset_;
  std::vector<Neighbour> items_;
};

// The distribution graphs hold a double per cycle and resource (one row for memory): past this
// many cells (128 MiB) a run is refused, since building them alone would take seconds per op.
constexpr double kMaxDistributionCells = 16.0 * 1024 * 1024;

std::optional<std::string> distributionTooLarge(Cycle cycles, ResourceId rows) {
  const double cells = static_cast<double>(cycles) * std::max<double>(1.0, rows);
  if (cells <= kMaxDistributionCells) return std::nullopt;
  return fmt::format(
      "fds: the distribution graphs of {} cycles x {} rows ({:.3g} cells) exceed {:.3g}; use "
      "list or gaus on schedules this long",
      cycles, std::max<ResourceId>(1, rows), cells, kMaxDistributionCells);
}

// P(start <= t) for a start uniform in [lo, hi].
double frameCdf(Cycle lo, Cycle hi, Cycle t) {
  if (t < lo) return 0.0;
  if (t >= hi) return 1.0;
  return static_cast<double>(t - lo + 1) / static_cast<double>(hi - lo + 1);
}

// The frames, the distribution graph of one objective, and the forces over them.
class ForceModel {
 public:
  ForceModel(const Graph& graph, const Machine& machine, bool memory)
      : graph_(graph),
        memory_(memory),
        resourceCount_(static_cast<std::size_t>(machine.numResources())),
        predecessors_(graph, false),
        successors_(graph, true) {
    const auto opCount = static_cast<std::size_t>(graph.numOps());
    frameChangedAt_.assign(opCount, 0);
    pendingLo_.assign(opCount, 0);
    pendingHi_.assign(opCount, 0);
    marked_.assign(opCount, 0);
  }

  // Starts over with these frames (every asap <= alap, consistent over the edges).
  void reset(std::vector<Cycle> asap, std::vector<Cycle> alap) {
    asap_ = std::move(asap);
    alap_ = std::move(alap);
    pendingLo_ = asap_;
    pendingHi_ = alap_;
    Cycle end = 1;
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      end = std::max<Cycle>(end, alap_[op] + graph_.duration(op) + 1);
    }
    cycles_ = end;
    fixedCount_ = 0;
    for (OpId op = 0; op < graph_.numOps(); ++op) fixedCount_ += fixed(op) ? 1 : 0;
    ++epoch_;
    cycleChangedAt_.assign(static_cast<std::size_t>(cycles_), epoch_);
    std::fill(frameChangedAt_.begin(), frameChangedAt_.end(), epoch_);
    if (memory_) {
      distribution_.assign(static_cast<std::size_t>(cycles_), 0.0);
      for (OpId op = 0; op < graph_.numOps(); ++op) addLiveTerm(op, 1.0);
    } else {
      distribution_.assign(static_cast<std::size_t>(cycles_) * resourceCount_, 0.0);
      for (OpId op = 0; op < graph_.numOps(); ++op) addOccupancy(op, 1.0);
    }
  }

  Cycle asap(OpId op) const { return asap_[op]; }
  Cycle alap(OpId op) const { return alap_[op]; }
  bool fixed(OpId op) const { return asap_[op] == alap_[op]; }
  OpId fixedCount() const { return fixedCount_; }  // ops whose frame is a single step
  const std::vector<Cycle>& asaps() const { return asap_; }
  std::int64_t epoch() const { return epoch_; }
  std::int64_t evaluations() const { return evaluations_; }

  // Narrows op's frame to [lo, hi] (within the current one) and every frame that follows over
  // the edges, updating the distribution graph.
  void narrow(OpId op, Cycle lo, Cycle hi) {
    changed_.clear();
    setPending(op, lo, hi);
    std::vector<OpId> forward{op};
    while (!forward.empty()) {
      const OpId from = forward.back();
      forward.pop_back();
      for (const Neighbour& next : successors_.of(from)) {
        const Cycle bound = pendingLo_[from] + next.delay;
        if (bound > pendingLo_[next.op]) {
          setPending(next.op, bound, pendingHi_[next.op]);
          forward.push_back(next.op);
        }
      }
    }
    std::vector<OpId> backward{op};
    while (!backward.empty()) {
      const OpId from = backward.back();
      backward.pop_back();
      for (const Neighbour& previous : predecessors_.of(from)) {
        const Cycle bound = pendingHi_[from] - previous.delay;
        if (bound < pendingHi_[previous.op]) {
          setPending(previous.op, pendingLo_[previous.op], bound);
          backward.push_back(previous.op);
        }
      }
    }
    ++epoch_;
    // The values whose live terms change: those of the changed ops and of what they read.
    std::vector<OpId> values;
    const auto addValue = [&](OpId v) {
      if (marked_[v] == 2) return;
      marked_[v] = 2;
      values.push_back(v);
    };
    if (memory_) {
      for (OpId k : changed_) {
        addValue(k);
        for (const Neighbour& producer : predecessors_.of(k)) addValue(producer.op);
      }
      for (OpId v : values) addLiveTerm(v, -1.0);
    } else {
      for (OpId k : changed_) addOccupancy(k, -1.0);
    }
    for (OpId k : changed_) {
      const bool wasFixed = fixed(k);
      asap_[k] = pendingLo_[k];
      alap_[k] = pendingHi_[k];
      if (!wasFixed && fixed(k)) ++fixedCount_;
      frameChangedAt_[k] = epoch_;
      marked_[k] = 0;
    }
    if (memory_) {
      for (OpId v : values) {
        addLiveTerm(v, 1.0);
        marked_[v] = 0;
      }
    } else {
      for (OpId k : changed_) addOccupancy(k, 1.0);
    }
  }

  // Whether nothing op's forces read changed after `epoch`: its frame, its neighbours' frames
  // and the distribution graph over their frames.
  bool unchangedSince(OpId op, std::int64_t epoch) const {
    if (frameChangedAt_[op] > epoch) return false;
    Cycle lo = asap_[op];
    Cycle hi = alap_[op] + graph_.duration(op);
    const auto widen = [&](std::span<const Neighbour> neighbours) {
      for (const Neighbour& n : neighbours) {
        if (frameChangedAt_[n.op] > epoch) return false;
        lo = std::min(lo, asap_[n.op]);
        hi = std::max(hi, alap_[n.op] + graph_.duration(n.op));
      }
      return true;
    };
    if (!widen(predecessors_.of(op)) || !widen(successors_.of(op))) return false;
    hi = std::min(hi, cycles_ - 1);
    for (Cycle t = lo; t <= hi; ++t) {
      if (cycleChangedAt_[static_cast<std::size_t>(t)] > epoch) return false;
    }
    return true;
  }

  // The least force of fixing op at one step of its frame, and that step (the earliest of
  // equal forces).
  std::pair<double, Cycle> bestStep(OpId op) {
    prepare(op);
    double best = std::numeric_limits<double>::infinity();
    Cycle bestStep = asap_[op];
    for (Cycle step = asap_[op]; step <= alap_[op]; ++step) {
      const double force = forceOfNarrowing(step, step);
      if (force < best) {
        best = force;
        bestStep = step;
      }
    }
    return {best, bestStep};
  }

  // The force of narrowing op's frame to [lo, hi] (with its neighbours').
  double narrowingForce(OpId op, Cycle lo, Cycle hi) {
    prepare(op);
    return forceOfNarrowing(lo, hi);
  }

 private:
  // What an op's frame change is weighed against: for resources the DG cost of starting at each
  // step s of the frame, for memory the weight g(t) of raising P(start <= t) at each cycle t of
  // the frame (with the sums the forces need).
  struct Profile {
    OpId op = 0;
    Cycle lo = 0;
    Cycle hi = 0;
    Cycle delay = 0;     // of the edge from the op being fixed (neighbours only)
    bool after = false;  // a successor (its ASAP follows), else a predecessor (its ALAP)
    std::vector<double> values;
    std::vector<double> suffix;  // suffix[i] = sum of values[i..]
    double current = 0.0;        // weighted() over the current frame
  };

  void setPending(OpId op, Cycle lo, Cycle hi) {
    if (marked_[op] != 1) {
      marked_[op] = 1;
      changed_.push_back(op);
    }
    pendingLo_[op] = lo;
    pendingHi_[op] = hi;
  }

  void markCycles(Cycle lo, Cycle hi) {  // [lo, hi)
    for (Cycle t = std::max<Cycle>(lo, 0); t < std::min(hi, cycles_); ++t) {
      cycleChangedAt_[static_cast<std::size_t>(t)] = epoch_;
    }
  }

  // The value of v is live at t with probability F_v(t) (1 - prod over readers F_r(t)): from
  // its ASAP until the last reader's ALAP at most.
  void addLiveTerm(OpId v, double sign) {
    const double mem = graph_.mem(v);
    if (mem == 0.0 || successors_.size(v) == 0) return;
    Cycle end = 0;
    for (const Neighbour& reader : successors_.of(v)) end = std::max(end, alap_[reader.op]);
    for (Cycle t = asap_[v]; t < end; ++t) {
      double allStarted = 1.0;
      for (const Neighbour& reader : successors_.of(v)) {
        allStarted *= frameCdf(asap_[reader.op], alap_[reader.op], t);
      }
      distribution_[static_cast<std::size_t>(t)] +=
          sign * mem * frameCdf(asap_[v], alap_[v], t) * (1.0 - allStarted);
    }
    markCycles(asap_[v], end);
  }

  void addOccupancy(OpId op, double sign) {
    const double share = sign / static_cast<double>(alap_[op] - asap_[op] + 1);
    for (const ReservationBlock& block : graph_.reservation(op)) {
      double* row = distribution_.data() +
                    static_cast<std::size_t>(block.resource) * static_cast<std::size_t>(cycles_);
      for (Cycle s = asap_[op]; s <= alap_[op]; ++s) {
        for (Cycle t = s + block.begin; t < s + block.begin + block.length; ++t) {
          row[t] += share * block.units;
        }
      }
    }
    const std::int32_t length = graph_.reservationLength(op);
    if (length > 0) markCycles(asap_[op], alap_[op] + length);
  }

  // Fills `profile` for op's current frame.
  void fillProfile(Profile& profile, OpId op) {
    ++evaluations_;
    profile.op = op;
    profile.lo = asap_[op];
    profile.hi = alap_[op];
    const auto width = static_cast<std::size_t>(profile.hi - profile.lo + 1);
    profile.values.assign(width, 0.0);
    if (memory_) {
      for (std::size_t i = 0; i < width; ++i) {
        const Cycle t = profile.lo + static_cast<Cycle>(i);
        const double load = distribution_[static_cast<std::size_t>(t)];
        if (load == 0.0) continue;
        double weight = 0.0;
        // Starting op by t opens its value's life at t unless every reader started already.
        if (graph_.mem(op) != 0.0 && successors_.size(op) > 0) {
          double allStarted = 1.0;
          for (const Neighbour& reader : successors_.of(op)) {
            allStarted *= frameCdf(asap_[reader.op], alap_[reader.op], t);
          }
          weight += graph_.mem(op) * (1.0 - allStarted);
        }
        // Starting op by t ends the life of a value it reads at t unless another reader of it
        // starts later.
        for (const Neighbour& producer : predecessors_.of(op)) {
          const double mem = graph_.mem(producer.op);
          if (mem == 0.0) continue;
          double othersStarted = 1.0;
          for (const Neighbour& reader : successors_.of(producer.op)) {
            if (reader.op != op) othersStarted *= frameCdf(asap_[reader.op], alap_[reader.op], t);
          }
          weight -= mem * frameCdf(asap_[producer.op], alap_[producer.op], t) * othersStarted;
        }
        profile.values[i] = load * weight;
      }
    } else {
      for (const ReservationBlock& block : graph_.reservation(op)) {
        const double* row = distribution_.data() + static_cast<std::size_t>(block.resource) *
                                                       static_cast<std::size_t>(cycles_);
        for (std::size_t i = 0; i < width; ++i) {
          const Cycle s = profile.lo + static_cast<Cycle>(i);
          double sum = 0.0;
          for (Cycle t = s + block.begin; t < s + block.begin + block.length; ++t) sum += row[t];
          profile.values[i] += block.units * sum;
        }
      }
    }
    profile.suffix.assign(width + 1, 0.0);
    for (std::size_t i = width; i-- > 0;) {
      profile.suffix[i] = profile.suffix[i + 1] + profile.values[i];
    }
    profile.current = weighted(profile, profile.lo, profile.hi);
  }

  // sum_t x(t) weight(t) for a start uniform in [lo, hi] within the profile's frame: the mean
  // start cost (resources), or sum_t F(t) g(t) (memory).
  double weighted(const Profile& profile, Cycle lo, Cycle hi) const {
    const auto first = static_cast<std::size_t>(lo - profile.lo);
    const auto last = static_cast<std::size_t>(hi - profile.lo);
    const double width = static_cast<double>(hi - lo + 1);
    if (!memory_) return (profile.suffix[first] - profile.suffix[last + 1]) / width;
    double sum = profile.suffix[last];  // F = 1 from hi on
    for (std::size_t i = first; i < last; ++i) {
      sum += static_cast<double>(i - first + 1) / width * profile.values[i];
    }
    return sum;
  }

  // The profiles of op and of its neighbours whose frames are not a single step.
  void prepare(OpId op) {
    profileCount_ = 0;
    const auto add = [&](OpId k, Cycle delay, bool after) {
      if (profileCount_ == profiles_.size()) profiles_.emplace_back();
      Profile& profile = profiles_[profileCount_++];
      fillProfile(profile, k);
      profile.delay = delay;
      profile.after = after;
    };
    add(op, 0, false);
    for (const Neighbour& previous : predecessors_.of(op)) {
      if (!fixed(previous.op)) add(previous.op, previous.delay, false);
    }
    for (const Neighbour& next : successors_.of(op)) {
      if (!fixed(next.op)) add(next.op, next.delay, true);
    }
  }

  // Self force of the prepared op narrowed to [lo, hi], plus the forces on the neighbours whose
  // frames that narrows.
  double forceOfNarrowing(Cycle lo, Cycle hi) const {
    const Profile& self = profiles_[0];
    double force = weighted(self, lo, hi) - self.current;
    for (std::size_t i = 1; i < profileCount_; ++i) {
      const Profile& other = profiles_[i];
      Cycle otherLo = other.lo;
      Cycle otherHi = other.hi;
      if (other.after) {
        otherLo = std::max(otherLo, lo + other.delay);
      } else {
        otherHi = std::min(otherHi, hi - other.delay);
      }
      if (otherLo == other.lo && otherHi == other.hi) continue;
      force += weighted(other, otherLo, otherHi) - other.current;
    }
    return force;
  }

  const Graph& graph_;
  bool memory_;
  std::size_t resourceCount_;
  NeighbourLists predecessors_;
  NeighbourLists successors_;
  std::vector<Cycle> asap_;
  std::vector<Cycle> alap_;
  Cycle cycles_ = 1;
  // Memory: expected live weight per cycle. Resources: expected units per resource and cycle
  // (resource-major).
  std::vector<double> distribution_;
  // Staleness of cached forces: the epoch of the last change of each cycle of the distribution
  // graph and of each frame.
  std::int64_t epoch_ = 0;
  std::vector<std::int64_t> cycleChangedAt_;
  std::vector<std::int64_t> frameChangedAt_;
  // narrow()'s scratch.
  std::vector<Cycle> pendingLo_;
  std::vector<Cycle> pendingHi_;
  std::vector<char> marked_;  // 1: in changed_, 2: in the values to update
  std::vector<OpId> changed_;
  std::vector<Profile> profiles_;
  std::size_t profileCount_ = 0;
  std::int64_t evaluations_ = 0;
  OpId fixedCount_ = 0;
};

// Progress lines at most once a second, and the stop test.
class Pace {
 public:
  Pace(const Deadline& deadline, const RunContext& context)
      : deadline_(deadline), context_(context) {}
  bool stop() const { return deadline_.expired() || context_.cancelled(); }
  const std::atomic<bool>* cancel() const { return context_.cancel; }
  void report(OpId done, OpId total) {
    const double now = deadline_.elapsedSeconds();
    if (now < nextReport_) return;
    nextReport_ = now + 1.0;
    context_.report(fmt::format("fds: {} of {} ops fixed, {:.1f}s", done, total, now));
  }

 private:
  const Deadline& deadline_;
  const RunContext& context_;
  double nextReport_ = 1.0;
};

struct ForceRun {
  std::vector<Cycle> start;
  std::int64_t evaluations = 0;
  std::int64_t unforced = 0;  // ops placed without forces after the time limit
};

// The time-constrained FDS: frames [asap, alap] in, starts out.
ForceRun timeConstrained(const Graph& graph, const Machine& machine, bool memory, bool lazy,
                         std::vector<Cycle> asap, std::vector<Cycle> alap, Pace& pace) {
  ForceModel model(graph, machine, memory);
  model.reset(std::move(asap), std::move(alap));
  struct Entry {
    double force;
    OpId op;
    Cycle step;
    std::int64_t epoch;
  };
  // The least force on top; equal forces: the smaller op id.
  const auto later = [](const Entry& a, const Entry& b) {
    if (a.force != b.force) return a.force > b.force;
    return a.op > b.op;
  };
  std::priority_queue<Entry, std::vector<Entry>, decltype(later)> heap(later);
  std::vector<std::int64_t> evaluatedAt(static_cast<std::size_t>(graph.numOps()), -1);
  const auto evaluate = [&](OpId op) {
    const auto [force, step] = model.bestStep(op);
    evaluatedAt[op] = model.epoch();
    heap.push({force, op, step, model.epoch()});
  };
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (!model.fixed(op)) evaluate(op);
  }
  ForceRun run;
  std::int64_t pops = 0;
  while (!heap.empty()) {
    if (++pops % 64 == 0) {
      if (pace.stop()) break;
      pace.report(model.fixedCount(), graph.numOps());
    }
    const Entry top = heap.top();
    heap.pop();
    if (model.fixed(top.op) || top.epoch != evaluatedAt[top.op]) continue;
    if (!model.unchangedSince(top.op, top.epoch)) {
      evaluate(top.op);
      continue;
    }
    model.narrow(top.op, top.step, top.step);
    if (!lazy) {
      // The paper's order: every force whose inputs changed is recomputed before the next pick.
      for (OpId op = 0; op < graph.numOps(); ++op) {
        if (!model.fixed(op) && !model.unchangedSince(op, evaluatedAt[op])) evaluate(op);
      }
    }
  }
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (!model.fixed(op)) ++run.unforced;
  }
  // Every frame still holds ASAP(v) >= ASAP(u) + delay on each edge u -> v and ALAP within D:
  // the ASAPs are a legal schedule, and the fixed ops' starts.
  run.start = model.asaps();
  run.evaluations = model.evaluations();
  return run;
}

// The force-directed list scheduling of a latency problem.
Expected<ForceRun> forceDirectedList(const Graph& graph, const Machine& machine,
                                     const std::vector<OpId>& topo, Pace& pace) {
  auto heights = heightsToEnd(graph, topo);
  if (!heights) return Error{"fds: " + heights.error()};
  const std::vector<Cycle>& height = *heights;
  const std::vector<Cycle> initialAsap = asapTimes(graph, topo);
  Cycle bound = criticalPathLength(graph, initialAsap);
  const auto opCount = static_cast<std::size_t>(graph.numOps());
  ForceModel model(graph, machine, false);
  const auto framesAt = [&](Cycle latencyBound, std::vector<Cycle> asap,
                            const std::vector<char>& placed) {
    std::vector<Cycle> alap(opCount);
    for (std::size_t op = 0; op < opCount; ++op) {
      alap[op] = placed[op] ? asap[op] : std::max(asap[op], latencyBound - height[op]);
    }
    model.reset(std::move(asap), std::move(alap));
  };
  std::vector<char> placed(opCount, 0);
  framesAt(bound, initialAsap, placed);

  ReservationRunBuilder runs(machine, std::nullopt);
  runs.addGraph(graph);
  detail::ResourceTimeline timeline(machine);
  const NeighbourLists predecessors(graph, false);
  const NeighbourLists successors(graph, true);
  std::vector<std::size_t> waitingFor(opCount);
  std::vector<OpId> ready;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    waitingFor[op] = predecessors.size(op);
    if (waitingFor[op] == 0) ready.push_back(op);
  }
  ForceRun run;
  run.start.assign(opCount, 0);
  std::size_t placedCount = 0;
  bool forcesOn = true;
  std::vector<OpId> deferred;
  Cycle cycle = 0;
  while (placedCount < opCount) {
    if (forcesOn && pace.stop()) forcesOn = false;
    pace.report(static_cast<OpId>(placedCount), graph.numOps());
    deferred.clear();
    // Ops placed at this cycle may free others at the same cycle (edges of delay 0).
    std::vector<char> triedNow(opCount, 0);
    while (true) {
      struct Candidate {
        OpId op;
        bool urgent;   // no mobility left: deferring it stretches the bound
        double force;  // of deferring it by a cycle
      };
      std::vector<Candidate> batch;
      for (OpId op : ready) {
        if (triedNow[op] || model.asap(op) > cycle) continue;
        triedNow[op] = 1;
        const bool urgent = model.alap(op) <= cycle;
        const double force =
            urgent || !forcesOn ? 0.0 : model.narrowingForce(op, cycle + 1, model.alap(op));
        batch.push_back({op, urgent, force});
      }
      if (batch.empty()) break;
      std::sort(batch.begin(), batch.end(), [&](const Candidate& a, const Candidate& b) {
        if (a.urgent != b.urgent) return a.urgent;
        if (a.force != b.force) return a.force > b.force;
        if (height[a.op] != height[b.op]) return height[a.op] > height[b.op];
        return a.op < b.op;
      });
      for (const Candidate& candidate : batch) {
        const auto opRuns = runs.runsOf(candidate.op);
        if (timeline.earliestFit(opRuns, cycle) != cycle) {
          deferred.push_back(candidate.op);
          continue;
        }
        if (auto reserved = timeline.reserve(opRuns, cycle); !reserved) {
          return Error{"fds: " + reserved.error()};
        }
        run.start[candidate.op] = cycle;
        placed[candidate.op] = 1;
        ++placedCount;
        model.narrow(candidate.op, cycle, cycle);
        for (const Neighbour& next : successors.of(candidate.op)) {
          if (--waitingFor[next.op] == 0) ready.push_back(next.op);
        }
      }
      std::erase_if(ready, [&](OpId op) { return placed[op] != 0; });
    }
    if (!deferred.empty()) {
      const bool stretch = std::any_of(deferred.begin(), deferred.end(),
                                       [&](OpId op) { return model.alap(op) <= cycle; });
      if (stretch) {
        // Paulin and Knight: an op without mobility that must wait lengthens the schedule by a
        // cycle, which widens every open frame.
        ++bound;
        if (auto tooLarge = distributionTooLarge(bound, machine.numResources())) {
          return Error{*tooLarge};
        }
        std::vector<Cycle> asap = model.asaps();
        for (OpId op : deferred) asap[op] = cycle + 1;
        for (OpId op : topo) {
          for (const Neighbour& next : successors.of(op)) {
            asap[next.op] = std::max(asap[next.op], asap[op] + next.delay);
          }
        }
        for (std::size_t op = 0; op < opCount; ++op) {
          bound = std::max(bound, asap[op] + height[op]);
        }
        framesAt(bound, std::move(asap), placed);
      } else {
        for (OpId op : deferred) model.narrow(op, cycle + 1, model.alap(op));
      }
    }
    // The next cycle where a ready op may start.
    Cycle next = std::numeric_limits<Cycle>::max();
    for (OpId op : ready) next = std::min(next, model.asap(op));
    cycle = std::max(cycle + 1, next == std::numeric_limits<Cycle>::max() ? cycle + 1 : next);
    if (!forcesOn) run.unforced = static_cast<std::int64_t>(opCount - placedCount);
  }
  run.evaluations = model.evaluations();
  return run;
}

bool usesLimitedResource(const Graph& graph, const Machine& machine) {
  for (OpId op = 0; op < graph.numOps(); ++op) {
    for (const ReservationBlock& block : graph.reservation(op)) {
      if (machine.resources[block.resource].limited()) return true;
    }
  }
  return false;
}

Result latencyBounded(const Problem& problem, const ForceDirectedOptions& options,
                      const std::vector<OpId>& topo, const ListScheduler& lister, Pace& pace) {
  const Graph& graph = *problem.graph;
  const Machine& machine = *problem.machine;
  const Cycle horizon = *problem.horizon;
  Result result;
  const std::vector<Cycle> asap = asapTimes(graph, topo);
  auto alap = alapTimes(graph, topo, horizon);
  if (!alap) {
    result.status = ModelStatus::kInfeasible;
    result.message = "fds: " + alap.error();
    return result;
  }
  // auto: the problem's objective where it states peak memory, else, where it leaves it to the
  // method, peak memory on a graph whose values have a size (as list, gaus and ilp decide).
  bool memory = options.objective == ForceObjective::kMemory;
  if (options.objective == ForceObjective::kAuto) {
    memory = problem.objective == ProblemObjective::kPeakMemory ||
             (problem.objective == ProblemObjective::kMethodDefault && hasLiveMemory(graph));
  }
  ForceRun run = timeConstrained(graph, machine, memory, options.lazyForces, asap,
                                 std::move(alap).value(), pace);
  result.figures.set(figures::kForceEvaluations, static_cast<double>(run.evaluations));
  result.figures.set(figures::kOpsPlacedAtLimit, static_cast<double>(run.unforced));
  if (run.unforced > 0) {
    result.notes.emplace_back(
        "time limit",
        fmt::format("the time limit ran out with {} of {} ops not fixed by force; they start at "
                    "their ASAP within their frames",
                    run.unforced, graph.numOps()));
  }
  Schedule schedule;
  schedule.start = std::move(run.start);
  const bool limited = usesLimitedResource(graph, machine);
  if (limited && !verify(problem, schedule).ok()) {
    // FDS balances the units but does not count them: the list scheduler places the ops in the
    // order of their FDS starts, never earlier (release times); should that miss D, in that
    // order without release times; then by height with the FDS starts breaking ties; and last
    // in list's own order, which meets D wherever the method list does.
    ListSchedulerOptions inFdsOrder;
    inFdsOrder.priority = ListPriority::kCustom;
    inFdsOrder.tieBreak = ListPriority::kAlap;
    inFdsOrder.customKey.assign(schedule.start.begin(), schedule.start.end());
    ListSchedulerOptions released = inFdsOrder;
    released.releaseTime = schedule.start;
    ListSchedulerOptions byHeight = inFdsOrder;
    byHeight.priority = ListPriority::kHeight;
    byHeight.tieBreak = ListPriority::kCustom;
    const std::pair<const ListSchedulerOptions*, const char*> attempts[] = {
        {&released, "in the order of their FDS starts, none earlier than its FDS start"},
        {&inFdsOrder, "in the order of their FDS starts (with release times it missed D)"},
        {&byHeight, "by height, ties broken by the FDS starts (in their order it missed D)"},
        {nullptr, "in list's own order (every order of the FDS starts missed D)"},
    };
    std::optional<Schedule> legal;
    for (const auto& [listOptions, how] : attempts) {
      auto listed = lister.schedule(listOptions != nullptr ? *listOptions : ListSchedulerOptions{});
      if (!listed) return errorResult(listed.error());
      if (scheduleLatency(graph, listed->start) > horizon) continue;
      legal = std::move(listed).value();
      result.notes.emplace_back(
          "legalization",
          fmt::format("the FDS starts exceed a resource's capacity; list scheduling placed the "
                      "ops {}",
                      how));
      break;
    }
    if (!legal) {
      result.status = ModelStatus::kUnknown;
      result.message = fmt::format(
          "fds: the FDS schedule needs more units than the machine has, and list scheduling in "
          "its order, by height or in list's order exceeds the horizon D={}; an exact method "
          "may still meet D",
          horizon);
      return result;
    }
    schedule = std::move(*legal);
  }
  if (memory && options.refine && !limited) {
    MemoryRefinementOptions refinement;
    refinement.stop = [&pace] { return pace.stop(); };
    MemoryRefinement refined = refineLiveMemory(graph, horizon, schedule, refinement);
    result.figures.set(figures::kRefinementMoves, static_cast<double>(refined.moves));
    schedule = std::move(refined.schedule);
  }
  const ScheduleMetrics metrics = computeMetrics(graph, machine, schedule);
  result.figures.set(figures::kLatency, static_cast<double>(metrics.latency));
  result.status = ModelStatus::kFeasible;
  result.schedule = std::move(schedule);
  if (memory) {
    result.objectiveName = "peak_memory";
    result.objective = metrics.peakLiveMemory;
    // B's bound as every method reports it (and status optimal where the peak meets it).
    reportPeakMemoryBound(problem, result, peakMemoryBoundSeconds(options.timeLimitSeconds),
                          pace.cancel());
  } else {
    // The time-constrained FDS's aim: the units the schedule keeps busy at once, over all
    // resources.
    result.objectiveName = "resource_units";
    double units = 0.0;
    for (std::int64_t peak : metrics.peakUsage) units += static_cast<double>(peak);
    result.objective = units;
  }
  return result;
}

Result latency(const Problem& problem, const std::vector<OpId>& topo, Pace& pace) {
  const Graph& graph = *problem.graph;
  auto run = forceDirectedList(graph, *problem.machine, topo, pace);
  if (!run) return errorResult(run.error());
  Result result;
  result.objectiveName = "latency";
  result.figures.set(figures::kForceEvaluations, static_cast<double>(run->evaluations));
  result.figures.set(figures::kOpsPlacedAtLimit, static_cast<double>(run->unforced));
  if (run->unforced > 0) {
    result.notes.emplace_back("time limit",
                              fmt::format("the time limit ran out with {} of {} ops to place; they "
                                          "were placed by height, without forces",
                                          run->unforced, graph.numOps()));
  }
  Schedule schedule;
  schedule.start = std::move(run->start);
  const Cycle length = scheduleLatency(graph, schedule.start);
  // The lower bounds list reports: the critical path and the busiest resource.
  const Cycle criticalPath = criticalPathLength(graph, asapTimes(graph, topo));
  const ResMii resourceBound = computeResMii(graph, *problem.machine);
  const Cycle lowerBound = std::max(criticalPath, resourceBound.binding ? resourceBound.value : 0);
  result.figures.set(figures::kLatency, static_cast<double>(length));
  result.figures.set(figures::kCriticalPath, static_cast<double>(criticalPath));
  result.bounds.lowerBound = static_cast<double>(lowerBound);
  result.bounds.latencyProvenOptimal = length == lowerBound;
  result.objective = static_cast<double>(length);
  result.status = length == lowerBound ? ModelStatus::kOptimal : ModelStatus::kFeasible;
  result.schedule = std::move(schedule);
  return result;
}

}  // namespace

Result forceDirectedSchedule(const Problem& problem, const ForceDirectedOptions& options,
                             const RunContext& context) {
  const Deadline deadline(options.timeLimitSeconds);
  if (!problem.graph || !problem.machine) return errorResult("fds: the problem has no graph");
  const Graph& graph = *problem.graph;
  if (graph.numOps() > options.maxOps) {
    return errorResult(fmt::format(
        "fds: {} ops exceed max_ops={} (force-directed scheduling costs up to O(n^2 D)); use "
        "list (-O refine=true for peak memory) or gaus on graphs this large, or raise max_ops",
        graph.numOps(), options.maxOps));
  }
  // Checks the input as the list scheduler does (units beyond a capacity, cycles), and gives
  // the legalization.
  auto lister = ListScheduler::prepare(problem);
  if (!lister) return errorResult(lister.error());
  auto topo = topologicalOrder(graph);
  if (!topo) return errorResult("fds: " + topo.error());
  Pace pace(deadline, context);
  if (problem.kind == ProblemKind::kLatencyBounded) {
    if (!problem.horizon) return errorResult("fds: a latency-bounded problem needs a horizon");
    // The memory graph has one row; the resource graphs one per resource (checked for both).
    if (auto tooLarge = distributionTooLarge(*problem.horizon, problem.machine->numResources())) {
      return errorResult(*tooLarge);
    }
    return latencyBounded(problem, options, *topo, *lister, pace);
  }
  // Force-directed list scheduling ends near the list schedule's latency.
  auto listed = lister->schedule();
  if (!listed) return errorResult(listed.error());
  if (auto tooLarge = distributionTooLarge(scheduleLatency(graph, listed->start),
                                           problem.machine->numResources())) {
    return errorResult(*tooLarge);
  }
  return latency(problem, *topo, pace);
}

}  // namespace gaus::heuristic
