// Local search on a legal acyclic schedule within a horizon, for peak live memory (formulation B
// of GauS): single ops move inside their precedence window, and ops live at the peak move
// outside it with the ops precedence forces along, to lower the peak. The file
// src/live_memory/refinement.cpp says what it implements and why.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus::live_memory {

struct RefinementOptions {
  // A window wider than this is sampled at this many evenly spaced starts (its ends included)
  // instead of tried whole, which bounds a sweep's cost where a value's reader is far away.
  std::int32_t maxCandidates = 64;
  // Polled between ops; returning true ends the search with the best schedule so far.
  std::function<bool()> stop;
};

struct Refinement {
  Schedule schedule;
  std::int64_t moves = 0;   // single-op moves applied
  std::int64_t pushes = 0;  // compound moves applied (an op with the ops precedence moves along)
  std::int64_t sweeps = 0;  // passes over every op (the first, and each that checks for moves left)
  std::int64_t splices = 0;  // regions taken from donors (Refiner::splice)
  // The search ended because no move lowers (peak, cycles at the peak, sum of squared live
  // memory), not because `stop` said so.
  bool localOptimum = false;
};

// The refinement as a search that can stop and go on: run() works until `stop` says so or the
// schedule is a local optimum, and a later run() continues where it stopped, so that a caller
// can refine in time slices (GauS's legalization worker) and take the schedule in between.
class Refiner {
 public:
  // `legal` as for refine below; options.stop is not used (run() takes its own).
  Refiner(const Graph& graph, Cycle horizon, const Schedule& legal,
          const RefinementOptions& options = {});
  ~Refiner();
  Refiner(const Refiner&) = delete;
  Refiner& operator=(const Refiner&) = delete;

  // True when the search ended at a local optimum, false when `stop` ended this slice.
  bool run(const std::function<bool()>& stop);
  // Takes the starts of `donor`, another legal schedule of the same graph within the same
  // horizon, for the ops around each cluster of the current schedule's peak cycles, where that
  // lowers (peak, cycles at the peak, sum of squared live memory); the ops around a cluster are
  // those live or starting near it in either schedule, and every op precedence ties to them,
  // so the result stays legal. Where the peak is a few distant clusters, one schedule rarely
  // has all of them low while different candidates each have some: this combines them
  // (partition crossover, as in genetic algorithms). Returns the regions taken; a following
  // run() refines around them. `stop` is polled between regions.
  std::int64_t splice(const Schedule& donor, const std::function<bool()>& stop);
  // The schedule so far (legal, never worse than the input) and the counters.
  const Refinement& result();
  double peak() const;

 private:
  class Search;
  // The margins around a region that splice() tries, narrowest first.
  static constexpr Cycle kSpliceMargins[] = {0, 4, 16};
  void queue(OpId op);
  void queueEveryOp();

  const Graph& graph_;
  RefinementOptions options_;
  std::unique_ptr<Search> search_;
  std::deque<OpId> work_;  // ops to try, each at most once (queued_)
  std::vector<char> queued_;
  bool movedSinceSweep_ = false;
  bool pushing_ = false;  // among the compound moves of pushCandidates_, at nextPush_
  std::vector<OpId> pushCandidates_;
  std::size_t nextPush_ = 0;
  Refinement result_;
};

// `legal` must keep every distance-0 edge u -> v (s_v >= s_u + delay) and every op within
// [0, horizon - duration]. The result keeps both and its peak live memory (core's
// computeMetrics: a value of op u is live from s_u until its last distance-0 reader starts) is
// never above the input's. Reservations are not looked at: call it only on problems without
// limited resources.
Refinement refine(const Graph& graph, Cycle horizon, const Schedule& legal,
                  const RefinementOptions& options = {});

}  // namespace gaus::live_memory
