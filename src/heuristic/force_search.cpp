// The time-constrained force-directed search (force_search.hpp).

#include "force_search.hpp"

#include <utility>

namespace gaus::heuristic::detail {

namespace {

// The ops by their least force, least first, equal forces by the smaller op id: one entry per
// op, updated in place (no stale copies pile up).
class ForceHeap {
 public:
  explicit ForceHeap(OpId opCount)
      : position_(static_cast<std::size_t>(opCount), -1),
        force_(static_cast<std::size_t>(opCount), 0.0) {}

  bool empty() const { return heap_.empty(); }
  OpId top() const { return heap_.front(); }

  void set(OpId op, double force) {
    force_[op] = force;
    if (position_[op] < 0) {
      position_[op] = static_cast<std::int64_t>(heap_.size());
      heap_.push_back(op);
    }
    const auto at = static_cast<std::size_t>(position_[op]);
    up(at);
    down(static_cast<std::size_t>(position_[op]));
  }

  void pop() {
    const OpId last = heap_.back();
    position_[heap_.front()] = -1;
    heap_.pop_back();
    if (heap_.empty()) return;
    heap_.front() = last;
    position_[last] = 0;
    down(0);
  }

 private:
  bool before(OpId a, OpId b) const {
    if (force_[a] != force_[b]) return force_[a] < force_[b];
    return a < b;
  }
  void place(std::size_t at, OpId op) {
    heap_[at] = op;
    position_[op] = static_cast<std::int64_t>(at);
  }
  void up(std::size_t at) {
    const OpId op = heap_[at];
    while (at > 0 && before(op, heap_[(at - 1) / 2])) {
      place(at, heap_[(at - 1) / 2]);
      at = (at - 1) / 2;
    }
    place(at, op);
  }
  void down(std::size_t at) {
    const OpId op = heap_[at];
    while (true) {
      std::size_t child = 2 * at + 1;
      if (child >= heap_.size()) break;
      if (child + 1 < heap_.size() && before(heap_[child + 1], heap_[child])) ++child;
      if (!before(heap_[child], op)) break;
      place(at, heap_[child]);
      at = child;
    }
    place(at, op);
  }

  std::vector<OpId> heap_;
  std::vector<std::int64_t> position_;
  std::vector<double> force_;
};

}  // namespace

ForceRun timeConstrainedForces(const Graph& graph, const Machine& machine,
                               const ForceSearchOptions& options, std::vector<Cycle> asap,
                               std::vector<Cycle> alap, const std::function<bool()>& stop,
                               const std::function<void(OpId, OpId)>& report) {
  ForceModel model(graph, machine, options.memory, options.sums);
  model.reset(std::move(asap), std::move(alap));
  const auto opCount = static_cast<std::size_t>(graph.numOps());
  ForceHeap heap(graph.numOps());
  std::vector<std::int64_t> evaluatedAt(opCount, -1);
  std::vector<Cycle> bestStep(opCount, 0);
  std::vector<double> bestForce(opCount, 0.0);
  const auto evaluate = [&](OpId op) {
    const auto [force, step] = model.bestStep(op);
    evaluatedAt[op] = model.epoch();
    bestStep[op] = step;
    bestForce[op] = force;
    heap.set(op, force);
  };
  // The paper's order looks at the clock after every fix, each of which may recompute every op.
  const std::int64_t checkEvery = options.lazy ? 64 : 1;
  bool stopped = false;
  for (OpId op = 0; op < graph.numOps() && !stopped; ++op) {
    if (!model.fixed(op)) evaluate(op);
    if ((op + 1) % 64 == 0) stopped = stop();
  }
  ForceRun run;
  // Recomputations since the last fix, and the least (force, op) among them.
  std::int64_t recomputed = 0;
  OpId leastRecomputed = -1;
  const auto fix = [&](OpId op) {
    model.narrow(op, bestStep[op], bestStep[op]);
    recomputed = 0;
    leastRecomputed = -1;
    if (!options.lazy) {
      // The paper's order: every force whose inputs changed is recomputed before the next pick.
      for (OpId other = 0; other < graph.numOps(); ++other) {
        if (!model.fixed(other) && !model.unchangedSince(other, evaluatedAt[other])) {
          evaluate(other);
        }
      }
    }
  };
  std::int64_t picks = 0;
  while (!heap.empty() && !stopped) {
    if (++picks % checkEvery == 0) {
      if (stop()) break;
      report(model.fixedCount(), graph.numOps());
    }
    const OpId top = heap.top();
    if (model.fixed(top)) {  // by the frames that followed an earlier fix
      heap.pop();
      continue;
    }
    if (model.unchangedSince(top, evaluatedAt[top])) {
      heap.pop();
      fix(top);
      continue;
    }
    if (options.maxRecomputations && recomputed > 0 && recomputed >= *options.maxRecomputations) {
      // Every op recomputed since the last fix still reads what it read then.
      ++run.boundedPicks;
      fix(leastRecomputed);
      continue;
    }
    evaluate(top);
    ++recomputed;
    if (leastRecomputed < 0 || bestForce[top] < bestForce[leastRecomputed] ||
        (bestForce[top] == bestForce[leastRecomputed] && top < leastRecomputed)) {
      leastRecomputed = top;
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

}  // namespace gaus::heuristic::detail
