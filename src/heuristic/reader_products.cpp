// The readers' products of the memory distribution graph (reader_products.hpp).

#include "reader_products.hpp"

#include <algorithm>
#include <limits>

namespace gaus::heuristic::detail {

ReaderProducts::ReaderProducts(const NeighbourLists& successors, std::size_t minKeptReaders,
                               std::int64_t maxKeptCells)
    : successors_(successors), minKeptReaders_(minKeptReaders), maxKeptCells_(maxKeptCells) {}

void ReaderProducts::reset(const std::vector<Cycle>& asap, const std::vector<Cycle>& alap) {
  const auto opCount = static_cast<OpId>(asap.size());
  slot_.assign(static_cast<std::size_t>(opCount), -1);
  first_.clear();
  offset_.assign(1, 0);
  // A value's readers have all started with certainty from the latest reader's ALAP on.
  const auto lastCycle = [&](OpId value) {
    Cycle last = std::numeric_limits<Cycle>::min();
    for (const Neighbour& reader : successors_.of(value)) last = std::max(last, alap[reader.op]);
    return last;
  };
  std::vector<OpId> candidates;
  for (OpId value = 0; value < opCount; ++value) {
    if (successors_.size(value) >= minKeptReaders_ && lastCycle(value) > asap[value]) {
      candidates.push_back(value);
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](OpId a, OpId b) { return successors_.size(a) > successors_.size(b); });
  std::int64_t cells = 0;
  for (OpId value : candidates) {
    const Cycle count = lastCycle(value) - asap[value];
    if (cells + count > maxKeptCells_) continue;
    slot_[value] = static_cast<std::int32_t>(first_.size());
    first_.push_back(asap[value]);
    cells += count;
    offset_.push_back(cells);
  }
  notStarted_.assign(static_cast<std::size_t>(cells), 0);
  ramping_.assign(static_cast<std::size_t>(cells), 0);
  product_.assign(static_cast<std::size_t>(cells), 1.0);
  for (OpId value = 0; value < opCount; ++value) {
    const std::int32_t slot = slot_[value];
    if (slot < 0) continue;
    const Cycle first = first_[static_cast<std::size_t>(slot)];
    const std::int64_t offset = offset_[static_cast<std::size_t>(slot)];
    const Cycle end = first + (offset_[static_cast<std::size_t>(slot) + 1] - offset);
    for (const Neighbour& reader : successors_.of(value)) {
      const Cycle lo = asap[reader.op];
      const Cycle hi = alap[reader.op];
      for (Cycle t = first; t < std::min(lo, end); ++t) ++notStarted_[offset + (t - first)];
      for (Cycle t = std::max(lo, first); t < std::min(hi, end); ++t) {
        const auto cell = static_cast<std::size_t>(offset + (t - first));
        ++ramping_[cell];
        product_[cell] *= frameCdf(lo, hi, t);
      }
    }
  }
}

void ReaderProducts::fill(OpId value, OpId excluded, Cycle from, Cycle to,
                          const std::vector<Cycle>& asap, const std::vector<Cycle>& alap,
                          double* out) const {
  const std::int32_t slot = slot_[value];
  if (slot < 0 || from < first_[static_cast<std::size_t>(slot)]) {
    sweep(value, excluded, from, to, asap, alap, out);
    return;
  }
  const Cycle first = first_[static_cast<std::size_t>(slot)];
  const std::int64_t offset = offset_[static_cast<std::size_t>(slot)];
  const Cycle end = first + (offset_[static_cast<std::size_t>(slot) + 1] - offset);
  const Cycle lo = excluded == kNoOp ? 0 : asap[excluded];
  const Cycle hi = excluded == kNoOp ? 0 : alap[excluded];
  for (Cycle t = from; t <= to; ++t) {
    double& result = out[t - from];
    if (t >= end) {  // every reader started
      result = 1.0;
      continue;
    }
    const auto cell = static_cast<std::size_t>(offset + (t - first));
    std::int32_t notStarted = notStarted_[cell];
    std::int32_t ramping = ramping_[cell];
    double product = product_[cell];
    if (excluded != kNoOp) {
      if (t < lo) {
        --notStarted;
      } else if (t < hi) {
        --ramping;
        product /= frameCdf(lo, hi, t);
      }
    }
    result = notStarted > 0 ? 0.0 : (ramping == 0 ? 1.0 : product);
  }
}

void ReaderProducts::reframe(std::span<const Neighbour> producers, Cycle oldLo, Cycle oldHi,
                             Cycle newLo, Cycle newHi) {
  for (const Neighbour& producer : producers) {
    const std::int32_t slot = slot_[producer.op];
    if (slot < 0) continue;
    const Cycle first = first_[static_cast<std::size_t>(slot)];
    const std::int64_t offset = offset_[static_cast<std::size_t>(slot)];
    const Cycle end = first + (offset_[static_cast<std::size_t>(slot) + 1] - offset);
    // Before oldLo the factor stays 0 and from oldHi on 1: only the old ramp changes.
    for (Cycle t = std::max(oldLo, first); t < std::min(oldHi, end); ++t) {
      const auto cell = static_cast<std::size_t>(offset + (t - first));
      product_[cell] = --ramping_[cell] == 0 ? 1.0 : product_[cell] / frameCdf(oldLo, oldHi, t);
      if (t < newLo) {
        ++notStarted_[cell];
      } else if (t < newHi) {
        ++ramping_[cell];
        product_[cell] *= frameCdf(newLo, newHi, t);
      }
    }
  }
}

void ReaderProducts::sweep(OpId value, OpId excluded, Cycle from, Cycle to,
                           const std::vector<Cycle>& asap, const std::vector<Cycle>& alap,
                           double* out) const {
  const auto readers = successors_.of(value);
  // Before the latest ASAP of the readers some factor is 0.
  Cycle latest = from;
  for (const Neighbour& reader : readers) {
    if (reader.op != excluded) latest = std::max(latest, asap[reader.op]);
  }
  const Cycle length = to - from + 1;
  const Cycle zeros = std::clamp<Cycle>(latest - from, 0, length);
  std::fill(out, out + zeros, 0.0);
  std::fill(out + zeros, out + length, 1.0);
  for (const Neighbour& reader : readers) {
    if (reader.op == excluded) continue;
    const Cycle lo = asap[reader.op];
    const Cycle hi = alap[reader.op];
    const auto width = static_cast<double>(hi - lo + 1);
    // frameCdf's ramp, written out so that the factors are the same bits.
    for (Cycle t = std::max(from + zeros, lo); t <= std::min(to, hi - 1); ++t) {
      out[t - from] *= static_cast<double>(t - lo + 1) / width;
    }
  }
}

}  // namespace gaus::heuristic::detail
