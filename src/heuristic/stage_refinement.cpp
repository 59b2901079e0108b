// Refinement of a legal stage schedule for the GS-Schedule objective (Liu et al., "Differentiable
// Combinatorial Scheduling at Scale", ICML 2024: ratio x peak stage weight + stage boundaries
// crossed by comm edges; benchmarks/gs-schedule-icml24-rw/README.md), run after GauS's
// legalization of formulation A (Cai et al., GauS, arXiv 2602.20427) and on the `balanced`
// method's greedy cut.
//
// Neither paper has this step: GauS rounds the means and legalizes them with a list scheduler,
// which restores precedence but knows nothing of the objective, and GS-Schedule reads the stage
// off the argmax. On GS-Schedule's graphs the ratio-100 peak term dominates and a greedy cut of
// a topological order is already within 1-2 % of the lower bound max(ceil(total / D), largest
// weight), which rounded means do not reach; what is left is fine balancing, a combinatorial
// job that gradient steps on a smooth maximum do poorly and local moves do well.
//
// The move set: a single op moves to another stage inside its precedence window (the latest
// predecessor stage + delay to the earliest successor stage - delay, within [0, D - duration]),
// or two ops of positive weight in different stages exchange stages (a swap shifts the
// difference of their weights, which balances more finely than any single move). Two phases:
// 1. Balance: take the heaviest stage that some move or swap to a lighter stage makes the pair
//    more even (the larger of the two new loads below the old one), apply the one with the
//    smallest ratio x (new larger load) + change in communication, and start again. Every step
//    lowers the stage loads sorted in decreasing order lexicographically, so it ends. It ignores
//    the peak's other stages: it may raise communication, which the descent then lowers.
// 2. Descent: first-improvement sweeps over every move and swap, accepting one that lowers
//    ratio x peak + communication, or keeps it and lowers the sum of squared stage loads (which
//    lets a second stage at the peak shed load, where the peak itself cannot fall yet), until a
//    sweep finds none: a local optimum under the move set.
// The descent runs on the balanced schedule, and on the input too when that ends worse than the
// input; the best of them is returned, so the result is never worse than the input.

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include <gaus/core/analysis.hpp>
#include <gaus/core/stage_objective.hpp>
#include <gaus/heuristic/stage_refinement.hpp>

namespace gaus::heuristic {

namespace {

constexpr double kTolerance = 1e-9;

class StageSearch {
 public:
  StageSearch(const Graph& graph, Cycle horizon, const Schedule& legal,
              const StageRefinementOptions& options)
      : graph_(graph),
        horizon_(horizon),
        options_(options),
        stage_(legal.start),
        load_(static_cast<std::size_t>(std::max<Cycle>(horizon, 1)), 0.0),
        members_(load_.size()),
        position_(stage_.size(), 0) {
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      if (graph_.weight(op) == 0.0) continue;
      load_[stage_[op]] += graph_.weight(op);
      position_[op] = members_[stage_[op]].size();
      members_[stage_[op]].push_back(op);
      weighted_.push_back(op);
    }
    commBound_.assign(stage_.size(), 0.0);
    for (EdgeId e = 0; e < graph_.numEdges(); ++e) {
      if (!counts(e)) continue;
      commBound_[graph_.edgeSource(e)] += std::abs(graph_.edgeComm(e));
      commBound_[graph_.edgeTarget(e)] += std::abs(graph_.edgeComm(e));
    }
    updatePeaks();
  }

  const std::vector<Cycle>& stages() const { return stage_; }
  std::int64_t moves = 0;
  std::int64_t swaps = 0;

  bool stopped() const { return options_.stop && options_.stop(); }

  // Phase 1; false when stopped.
  bool balance() {
    while (true) {
      if (stopped()) return false;
      std::vector<Cycle> byLoad(load_.size());
      for (std::size_t s = 0; s < byLoad.size(); ++s) byLoad[s] = static_cast<Cycle>(s);
      std::stable_sort(byLoad.begin(), byLoad.end(),
                       [&](Cycle a, Cycle b) { return load_[a] > load_[b]; });
      bool applied = false;
      for (const Cycle heavy : byLoad) {
        if (load_[heavy] <= 0.0) break;
        if (balanceStage(heavy)) {
          applied = true;
          break;
        }
      }
      if (!applied) return true;
    }
  }

  // Phase 2; true when it ended at a local optimum.
  bool descend() {
    while (true) {
      bool improved = false;
      for (OpId op = 0; op < graph_.numOps(); ++op) {
        if (stopped()) return false;
        improved = improveByMove(op) || improved;
      }
      for (std::size_t i = 0; i < weighted_.size(); ++i) {
        if (stopped()) return false;
        for (std::size_t j = i + 1; j < weighted_.size(); ++j) {
          improved = improveBySwap(weighted_[i], weighted_[j]) || improved;
        }
      }
      if (!improved) return true;
    }
  }

 private:
  // Edges that constrain stages and carry communication in an acyclic problem.
  bool counts(EdgeId e) const { return graph_.edgeDistance(e) == 0; }

  // The precedence window of `op` with every other op where it is.
  std::pair<Cycle, Cycle> window(OpId op) const {
    return precedenceWindow(graph_, stage_, op, horizon_);
  }

  // Stage of `op` if `moved` goes to `movedTo` and `other` to `otherTo` (other may be -1).
  Cycle stageAfter(OpId op, OpId moved, Cycle movedTo, OpId other, Cycle otherTo) const {
    if (op == moved) return movedTo;
    if (op == other) return otherTo;
    return stage_[op];
  }

  // Change in communication, and whether precedence and the horizon still hold, when `moved`
  // goes to `movedTo` and `other` (if not -1) to `otherTo`.
  std::pair<double, bool> evaluate(OpId moved, Cycle movedTo, OpId other, Cycle otherTo) const {
    double change = 0.0;
    bool legal = movedTo + graph_.duration(moved) <= horizon_ && movedTo >= 0;
    if (other >= 0) legal = legal && otherTo + graph_.duration(other) <= horizon_ && otherTo >= 0;
    const auto visit = [&](OpId op, bool skipOther) {
      for (const bool incoming : {true, false}) {
        for (const EdgeId e : incoming ? graph_.inEdges(op) : graph_.outEdges(op)) {
          if (!counts(e)) continue;
          const OpId source = graph_.edgeSource(e);
          const OpId target = graph_.edgeTarget(e);
          // An edge between the two ops is visited from the first only.
          if (skipOther && (source == moved || target == moved)) continue;
          const Cycle newSource = stageAfter(source, moved, movedTo, other, otherTo);
          const Cycle newTarget = stageAfter(target, moved, movedTo, other, otherTo);
          legal = legal && newTarget >= newSource + graph_.edgeDelay(e);
          const double comm = graph_.edgeComm(e);
          if (comm == 0.0) continue;
          change += comm * static_cast<double>(std::max<Cycle>(0, newTarget - newSource) -
                                               std::max<Cycle>(0, stage_[target] - stage_[source]));
        }
      }
    };
    visit(moved, false);
    if (other >= 0) visit(other, true);
    return {change, legal};
  }

  void updatePeaks() {
    top_ = {-1, -1, -1};
    for (Cycle s = 0; s < static_cast<Cycle>(load_.size()); ++s) {
      for (std::size_t k = 0; k < top_.size(); ++k) {
        if (top_[k] < 0 || load_[s] > load_[top_[k]]) {
          for (std::size_t m = top_.size() - 1; m > k; --m) top_[m] = top_[m - 1];
          top_[k] = s;
          break;
        }
      }
    }
  }
  double peak() const { return top_[0] < 0 ? 0.0 : std::max(0.0, load_[top_[0]]); }
  // The largest load among the stages other than a and b.
  double peakWithout(Cycle a, Cycle b) const {
    for (const Cycle s : top_) {
      if (s >= 0 && s != a && s != b) return std::max(0.0, load_[s]);
    }
    return 0.0;
  }

  void relocate(OpId op, Cycle to) {
    const Cycle from = stage_[op];
    if (graph_.weight(op) != 0.0) {
      auto& leaving = members_[from];
      const OpId last = leaving.back();
      leaving[position_[op]] = last;
      position_[last] = position_[op];
      leaving.pop_back();
      position_[op] = members_[to].size();
      members_[to].push_back(op);
      load_[from] -= graph_.weight(op);
      load_[to] += graph_.weight(op);
    }
    stage_[op] = to;
  }
  void applyMove(OpId op, Cycle to) {
    relocate(op, to);
    updatePeaks();
    ++moves;
  }
  void applySwap(OpId first, OpId second) {
    const Cycle firstStage = stage_[first];
    relocate(first, stage_[second]);
    relocate(second, firstStage);
    updatePeaks();
    ++swaps;
  }

  // Phase 1 at stage `heavy`: the best move or swap to a lighter stage that makes the pair more
  // even; false when there is none.
  bool balanceStage(Cycle heavy) {
    const double heavyLoad = load_[heavy];
    double bestScore = std::numeric_limits<double>::infinity();
    OpId bestOp = -1;
    OpId bestPartner = -1;
    Cycle bestStage = -1;
    for (const OpId op : members_[heavy]) {
      const double weight = graph_.weight(op);
      const auto [low, high] = window(op);
      for (Cycle light = 0; light < static_cast<Cycle>(load_.size()); ++light) {
        if (light == heavy || load_[light] >= heavyLoad) continue;
        // Move op to `light`.
        if (weight > 0.0 && light >= low && light <= high) {
          const double larger = std::max(heavyLoad - weight, load_[light] + weight);
          if (larger < heavyLoad - kTolerance) {
            const auto [comm, legal] = evaluate(op, light, -1, 0);
            const double score = options_.ratio * larger + comm;
            if (legal && score < bestScore) {
              bestScore = score;
              bestOp = op;
              bestPartner = -1;
              bestStage = light;
            }
          }
        }
        // Swap op with a lighter op of `light`.
        for (const OpId partner : members_[light]) {
          const double shift = weight - graph_.weight(partner);
          if (shift <= 0.0) continue;
          const double larger = std::max(heavyLoad - shift, load_[light] + shift);
          if (larger >= heavyLoad - kTolerance) continue;
          if (light < low || light > high) continue;
          const auto [comm, legal] = evaluate(op, light, partner, heavy);
          const double score = options_.ratio * larger + comm;
          if (legal && score < bestScore) {
            bestScore = score;
            bestOp = op;
            bestPartner = partner;
            bestStage = light;
          }
        }
      }
    }
    if (bestOp < 0) return false;
    if (bestPartner < 0) {
      applyMove(bestOp, bestStage);
    } else {
      applySwap(bestOp, bestPartner);
    }
    return true;
  }

  // (change in ratio x peak + communication, change in the sum of squared loads) of a step that
  // moves `shift` weight from stage a to stage b, communication excluded.
  std::pair<double, double> loadChange(Cycle a, Cycle b, double shift) const {
    const double newA = load_[a] - shift;
    const double newB = load_[b] + shift;
    const double newPeak = std::max({peakWithout(a, b), newA, newB, 0.0});
    // newA^2 + newB^2 - a^2 - b^2 without the difference of large squares, and 0 when the
    // step only trades rounding: with fractional weights the loads drift in their last bits,
    // and a step and its reverse could both seem to lower the squares, forever.
    const double balance = shift + load_[b] - load_[a];
    const double rounding = kTolerance * (std::abs(load_[a]) + std::abs(load_[b]));
    const double squares = std::abs(balance) <= rounding ? 0.0 : 2.0 * shift * balance;
    return {options_.ratio * (newPeak - peak()), squares};
  }

  static bool better(double objectiveChange, double squaresChange) {
    return objectiveChange < -kTolerance ||
           (objectiveChange <= kTolerance && squaresChange < -kTolerance);
  }

  bool improveByMove(OpId op) {
    const auto [low, high] = window(op);
    const Cycle from = stage_[op];
    for (Cycle to = low; to <= high; ++to) {
      if (to == from) continue;
      const auto [peakChange, squares] = loadChange(from, to, graph_.weight(op));
      if (peakChange > commBound_[op] * static_cast<double>(std::abs(to - from)) + kTolerance) {
        continue;
      }
      const auto [comm, legal] = evaluate(op, to, -1, 0);
      if (legal && better(peakChange + comm, squares)) {
        applyMove(op, to);
        return true;
      }
    }
    return false;
  }

  bool improveBySwap(OpId first, OpId second) {
    const Cycle a = stage_[first];
    const Cycle b = stage_[second];
    if (a == b) return false;
    const auto [peakChange, squares] =
        loadChange(a, b, graph_.weight(first) - graph_.weight(second));
    const double commBound =
        (commBound_[first] + commBound_[second]) * static_cast<double>(std::abs(a - b));
    if (peakChange > commBound + kTolerance) return false;
    if (commBound == 0.0 && !better(peakChange, squares)) return false;
    const auto [comm, legal] = evaluate(first, b, second, a);
    if (!legal || !better(peakChange + comm, squares)) return false;
    applySwap(first, second);
    return true;
  }

  const Graph& graph_;
  Cycle horizon_;
  const StageRefinementOptions& options_;
  std::vector<Cycle> stage_;
  std::vector<double> load_;                // summed weight per stage
  std::vector<std::vector<OpId>> members_;  // ops of positive weight per stage
  std::vector<std::size_t> position_;       // index of an op in members_
  std::vector<OpId> weighted_;              // ops of nonzero weight
  std::vector<double> commBound_;           // sum of |comm| over an op's edges
  std::array<Cycle, 3> top_{};              // the three heaviest stages
};

double objectiveOf(const Graph& graph, const std::vector<Cycle>& stages, double ratio) {
  Schedule schedule;
  schedule.start = stages;
  return gsScheduleObjective(stageFigures(graph, schedule), ratio);
}

}  // namespace

StageRefinement refineStages(const Graph& graph, Cycle horizon, const Schedule& legal,
                             const StageRefinementOptions& options) {
  StageRefinement result;
  result.schedule = legal;
  const double inputObjective = objectiveOf(graph, legal.start, options.ratio);
  double bestObjective = inputObjective;

  const auto keepIfBetter = [&](const StageSearch& search, bool localOptimum) {
    const double objective = objectiveOf(graph, search.stages(), options.ratio);
    if (objective < bestObjective ||
        (objective == bestObjective && localOptimum && !result.localOptimum)) {
      bestObjective = objective;
      result.schedule.start = search.stages();
      result.localOptimum = localOptimum;
    }
    result.moves += search.moves;
    result.swaps += search.swaps;
  };

  StageSearch balanced(graph, horizon, legal, options);
  bool stopped = false;
  if (options.balanceFirst) stopped = !balanced.balance();
  if (!stopped) {
    const bool optimum = balanced.descend();
    stopped = !optimum;
    keepIfBetter(balanced, optimum);
  } else {
    keepIfBetter(balanced, false);
  }
  // The balance phase may have led the descent to a worse optimum than the input's own.
  if (options.balanceFirst && !stopped && bestObjective > inputObjective - kTolerance &&
      !result.localOptimum) {
    StageSearch plain(graph, horizon, legal, options);
    keepIfBetter(plain, plain.descend());
  }
  return result;
}

}  // namespace gaus::heuristic
