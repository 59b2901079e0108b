// The exhaustive searches of exhaustive_search.hpp. Each is a depth-first search over ops whose
// cuts mirror the verifier's rules one for one (precedence with delay, distance and II, the
// cross-warp spill cost, units per cycle or per residue, the variable-latency warp, the horizon);
// every complete assignment is handed to verify(), which also judges what the search does not
// model (memory and register capacity, blocking concurrency), so a schedule is only ever counted
// when the verifier accepts it.

#include <algorithm>
#include <bit>
#include <numeric>
#include <vector>

#include <gaus/core/analysis.hpp>
#include <gaus/core/stage_objective.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/crosscheck/exhaustive_search.hpp>

namespace gaus::crosscheck {

namespace {

// Units in use per limited resource and cycle: absolute cycles in [0, size), or residues modulo
// II (size = II), where a reservation longer than II wraps around and counts once per wrap, as
// the verifier counts it.
class UnitTable {
 public:
  UnitTable(const Graph& graph, const Machine& machine, Cycle size, bool modulo)
      : graph_(graph), machine_(machine), size_(size), modulo_(modulo) {
    usage_.assign(static_cast<std::size_t>(machine.numResources()),
                  std::vector<std::int64_t>(static_cast<std::size_t>(std::max<Cycle>(size, 1)), 0));
  }

  // Places the op's reservation table at `start` when every cycle it touches stays within
  // capacity; leaves the table unchanged and returns false otherwise.
  bool tryPlace(OpId op, Cycle start) {
    if (!fits(op, start)) return false;
    add(op, start, 1);
    return true;
  }
  void remove(OpId op, Cycle start) { add(op, start, -1); }

 private:
  template <class Visit>
  bool forEachCycle(OpId op, Cycle start, Visit visit) const {
    for (const ReservationBlock& block : graph_.reservation(op)) {
      if (!machine_.resources[block.resource].limited()) continue;
      for (std::int32_t k = 0; k < block.length; ++k) {
        Cycle cycle = start + block.begin + k;
        if (modulo_) {
          cycle %= size_;
        } else if (cycle >= size_) {
          return false;  // beyond the cap: the caller's window excludes it anyway
        }
        if (!visit(block, static_cast<std::size_t>(cycle))) return false;
      }
    }
    return true;
  }

  bool fits(OpId op, Cycle start) {
    // A reservation may hit one residue several times: count into a scratch copy first.
    touched_.clear();
    const bool inside = forEachCycle(op, start, [&](const ReservationBlock& block, std::size_t c) {
      usage_[block.resource][c] += block.units;
      touched_.emplace_back(block.resource, c, block.units);
      return true;
    });
    bool ok = inside;
    for (const auto& [resource, cycle, units] : touched_) {
      if (usage_[resource][cycle] > *machine_.resources[resource].capacity) ok = false;
    }
    for (const auto& [resource, cycle, units] : touched_) usage_[resource][cycle] -= units;
    return ok;
  }

  void add(OpId op, Cycle start, std::int64_t sign) {
    forEachCycle(op, start, [&](const ReservationBlock& block, std::size_t c) {
      usage_[block.resource][c] += sign * block.units;
      return true;
    });
  }

  const Graph& graph_;
  const Machine& machine_;
  Cycle size_;
  bool modulo_;
  std::vector<std::vector<std::int64_t>> usage_;
  std::vector<std::tuple<ResourceId, std::size_t, std::int64_t>> touched_;
};

// Precedence (and, with warps, the spill cost) between `op` at `start` and every placed op it
// shares an edge with, as verify() states it: t(v) + distance II >= t(u) + delay, where edges
// of distance > 0 count only when `ii` is set.
bool edgesHold(const Graph& graph, const Schedule& schedule, const std::vector<char>& placed,
               OpId op, std::optional<std::int32_t> ii) {
  const auto holds = [&](EdgeId e) {
    const OpId source = graph.edgeSource(e);
    const OpId target = graph.edgeTarget(e);
    const std::int32_t distance = graph.edgeDistance(e);
    if (distance > 0 && !ii) return true;
    if (!placed[source] || !placed[target]) return true;
    Cycle delay = graph.edgeDelay(e);
    if (schedule.warps && (*schedule.warps)[source] != (*schedule.warps)[target]) {
      delay += graph.spillCost(source);
    }
    return schedule.start[target] + distance * static_cast<Cycle>(ii.value_or(0)) >=
           schedule.start[source] + delay;
  };
  for (EdgeId e : graph.inEdges(op)) {
    if (!holds(e)) return false;
  }
  for (EdgeId e : graph.outEdges(op)) {
    if (!holds(e)) return false;
  }
  return true;
}

// Ops in a topological order of the distance-0 edges, so that every distance-0 predecessor of
// an op is placed before it and fixes its earliest start.
std::vector<OpId> placementOrder(const Graph& graph) {
  auto order = topologicalOrder(graph);
  return order ? std::move(order).value() : std::vector<OpId>{};
}

Cycle earliestStart(const Graph& graph, const Schedule& schedule, OpId op) {
  Cycle earliest = 0;
  for (EdgeId e : graph.inEdges(op)) {
    if (graph.edgeDistance(e) != 0) continue;
    earliest = std::max(earliest, schedule.start[graph.edgeSource(e)] + graph.edgeDelay(e));
  }
  return earliest;
}

class AcyclicSearch {
 public:
  AcyclicSearch(const Problem& problem, Cycle latencyCap, bool enumerateAll,
                const SearchBudget& budget)
      : problem_(problem),
        graph_(*problem.graph),
        cap_(problem.horizon ? std::min(latencyCap, *problem.horizon) : latencyCap),
        enumerateAll_(enumerateAll),
        budget_(budget),
        order_(placementOrder(graph_)),
        table_(graph_, *problem.machine, std::max<Cycle>(cap_, 1), false),
        placed_(static_cast<std::size_t>(graph_.numOps()), 0) {
    schedule_.start.assign(static_cast<std::size_t>(graph_.numOps()), 0);
  }

  AcyclicOptimum run() {
    if (order_.size() == static_cast<std::size_t>(graph_.numOps())) place(0);
    answer_.complete = !outOfBudget_;
    return std::move(answer_);
  }

 private:
  void place(std::size_t index) {
    if (index == order_.size()) {
      judge();
      return;
    }
    const OpId op = order_[index];
    for (Cycle t = earliestStart(graph_, schedule_, op); t <= lastStart(op); ++t) {
      if (++answer_.nodes > budget_.nodes) {
        outOfBudget_ = true;
        return;
      }
      schedule_.start[op] = t;
      placed_[op] = 1;
      if (edgesHold(graph_, schedule_, placed_, op, std::nullopt) && table_.tryPlace(op, t)) {
        place(index + 1);
        table_.remove(op, t);
      }
      placed_[op] = 0;
      if (outOfBudget_) return;
    }
  }

  // The op must be done by the cap and, in branch and bound, before the best latency so far.
  Cycle lastStart(OpId op) const {
    Cycle end = cap_;
    if (!enumerateAll_ && answer_.minLatency) end = std::min(end, *answer_.minLatency - 1);
    return end - graph_.duration(op);
  }

  void judge() {
    const VerificationReport report = verify(problem_, schedule_);
    if (!report.ok()) return;  // a family the search does not model (memory capacity)
    if (!answer_.minLatency || report.metrics.latency < *answer_.minLatency) {
      answer_.minLatency = report.metrics.latency;
      answer_.best = schedule_;
    }
    if (!enumerateAll_) return;
    keepSmaller(answer_.minPeakMemory, report.metrics.peakLiveMemory);
    if (problem_.kind == ProblemKind::kStages) {
      keepSmaller(answer_.minStageObjective,
                  gsScheduleObjective(stageFigures(graph_, schedule_), problem_.stageRatio));
    }
  }

  void keepSmaller(std::optional<ObjectiveOptimum>& optimum, double value) const {
    if (!optimum || value < optimum->value) optimum = ObjectiveOptimum{value, schedule_};
  }

  const Problem& problem_;
  const Graph& graph_;
  Cycle cap_;
  bool enumerateAll_;
  SearchBudget budget_;
  std::vector<OpId> order_;
  UnitTable table_;
  std::vector<char> placed_;
  Schedule schedule_;
  AcyclicOptimum answer_;
  bool outOfBudget_ = false;
};

class ResidueSearch {
 public:
  ResidueSearch(const Problem& problem, std::int32_t ii, const SearchBudget& budget,
                std::int64_t nodesUsed)
      : problem_(problem),
        graph_(*problem.graph),
        ii_(ii),
        budget_(budget),
        nodes_(nodesUsed),
        table_(graph_, *problem.machine, ii, true) {
    residue_.assign(static_cast<std::size_t>(graph_.numOps()), 0);
    schedule_.start.assign(static_cast<std::size_t>(graph_.numOps()), 0);
    schedule_.ii = ii;
  }

  // Searches every residue assignment at this II; false when the budget ran out.
  bool run() {
    assign(0);
    return !outOfBudget_;
  }
  std::int64_t nodes() const { return nodes_; }
  const std::optional<Schedule>& best() const { return best_; }
  std::optional<Cycle> minLatency() const { return minLatency_; }

 private:
  void assign(OpId op) {
    if (op == graph_.numOps()) {
      judge();
      return;
    }
    for (std::int32_t r = 0; r < ii_; ++r) {
      if (++nodes_ > budget_.nodes) {
        outOfBudget_ = true;
        return;
      }
      if (!table_.tryPlace(op, r)) continue;
      residue_[op] = r;
      assign(op + 1);
      table_.remove(op, r);
      if (outOfBudget_) return;
    }
  }

  // The least starts with the chosen residues: longest paths over t(v) >= t(u) + delay -
  // distance II with t(v) = residue(v) + II * stage(v), stage >= 0. A change in round |V| + 1
  // means a positive cycle: no schedule has these residues.
  void judge() {
    const OpId n = graph_.numOps();
    for (OpId op = 0; op < n; ++op) schedule_.start[op] = residue_[op];
    bool changed = true;
    for (OpId round = 0; round <= n && changed; ++round) {
      changed = false;
      for (EdgeId e = 0; e < graph_.numEdges(); ++e) {
        const OpId source = graph_.edgeSource(e);
        const OpId target = graph_.edgeTarget(e);
        const Cycle need = schedule_.start[source] + graph_.edgeDelay(e) -
                           static_cast<Cycle>(graph_.edgeDistance(e)) * ii_;
        Cycle& start = schedule_.start[target];
        if (start >= need) continue;
        const Cycle stages = (need - residue_[target] + ii_ - 1) / ii_;
        start = residue_[target] + ii_ * stages;
        changed = true;
      }
    }
    if (changed) return;
    const VerificationReport report = verify(problem_, schedule_);
    if (!report.ok()) return;  // the horizon, or a family the search does not model
    if (!minLatency_ || report.metrics.latency < *minLatency_) {
      minLatency_ = report.metrics.latency;
      best_ = schedule_;
    }
  }

  const Problem& problem_;
  const Graph& graph_;
  std::int32_t ii_;
  SearchBudget budget_;
  std::int64_t nodes_;
  UnitTable table_;
  std::vector<Cycle> residue_;
  Schedule schedule_;
  std::optional<Schedule> best_;
  std::optional<Cycle> minLatency_;
  bool outOfBudget_ = false;
};

// Warp sets an op may take: one warp, or for min_warps k > 1 an aligned group of k warps (core
// isWarpGroup); a variable-latency op alone on the variable-latency warp, and no other op on it
// (the verifier's variable-latency rule).
std::vector<WarpSet> warpSetChoices(const Graph& graph, const Machine& machine, OpId op) {
  std::vector<WarpSet> choices;
  const std::int32_t size = graph.minWarps(op);
  const std::optional<std::int32_t> vl = machine.variableLatencyWarp;
  for (std::int32_t first = 0; first + size <= machine.warps; first += size) {
    const WarpSet set = warpGroup(first, size);
    const bool onVl = vl && ((set >> *vl) & 1U) != 0;
    if (graph.variableLatency(op) && vl && set != (WarpSet{1} << *vl)) continue;
    if (!graph.variableLatency(op) && onVl) continue;
    choices.push_back(set);
  }
  return choices;
}

// Which warp choices are worth trying, given the warps the ops placed so far use. Warps that no
// rule tells apart give schedules that differ only by renaming: with B the least common multiple
// of the ops' min_warps, whole aligned blocks of B warps without the variable-latency warp are
// interchangeable (moving a block keeps every group aligned), and when every op takes one warp or
// a whole block, so are a block's warps other than the variable-latency one. Renaming the blocks
// by first use in placement order, then the warps within each block, maps any schedule to one
// whose every op takes the first unused block (or warp) when it takes an unused one; the search
// tries only those.
class WarpRenaming {
 public:
  WarpRenaming(const Graph& graph, const Machine& machine) : vl_(machine.variableLatencyWarp) {
    std::int64_t block = 1;
    for (OpId op = 0; op < graph.numOps(); ++op) {
      block = std::lcm(block, static_cast<std::int64_t>(graph.minWarps(op)));
    }
    if (block > machine.warps) return;
    blockSize_ = static_cast<std::int32_t>(block);
    for (std::int32_t first = 0; first + blockSize_ <= machine.warps; first += blockSize_) {
      const WarpSet set = warpGroup(first, blockSize_);
      if (!vl_ || ((set >> *vl_) & 1U) == 0) blocks_.push_back(set);
    }
    withinBlocks_ = true;
    for (OpId op = 0; op < graph.numOps(); ++op) {
      withinBlocks_ = withinBlocks_ && (graph.minWarps(op) == 1 || graph.minWarps(op) == block);
    }
  }

  bool worthTrying(WarpSet set, WarpSet used) const {
    if (blockSize_ == 0) return true;
    bool firstUnused = true;
    for (const WarpSet block : blocks_) {
      if ((block & used) != 0) continue;
      if ((set & ~block) == 0) {
        if (!firstUnused) return false;  // a later unused block: the first one does the same
        break;
      }
      firstUnused = false;
    }
    if (!withinBlocks_ || std::popcount(set) != 1 || (set & used) != 0) return true;
    // An unused warp: an earlier unused warp of its block (not the variable-latency one) does
    // the same.
    const int warp = std::countr_zero(set);
    for (int w = warp / blockSize_ * blockSize_; w < warp; ++w) {
      if ((!vl_ || w != *vl_) && ((used >> w) & 1U) == 0) return false;
    }
    return true;
  }

 private:
  std::optional<std::int32_t> vl_;
  std::int32_t blockSize_ = 0;
  std::vector<WarpSet> blocks_;
  bool withinBlocks_ = false;
};

class WarpSearch {
 public:
  WarpSearch(const Problem& problem, std::int32_t ii, Cycle latencyCap, const SearchBudget& budget,
             std::int64_t nodesUsed)
      : problem_(problem),
        graph_(*problem.graph),
        ii_(ii),
        cap_(problem.horizon ? std::min(latencyCap, *problem.horizon) : latencyCap),
        budget_(budget),
        nodes_(nodesUsed),
        order_(placementOrder(graph_)),
        table_(graph_, *problem.machine, ii, true),
        placed_(static_cast<std::size_t>(graph_.numOps()), 0),
        renaming_(graph_, *problem.machine) {
    schedule_.start.assign(static_cast<std::size_t>(graph_.numOps()), 0);
    schedule_.warps = std::vector<WarpSet>(static_cast<std::size_t>(graph_.numOps()), 0);
    schedule_.ii = ii;
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      choices_.push_back(warpSetChoices(graph_, *problem.machine, op));
    }
  }

  bool run() {
    if (order_.size() == static_cast<std::size_t>(graph_.numOps())) place(0);
    return !outOfBudget_;
  }
  std::int64_t nodes() const { return nodes_; }
  const std::optional<Schedule>& found() const { return found_; }

 private:
  void place(std::size_t index) {
    if (index == order_.size()) {
      if (verify(problem_, schedule_).ok()) found_ = schedule_;
      return;
    }
    const OpId op = order_[index];
    const WarpSet used = usedWarps();  // by the ops placed before this one, whatever its start
    for (Cycle t = earliestStart(graph_, schedule_, op); t + graph_.duration(op) <= cap_; ++t) {
      if (!table_.tryPlace(op, t)) continue;
      schedule_.start[op] = t;
      for (const WarpSet set : choices_[op]) {
        if (!renaming_.worthTrying(set, used)) continue;
        if (++nodes_ > budget_.nodes) outOfBudget_ = true;
        if (outOfBudget_ || found_) break;
        (*schedule_.warps)[op] = set;
        placed_[op] = 1;
        if (edgesHold(graph_, schedule_, placed_, op, ii_)) place(index + 1);
        placed_[op] = 0;
      }
      table_.remove(op, t);
      if (outOfBudget_ || found_) return;
    }
  }

  WarpSet usedWarps() const {
    WarpSet used = 0;
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      if (placed_[op]) used |= (*schedule_.warps)[op];
    }
    return used;
  }

  const Problem& problem_;
  const Graph& graph_;
  std::int32_t ii_;
  Cycle cap_;
  SearchBudget budget_;
  std::int64_t nodes_;
  std::vector<OpId> order_;
  UnitTable table_;
  std::vector<char> placed_;
  WarpRenaming renaming_;
  std::vector<std::vector<WarpSet>> choices_;
  Schedule schedule_;
  std::optional<Schedule> found_;
  bool outOfBudget_ = false;
};

}  // namespace

AcyclicOptimum searchAcyclic(const Problem& problem, Cycle latencyCap, bool enumerateAll,
                             const SearchBudget& budget) {
  return AcyclicSearch(problem, latencyCap, enumerateAll, budget).run();
}

ModuloOptimum searchModulo(const Problem& problem, std::int32_t iiLimit,
                           const SearchBudget& budget) {
  ModuloOptimum answer;
  const std::int32_t first = problem.ii.value_or(1);
  const std::int32_t last = problem.ii.value_or(iiLimit);
  answer.complete = true;
  for (std::int32_t ii = first; ii <= last; ++ii) {
    ResidueSearch search(problem, ii, budget, answer.nodes);
    const bool finished = search.run();
    answer.nodes = search.nodes();
    if (!finished) {
      answer.complete = false;
      return answer;
    }
    if (search.best()) {
      answer.minIi = ii;
      answer.minLatency = search.minLatency();
      answer.best = search.best();
      return answer;
    }
  }
  return answer;
}

WarpScheduleSearch searchModuloWarp(const Problem& problem, std::int32_t iiBelow, Cycle latencyCap,
                                    const SearchBudget& budget) {
  WarpScheduleSearch answer;
  answer.complete = true;
  const std::int32_t first = problem.ii.value_or(1);
  const std::int32_t last = problem.ii ? std::min(*problem.ii, iiBelow - 1) : iiBelow - 1;
  for (std::int32_t ii = first; ii <= last; ++ii) {
    WarpSearch search(problem, ii, latencyCap, budget, answer.nodes);
    const bool finished = search.run();
    answer.nodes = search.nodes();
    if (search.found()) {
      answer.found = search.found();
      return answer;
    }
    if (!finished) {
      answer.complete = false;
      return answer;
    }
  }
  return answer;
}

}  // namespace gaus::crosscheck
