#include <algorithm>

#include <gaus/heuristic/modulo_reservation_table.hpp>

#include "earliest_fit.hpp"

namespace gaus::heuristic {

ModuloReservationTable::ModuloReservationTable(const Machine& machine, std::int32_t ii)
    : ii_(std::max<std::int32_t>(ii, 1)), machine_(&machine) {
  const auto resources = static_cast<std::size_t>(machine.numResources());
  capacity_.resize(resources);
  row_.assign(resources, -1);
  std::int32_t rows = 0;
  for (ResourceId r = 0; r < machine.numResources(); ++r) {
    capacity_[r] = machine.capacityOrMax(r);
    if (machine.resources[r].limited()) row_[r] = rows++;
  }
  used_.assign(static_cast<std::size_t>(rows) * static_cast<std::size_t>(ii_), 0);
  blocksPerRow_ = (ii_ + kBlock - 1) / kBlock;
  blockMin_.assign(static_cast<std::size_t>(rows) * static_cast<std::size_t>(blocksPerRow_), 0);
  blockMax_ = blockMin_;
}

std::int64_t ModuloReservationTable::cellCount(const Machine& machine, std::int64_t ii) {
  std::int64_t rows = 0;
  for (const auto& resource : machine.resources) rows += resource.limited() ? 1 : 0;
  return rows * std::max<std::int64_t>(ii, 1);
}

std::int64_t ModuloReservationTable::used(ResourceId resource, std::int32_t residue) const {
  if (resource < 0 || resource >= static_cast<ResourceId>(row_.size()) || row_[resource] < 0) {
    return 0;
  }
  return used_[index(resource, residueOf(residue))];
}

std::span<const std::int64_t> ModuloReservationTable::usage(ResourceId resource) const {
  if (resource < 0 || resource >= static_cast<ResourceId>(row_.size()) || row_[resource] < 0) {
    return {};
  }
  return {used_.data() + index(resource, 0), static_cast<std::size_t>(ii_)};
}

void ModuloReservationTable::addToResidues(ResourceId resource, std::int32_t first, Cycle length,
                                           std::int64_t amount) {
  const auto row = static_cast<std::size_t>(row_[resource]);
  const Cycle end = first + length;
  addToRange(row, first, static_cast<std::int32_t>(std::min<Cycle>(end, ii_)), amount);
  if (end > ii_) addToRange(row, 0, static_cast<std::int32_t>(end - ii_), amount);
}

void ModuloReservationTable::addToRange(std::size_t row, std::int32_t first, std::int32_t end,
                                        std::int64_t amount) {
  if (first >= end) return;
  std::int64_t* cells = used_.data() + row * static_cast<std::size_t>(ii_);
  for (std::int32_t residue = first; residue < end; ++residue) cells[residue] += amount;
  // Blocks wholly inside the range shift by `amount`; the (at most two) cut ones are recomputed.
  const std::int32_t firstBlock = first / kBlock;
  const std::int32_t lastBlock = (end - 1) / kBlock;
  const std::size_t blocks = row * static_cast<std::size_t>(blocksPerRow_);
  for (std::int32_t block = firstBlock; block <= lastBlock; ++block) {
    const std::int32_t blockBegin = block * kBlock;
    const std::int32_t blockEnd = std::min(blockBegin + kBlock, ii_);
    if (first <= blockBegin && end >= blockEnd) {
      blockMin_[blocks + static_cast<std::size_t>(block)] += amount;
      blockMax_[blocks + static_cast<std::size_t>(block)] += amount;
    } else {
      recomputeBlock(row, block);
    }
  }
}

void ModuloReservationTable::recomputeBlock(std::size_t row, std::int32_t block) {
  const std::int64_t* cells = used_.data() + row * static_cast<std::size_t>(ii_);
  const std::int32_t blockBegin = block * kBlock;
  const std::int32_t blockEnd = std::min(blockBegin + kBlock, ii_);
  const auto [least, most] = std::minmax_element(cells + blockBegin, cells + blockEnd);
  const std::size_t at =
      row * static_cast<std::size_t>(blocksPerRow_) + static_cast<std::size_t>(block);
  blockMin_[at] = *least;
  blockMax_[at] = *most;
}

Cycle ModuloReservationTable::firstMisfit(const ReservationRun& run, Cycle begin, Cycle end) const {
  const std::int64_t room = capacity_[run.resource] - run.units;
  const auto row = static_cast<std::size_t>(row_[run.resource]);
  const std::int64_t* cells = used_.data() + row * static_cast<std::size_t>(ii_);
  const std::int64_t* maxes = blockMax_.data() + row * static_cast<std::size_t>(blocksPerRow_);
  Cycle cycle = begin;
  std::int32_t residue = residueOf(cycle);
  while (cycle < end) {
    // A block whose fullest residue still has room is skipped whole when the range covers it.
    if (residue % kBlock == 0 && maxes[residue / kBlock] <= room) {
      const std::int32_t skip = std::min(kBlock, ii_ - residue);
      if (end - cycle >= skip) {
        cycle += skip;
        residue = residue + skip == ii_ ? 0 : residue + skip;
        continue;
      }
    }
    if (cells[residue] > room) return cycle;
    ++cycle;
    residue = residue + 1 == ii_ ? 0 : residue + 1;
  }
  return end;
}

Cycle ModuloReservationTable::nextCandidate(const ReservationRun& run, Cycle cycle) const {
  const std::int64_t room = capacity_[run.resource] - run.units;  // usage that still fits
  const auto row = static_cast<std::size_t>(row_[run.resource]);
  const std::int64_t* cells = used_.data() + row * static_cast<std::size_t>(ii_);
  const std::int64_t* mins = blockMin_.data() + row * static_cast<std::size_t>(blocksPerRow_);
  Cycle next = cycle + 1;
  std::int32_t residue = residueOf(next);
  for (Cycle scanned = 0; scanned < ii_;) {
    if (residue % kBlock == 0 && mins[residue / kBlock] > room) {
      const std::int32_t skip = std::min(kBlock, ii_ - residue);
      next += skip;
      scanned += skip;
      residue = residue + skip == ii_ ? 0 : residue + skip;
      continue;
    }
    if (cells[residue] <= room) return next;
    ++next;
    ++scanned;
    residue = residue + 1 == ii_ ? 0 : residue + 1;
  }
  return kNoRoom;
}

void ModuloReservationTable::apply(std::span<const ReservationBlock> blocks, Cycle start,
                                   std::int64_t sign) {
  for (const auto& block : blocks) {
    if (block.length <= 0 || block.units <= 0 || block.resource < 0 ||
        block.resource >= static_cast<ResourceId>(row_.size()) || row_[block.resource] < 0) {
      continue;
    }
    const Cycle wraps = block.length / ii_;
    const Cycle rest = block.length % ii_;
    if (wraps > 0) addToResidues(block.resource, 0, ii_, sign * block.units * wraps);
    if (rest > 0) {
      addToResidues(block.resource, residueOf(start + block.begin), rest, sign * block.units);
    }
  }
}

void ModuloReservationTable::apply(std::span<const ReservationRun> runs, Cycle start,
                                   std::int64_t sign) {
  for (const auto& run : runs) {
    addToResidues(run.resource, residueOf(start + run.offset), run.length, sign * run.units);
  }
}

void ModuloReservationTable::reserve(std::span<const ReservationBlock> blocks, Cycle start) {
  apply(blocks, start, 1);
}

void ModuloReservationTable::release(std::span<const ReservationBlock> blocks, Cycle start) {
  apply(blocks, start, -1);
}

void ModuloReservationTable::reserve(std::span<const ReservationRun> runs, Cycle start) {
  apply(runs, start, 1);
}

void ModuloReservationTable::release(std::span<const ReservationRun> runs, Cycle start) {
  apply(runs, start, -1);
}

bool ModuloReservationTable::fits(std::span<const ReservationRun> runs, Cycle start) const {
  for (const auto& run : runs) {
    const Cycle first = start + run.offset;
    if (firstMisfit(run, first, first + run.length) != first + run.length) return false;
  }
  return true;
}

bool ModuloReservationTable::fits(std::span<const ReservationBlock> blocks, Cycle start) const {
  ReservationRunBuilder builder(*machine_, ii_);
  builder.addOp(blocks);
  return fits(builder.runsOf(0), start);
}

std::optional<Cycle> ModuloReservationTable::earliestFit(std::span<const ReservationRun> runs,
                                                         Cycle from, Cycle last) const {
  std::vector<detail::RunScan> scratch;
  return detail::findEarliestFit(*this, runs, from, last, scratch);
}

}  // namespace gaus::heuristic
