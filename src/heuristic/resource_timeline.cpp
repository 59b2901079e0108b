#include "resource_timeline.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

namespace gaus::heuristic::detail {

ResourceTimeline::ResourceTimeline(const Machine& machine, std::int64_t maxCells)
    : machine_(machine), maxCells_(maxCells) {
  const auto resources = static_cast<std::size_t>(machine.numResources());
  capacity_.resize(resources);
  for (ResourceId r = 0; r < machine.numResources(); ++r) capacity_[r] = machine.capacityOrMax(r);
  usage_.resize(resources);
  notFull_.resize(resources);
}

Cycle ResourceTimeline::firstNotFull(ResourceId resource, Cycle cycle) {
  auto& parent = notFull_[resource];
  const auto size = static_cast<Cycle>(parent.size());
  Cycle root = cycle;
  while (root < size && parent[static_cast<std::size_t>(root)] != root) {
    root = parent[static_cast<std::size_t>(root)];
  }
  // Path compression: every cycle on the way now points straight at the root.
  while (cycle < size && parent[static_cast<std::size_t>(cycle)] != cycle) {
    const Cycle next = parent[static_cast<std::size_t>(cycle)];
    parent[static_cast<std::size_t>(cycle)] = static_cast<std::int32_t>(root);
    cycle = next;
  }
  return root;
}

Cycle ResourceTimeline::earliestFit(std::span<const ReservationRun> runs, Cycle from) {
  // The table is empty past its end, so a start past every array always fits: the search ends.
  return *findEarliestFit(*this, runs, from, std::numeric_limits<Cycle>::max(), scratch_);
}

Status ResourceTimeline::grow(ResourceId resource, Cycle end) {
  auto& usage = usage_[resource];
  const auto size = static_cast<Cycle>(usage.size());
  if (end <= size) return Done{};
  const Cycle wanted = std::max(end, size + std::min<Cycle>(size, maxCells_ - cells_));
  if (cells_ + (wanted - size) > maxCells_) {
    return Error{fmt::format(
        "list scheduling: resource {} would be tracked up to cycle {}, beyond the {} cycles the "
        "resource table may hold over all resources (delays this long leave the table mostly "
        "empty; scale the delays down)",
        machine_.resources[resource].name, end, maxCells_)};
  }
  cells_ += wanted - size;
  usage.resize(static_cast<std::size_t>(wanted), 0);
  auto& parent = notFull_[resource];
  parent.resize(static_cast<std::size_t>(wanted));
  std::iota(parent.begin() + size, parent.end(), static_cast<std::int32_t>(size));
  return Done{};
}

Status ResourceTimeline::reserve(std::span<const ReservationRun> runs, Cycle start) {
  for (const auto& run : runs) {
    const Cycle first = start + run.offset;
    const Cycle end = first + run.length;
    if (auto grown = grow(run.resource, end); !grown) return grown;
    auto& usage = usage_[run.resource];
    auto& parent = notFull_[run.resource];
    const std::int64_t capacity = capacity_[run.resource];
    for (Cycle cycle = first; cycle < end; ++cycle) {
      const auto index = static_cast<std::size_t>(cycle);
      usage[index] += static_cast<std::int32_t>(run.units);
      if (usage[index] >= capacity) parent[index] = static_cast<std::int32_t>(cycle + 1);
    }
  }
  return Done{};
}

}  // namespace gaus::heuristic::detail
