// A modulo reservation table: units in use per resource and residue (cycle mod II), for
// reservation tables of several blocks and several cycles. Shared by iterative modulo
// scheduling, GauS's modulo legalization and anything else that places ops at a fixed II.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/heuristic/reservation_runs.hpp>

namespace gaus::heuristic {

// A block longer than II wraps around and holds its units on every residue once per full turn.
// Blocks on unlimited resources are not tracked. The machine must outlive the table. Two overloads
// take an op's reservation: the raw blocks (convenient), or its runs folded at this II
// (ReservationRunBuilder with the same II), which a scheduler that places the same ops many times
// computes once.
class ModuloReservationTable {
 public:
  ModuloReservationTable(const Machine& machine, std::int32_t ii);

  std::int32_t ii() const { return ii_; }
  // True when placing `blocks` at `start` keeps every limited resource within capacity.
  bool fits(std::span<const ReservationBlock> blocks, Cycle start) const;
  void reserve(std::span<const ReservationBlock> blocks, Cycle start);
  void release(std::span<const ReservationBlock> blocks, Cycle start);
  // Units of `resource` in use at residue `residue`.
  std::int64_t used(ResourceId resource, std::int32_t residue) const;
  // Units of a limited `resource` in use per residue 0..II-1, a view that follows later changes
  // (empty for an unlimited resource).
  std::span<const std::int64_t> usage(ResourceId resource) const;

  // The same on folded runs.
  bool fits(std::span<const ReservationRun> runs, Cycle start) const;
  void reserve(std::span<const ReservationRun> runs, Cycle start);
  void release(std::span<const ReservationRun> runs, Cycle start);

  // The first start in [from, last] where `runs` fit, or nullopt. Reads each cell of the span at
  // most once per run and skips 64-residue blocks that have no room at all, so a nearly full
  // table with II in the thousands costs about (free cells + total run length + II / 64).
  std::optional<Cycle> earliestFit(std::span<const ReservationRun> runs, Cycle from,
                                   Cycle last) const;

  std::int64_t capacity(ResourceId resource) const { return capacity_[resource]; }
  std::int32_t residueOf(Cycle cycle) const {
    const Cycle residue = cycle % ii_;
    return static_cast<std::int32_t>(residue < 0 ? residue + ii_ : residue);
  }

  // Cells (limited resources x II) a table for `machine` at `ii` holds: a caller can refuse an
  // II whose table would not fit in memory.
  static std::int64_t cellCount(const Machine& machine, std::int64_t ii);

  // Interface of detail::findEarliestFit (runs are on limited resources only).
  // The first cycle in [begin, end) whose residue has no room for the run's units, or `end`.
  Cycle firstMisfit(const ReservationRun& run, Cycle begin, Cycle end) const;
  // The first cycle after `cycle` whose residue has room for the run's units; far beyond any
  // search window when no residue has.
  Cycle nextCandidate(const ReservationRun& run, Cycle cycle) const;

 private:
  static constexpr Cycle kNoRoom = std::numeric_limits<Cycle>::max() / 4;
  static constexpr std::int32_t kBlock = 64;  // residues per summary block
  std::size_t index(ResourceId resource, std::int32_t residue) const {
    return static_cast<std::size_t>(row_[resource]) * static_cast<std::size_t>(ii_) +
           static_cast<std::size_t>(residue);
  }
  void apply(std::span<const ReservationBlock> blocks, Cycle start, std::int64_t sign);
  void apply(std::span<const ReservationRun> runs, Cycle start, std::int64_t sign);
  // Adds `amount` on `length` consecutive residues from `first` (length <= II).
  void addToResidues(ResourceId resource, std::int32_t first, Cycle length, std::int64_t amount);
  // Adds `amount` on residues [first, end) of one row, within [0, II), and updates its blocks.
  void addToRange(std::size_t row, std::int32_t first, std::int32_t end, std::int64_t amount);
  void recomputeBlock(std::size_t row, std::int32_t block);

  std::int32_t ii_;
  std::vector<std::int64_t> capacity_;  // per resource; max int64 when unlimited
  std::vector<std::int32_t> row_;       // per resource: its row in used_, -1 when unlimited
  std::vector<std::int64_t> used_;      // row * ii + residue, rows of limited resources only
  std::int32_t blocksPerRow_;
  std::vector<std::int64_t> blockMin_;  // row * blocksPerRow + block: least units in use
  std::vector<std::int64_t> blockMax_;  // row * blocksPerRow + block: most units in use
  const Machine* machine_;
};

}  // namespace gaus::heuristic
