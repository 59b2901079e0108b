#include <algorithm>

#include <fmt/format.h>

#include <gaus/heuristic/reservation_runs.hpp>

namespace gaus::heuristic {

ReservationRunBuilder::ReservationRunBuilder(const Machine& machine, std::optional<std::int32_t> ii)
    : machine_(machine), ii_(ii) {}

namespace {

bool counts(const ReservationBlock& block, const Machine& machine) {
  return block.length > 0 && block.units > 0 && block.resource >= 0 &&
         block.resource < machine.numResources() && machine.resources[block.resource].limited();
}

}  // namespace

void ReservationRunBuilder::addOp(std::span<const ReservationBlock> blocks) {
  // Most ops hold each resource through one block; only when two blocks share a resource do
  // their units have to be summed by a sweep.
  bool sharesResource = false;
  for (std::size_t i = 0; i < blocks.size() && !sharesResource; ++i) {
    if (!counts(blocks[i], machine_)) continue;
    for (std::size_t j = i + 1; j < blocks.size(); ++j) {
      if (counts(blocks[j], machine_) && blocks[j].resource == blocks[i].resource) {
        sharesResource = true;
        break;
      }
    }
  }
  if (!sharesResource) {
    for (const auto& block : blocks) {
      if (!counts(block, machine_)) continue;
      if (ii_) {
        addFoldedBlock(block);
      } else {
        runs_.push_back({block.resource, block.begin, block.length, block.units});
      }
    }
  } else {
    events_.clear();
    for (const auto& block : blocks) {
      if (!counts(block, machine_)) continue;
      if (!ii_) {
        events_.push_back({block.resource, block.begin, block.units});
        events_.push_back({block.resource, Cycle{block.begin} + block.length, -block.units});
        continue;
      }
      const Cycle ii = *ii_;
      const Cycle wraps = block.length / ii;
      const Cycle rest = block.length % ii;
      if (wraps > 0) {
        events_.push_back({block.resource, 0, block.units * wraps});
        events_.push_back({block.resource, ii, -block.units * wraps});
      }
      if (rest > 0) {
        const Cycle first = block.begin % ii;
        const Cycle end = first + rest;
        events_.push_back({block.resource, first, block.units});
        events_.push_back({block.resource, std::min(end, ii), -block.units});
        if (end > ii) {
          events_.push_back({block.resource, 0, block.units});
          events_.push_back({block.resource, end - ii, -block.units});
        }
      }
    }
    sweepEvents();
  }
  offsets_.push_back(static_cast<std::int64_t>(runs_.size()));
}

// A block folded modulo II: `wraps` full turns hold its units on every residue, the remaining
// `rest` cycles hold one more unit-set from its first residue on.
void ReservationRunBuilder::addFoldedBlock(const ReservationBlock& block) {
  const Cycle ii = *ii_;
  const Cycle wraps = block.length / ii;
  const Cycle rest = block.length % ii;
  const Cycle first = block.begin % ii;
  if (wraps == 0) {
    runs_.push_back({block.resource, first, rest, block.units});
  } else if (rest == 0) {
    runs_.push_back({block.resource, 0, ii, block.units * wraps});
  } else {
    runs_.push_back({block.resource, first, rest, block.units * (wraps + 1)});
    runs_.push_back({block.resource, (first + rest) % ii, ii - rest, block.units * wraps});
  }
}

void ReservationRunBuilder::sweepEvents() {
  std::sort(events_.begin(), events_.end(), [](const Event& a, const Event& b) {
    return a.resource != b.resource ? a.resource < b.resource : a.cycle < b.cycle;
  });
  std::size_t i = 0;
  while (i < events_.size()) {
    const ResourceId resource = events_[i].resource;
    std::int64_t running = 0;
    const std::size_t firstRun = runs_.size();
    while (i < events_.size() && events_[i].resource == resource) {
      const Cycle cycle = events_[i].cycle;
      while (i < events_.size() && events_[i].resource == resource && events_[i].cycle == cycle) {
        running += events_[i++].delta;
      }
      if (running == 0 || i == events_.size() || events_[i].resource != resource) continue;
      const Cycle next = events_[i].cycle;
      if (runs_.size() > firstRun && runs_.back().units == running &&
          runs_.back().offset + runs_.back().length == cycle) {
        runs_.back().length += next - cycle;
      } else {
        runs_.push_back({resource, cycle, next - cycle, running});
      }
    }
  }
}

void ReservationRunBuilder::addGraph(const Graph& graph) {
  runs_.reserve(runs_.size() + static_cast<std::size_t>(graph.numOps()));
  offsets_.reserve(offsets_.size() + static_cast<std::size_t>(graph.numOps()));
  for (OpId op = 0; op < graph.numOps(); ++op) addOp(graph.reservation(op));
}

std::optional<std::string> describeOverfullRun(std::span<const ReservationRun> runs,
                                               const Machine& machine, const std::string& opName,
                                               std::optional<std::int32_t> ii) {
  for (const auto& run : runs) {
    const std::int64_t capacity = machine.capacityOrMax(run.resource);
    if (run.units <= capacity) continue;
    const std::string& resource = machine.resources[run.resource].name;
    if (ii) {
      return fmt::format(
          "op {} alone needs {} units of resource {} at residue {} of II={} (its reservation "
          "wraps onto itself), capacity {}",
          opName, run.units, resource, run.offset, *ii, capacity);
    }
    return fmt::format(
        "op {} needs {} units of resource {} at cycle offset {}, but its capacity is {}: no "
        "schedule exists; raise the capacity of {} (or split the op's overlapping blocks)",
        opName, run.units, resource, run.offset, capacity, resource);
  }
  return std::nullopt;
}

}  // namespace gaus::heuristic
