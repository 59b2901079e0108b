// Resource-constrained list scheduling over reservation tables (acyclic, one iteration).
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include <gaus/core/enum_names.hpp>
#include <gaus/core/expected.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus {
class MethodRegistry;
}

namespace gaus::heuristic {

// Heights and ALAP times include delays and durations. ALAP = critical path - height, so kAlap
// orders ops exactly as kHeight does; it is kept as the tie-break of a custom key (GauS).
enum class ListPriority {
  kHeight,      // longest path to a sink (larger first): the textbook default
  kAlap,        // smaller ALAP first
  kMobility,    // smaller ALAP - ASAP first
  kCustom,      // ListSchedulerOptions::customKey, smaller first (GauS legalization: round(mu))
  kSuccessors,  // more distance-0 successors first (a common tie-break: frees more ops)
};
inline constexpr auto kListPriorityNames = makeEnumNames<ListPriority>({
    {ListPriority::kHeight, "height"},
    {ListPriority::kAlap, "alap"},
    {ListPriority::kMobility, "mobility"},
    {ListPriority::kCustom, "custom"},
    {ListPriority::kSuccessors, "successors"},
});
inline std::string_view toString(ListPriority priority) {
  return kListPriorityNames.name(priority);
}

struct ListSchedulerOptions {
  ListPriority priority = ListPriority::kHeight;
  // Secondary rule among ops of equal primary priority; the op id breaks remaining ties.
  // Successors first measured best on the HeuriGym set (docs/benchmarks.md, "heuristic-tables"):
  // the method `list` and every list start (GauS, IMS's non-overlapped bound) use this default.
  ListPriority tieBreak = ListPriority::kSuccessors;
  // kCustom: one key per op, smaller goes first.
  std::vector<double> customKey;
  // Optional earliest start per op (an op never starts before it), e.g. GauS's "never before
  // round(mu)" option. Empty: no release times.
  std::vector<Cycle> releaseTime;
};

// Schedules every op at the earliest cycle >= its ready time (all distance-0 predecessors done:
// start + delay) where its whole reservation table fits, taking ready ops in priority order.
// Edges with distance > 0 are ignored (one iteration), and so is any horizon of the problem (the
// caller compares the latency with it). Fails only on invalid input (a resource an op needs
// more units of than exist, a distance-0 cycle, options of the wrong size), naming it, or on a
// schedule spanning more cycles than the resource table may hold (delays near 2^27 cycles on
// limited resources).
Expected<Schedule> listSchedule(const Problem& problem, const ListSchedulerOptions& options = {});

// The same list scheduling of one problem, many times with different options (GauS legalizes
// every candidate this way): what does not depend on the priority (the input's checks, the
// reservation runs, heights, successor counts) is computed once by prepare(), which reads the
// topological order and ASAP from the problem's facts (core/problem_facts.hpp), so each
// schedule() costs the ordering and the placement only. schedule() is const and keeps no state:
// threads may call it at once. The problem's graph and machine must outlive the scheduler.
class ListScheduler {
 public:
  static Expected<ListScheduler> prepare(const Problem& problem);
  Expected<Schedule> schedule(const ListSchedulerOptions& options = {}) const;

  ListScheduler(ListScheduler&&) noexcept;
  ListScheduler& operator=(ListScheduler&&) noexcept;
  ~ListScheduler();

 private:
  struct Prepared;
  explicit ListScheduler(std::unique_ptr<const Prepared> prepared);
  std::unique_ptr<const Prepared> prepared_;
};

}  // namespace gaus::heuristic
