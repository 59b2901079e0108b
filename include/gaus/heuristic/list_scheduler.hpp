// Resource-constrained list scheduling over reservation tables (acyclic, one iteration).
#pragma once

#include <optional>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus {
class MethodRegistry;
}

namespace gaus::heuristic {

enum class ListPriority {
  kHeight,    // longest path to a sink (larger first): the textbook default
  kAlap,      // smaller ALAP first
  kMobility,  // smaller ALAP - ASAP first
  kCustom,    // ListSchedulerOptions::customKey, smaller first (GauS legalization: round(mu))
};

struct ListSchedulerOptions {
  ListPriority priority = ListPriority::kHeight;
  // Secondary rule among ops of equal primary priority; the op id breaks remaining ties.
  ListPriority tieBreak = ListPriority::kAlap;
  // kCustom: one key per op, smaller goes first.
  std::vector<double> customKey;
  // Optional earliest start per op (an op never starts before it), e.g. GauS's "never before
  // round(mu)" option. Empty: no release times.
  std::vector<Cycle> releaseTime;
};

// Schedules every op at the earliest cycle >= its ready time (all distance-0 predecessors done:
// start + delay) where its whole reservation table fits, taking ready ops in priority order.
// Edges with distance > 0 are ignored (one iteration). Fails only on invalid input (a resource
// an op needs more units of than exist, a distance-0 cycle), naming it.
Expected<Schedule> listSchedule(const Problem& problem, const ListSchedulerOptions& options = {});

}  // namespace gaus::heuristic
