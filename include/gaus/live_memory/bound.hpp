// How every method reports formulation B's lower bound on the peak live memory, in one place
// (docs/exact.md, "Bounds"): the arguments of cut_bound.hpp and lagrangian_bound.hpp within the
// method's share of its time.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <gaus/core/deadline.hpp>
#include <gaus/core/expected.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/problem_facts.hpp>
#include <gaus/core/result.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus::live_memory {

// The time a method gives the bound, from now: a tenth of its own limit, at least a quarter
// second; kBoundSeconds without a limit (a method that has none, like list, is fast, and the cut
// search on a 100k-op graph settles most cycles well within it).
inline constexpr double kBoundSeconds = 3.0;
Deadline boundDeadline(std::optional<double> methodTimeLimit);

// The bound of problem.horizon by `deadline`: the per-cycle min cut (cut_bound.hpp), then the
// Lagrangian bound over windows of cycles (lagrangian_bound.hpp) in the time left, raised into
// result.bounds.lowerBound (the larger of it and a bound the method proved itself: a MILP's dual
// bound) with the argument that gave it in result.bounds.lowerBoundArgument, a note saying what
// it cost ("bound"), and the status optimal when result.objective meets it. `known`, and
// result.schedule when there is one, are schedules of the problem that tell the search where the
// bound cannot rise (and that it need not rise above their peak). Returns the bound (nullopt when
// the problem has no horizon, or it is shorter than the critical path).
std::optional<double> reportBound(const Problem& problem, Result& result, const Deadline& deadline,
                                  const std::atomic<bool>* cancel = nullptr,
                                  const Schedule* known = nullptr);

// The bound alone, as reportBound computes it: the value, the argument that gave it, and what
// each argument reached (for `gaus bound`, which spends its whole time on it).
struct PeakMemoryBound {
  double value = 0.0;
  std::string argument;              // "min cut at cycle 41", "Lagrangian over cycles 35-55", ...
  double cut = 0.0;                  // the per-cycle min cut's bound
  std::optional<double> lagrangian;  // the Lagrangian bound's, when it ran
  std::string note;                  // what each cost, in one line
  bool complete = true;  // both searches ran to their end (else the time share stopped them)
};
// `progress`, when given, is told one line after each window the Lagrangian search ends.
// `facts` as cutBound's.
Expected<PeakMemoryBound> peakMemoryBound(
    const ProblemFacts& facts, const Deadline& deadline, const std::atomic<bool>* cancel = nullptr,
    std::span<const Schedule* const> known = {},
    const std::function<void(std::string_view)>& progress = {});
Expected<PeakMemoryBound> peakMemoryBound(
    const Graph& graph, Cycle horizon, const Deadline& deadline,
    const std::atomic<bool>* cancel = nullptr, std::span<const Schedule* const> known = {},
    const std::function<void(std::string_view)>& progress = {});

}  // namespace gaus::live_memory
