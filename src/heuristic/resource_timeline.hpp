// Internal to the heuristic module: units in use per limited resource and absolute cycle, for
// schedulers that only ever add reservations (list scheduling).
//
// Each resource keeps a usage array indexed by cycle that grows on demand, and a union-find over
// its cycles whose root is the first cycle at or after a given one that still has a free unit.
// A cycle that fills up stays full (nothing is released), so the search for a slot jumps over a
// long stretch of full cycles in near-constant time: without it, a million ops competing for a
// few units would each scan the whole backlog (quadratic).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/heuristic/reservation_runs.hpp>

#include "earliest_fit.hpp"

namespace gaus::heuristic::detail {

class ResourceTimeline {
 public:
  // The arrays hold at most `maxCells` cycles over all limited resources (8 bytes each).
  explicit ResourceTimeline(const Machine& machine, std::int64_t maxCells = kDefaultMaxCells);

  static constexpr std::int64_t kDefaultMaxCells = std::int64_t{1} << 27;  // 1 GiB

  // The first start >= `from` where every run fits (runs on limited resources only, each within
  // its resource's capacity; see describeOverfullRun).
  Cycle earliestFit(std::span<const ReservationRun> runs, Cycle from);
  // Fails when the arrays would outgrow maxCells, naming the resource and the cycle.
  Status reserve(std::span<const ReservationRun> runs, Cycle start);

  // Interface of findEarliestFit. Cycles past the arrays are empty.
  Cycle firstMisfit(const ReservationRun& run, Cycle begin, Cycle end) const {
    const auto& usage = usage_[run.resource];
    const Cycle stop = std::min<Cycle>(end, static_cast<Cycle>(usage.size()));
    const std::int64_t room = capacity_[run.resource] - run.units;
    for (Cycle cycle = begin; cycle < stop; ++cycle) {
      if (usage[static_cast<std::size_t>(cycle)] > room) return cycle;
    }
    return end;
  }
  Cycle nextCandidate(const ReservationRun& run, Cycle cycle) {
    return firstNotFull(run.resource, cycle + 1);
  }

 private:
  Cycle firstNotFull(ResourceId resource, Cycle cycle);
  Status grow(ResourceId resource, Cycle end);

  const Machine& machine_;
  std::int64_t maxCells_;
  std::int64_t cells_ = 0;
  std::vector<std::int64_t> capacity_;
  std::vector<std::vector<std::int32_t>> usage_;  // per resource, per cycle
  // Union-find parent per resource and cycle: itself while the cycle has a free unit, a later
  // cycle once it is full (a value equal to the array size means "past the end").
  std::vector<std::vector<std::int32_t>> notFull_;
  std::vector<RunScan> scratch_;
};

}  // namespace gaus::heuristic::detail
