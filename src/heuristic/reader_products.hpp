// Internal to the heuristic module: the products prod over readers r of F_r(t) that the memory
// distribution graph of force-directed scheduling reads (force_model.hpp), F_r being the
// cumulative distribution of a start uniform in r's frame [asap, alap].
//
// The value of v is live at t with probability F_v(t) (1 - prod_r F_r(t)), and the force of
// moving a reader k reads the product over v's other readers. Taken term by term that costs
// the reader count per cycle, and a value read by hundreds of ops (a select line of an
// and-inverter circuit) makes each of its readers' forces cost hundreds of times its frame.
// So:
// - a product over few readers is swept: each reader multiplies its ramp into the cycles
//   where 0 < F_r < 1, in the readers' order (the same factors in the same order as a term-by-
//   term product, so the same bits); the cycles before the latest reader's ASAP are 0;
// - a value with many readers keeps, per cycle of its possible lifetime, how many readers
//   surely have not started (F_r = 0), how many are in their ramp, and the product of the
//   ramps: the product with one reader left out is then a count and a division, and a
//   reader's new frame updates the cycles of its old ramp only. Kept values are chosen by
//   reader count within a cell budget.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <gaus/core/types.hpp>

#include "neighbour_lists.hpp"

namespace gaus::heuristic::detail {

// P(start <= t) for a start uniform in [lo, hi].
inline double frameCdf(Cycle lo, Cycle hi, Cycle t) {
  if (t < lo) return 0.0;
  if (t >= hi) return 1.0;
  return static_cast<double>(t - lo + 1) / static_cast<double>(hi - lo + 1);
}

class ReaderProducts {
 public:
  // Values with at least `minKeptReaders` readers are kept, most readers first, while their
  // lifetimes fit in `maxKeptCells` cycles in all (16 bytes each).
  static constexpr std::size_t kDefaultMinKeptReaders = 8;
  static constexpr std::int64_t kDefaultMaxKeptCells = std::int64_t{1} << 22;  // 64 MiB

  explicit ReaderProducts(const NeighbourLists& successors,
                          std::size_t minKeptReaders = kDefaultMinKeptReaders,
                          std::int64_t maxKeptCells = kDefaultMaxKeptCells);

  // Starts over with these frames.
  void reset(const std::vector<Cycle>& asap, const std::vector<Cycle>& alap);

  // out[i] = prod over the readers r of `value` other than `excluded` (kNoOp: none) of
  // F_r(from + i), for i in [0, to - from].
  void fill(OpId value, OpId excluded, Cycle from, Cycle to, const std::vector<Cycle>& asap,
            const std::vector<Cycle>& alap, double* out) const;

  // A reader's frame narrowed from [oldLo, oldHi] to [newLo, newHi]: the kept products of
  // `producers`, the values it reads, follow.
  void reframe(std::span<const Neighbour> producers, Cycle oldLo, Cycle oldHi, Cycle newLo,
               Cycle newHi);

  bool kept(OpId value) const { return slot_[value] >= 0; }
  std::int64_t keptCells() const { return static_cast<std::int64_t>(product_.size()); }

  static constexpr OpId kNoOp = -1;

 private:
  void sweep(OpId value, OpId excluded, Cycle from, Cycle to, const std::vector<Cycle>& asap,
             const std::vector<Cycle>& alap, double* out) const;

  const NeighbourLists& successors_;
  std::size_t minKeptReaders_;
  std::int64_t maxKeptCells_;
  // Per value: its index among the kept ones, or -1; per kept value its first cycle and its
  // cells' offset in the arrays below (cycles first .. first + count - 1).
  std::vector<std::int32_t> slot_;
  std::vector<Cycle> first_;
  std::vector<std::int64_t> offset_;
  std::vector<std::int32_t> notStarted_;  // readers with F_r(t) = 0
  std::vector<std::int32_t> ramping_;     // readers with 0 < F_r(t) < 1
  std::vector<double> product_;           // prod of those F_r(t); 1 where none ramps
};

}  // namespace gaus::heuristic::detail
