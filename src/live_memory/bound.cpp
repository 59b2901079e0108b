// Formulation B's bound as every method reports it (include/gaus/live_memory/bound.hpp).

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include <gaus/core/deadline.hpp>
#include <gaus/core/gap.hpp>
#include <gaus/live_memory/bound.hpp>
#include <gaus/live_memory/cut_bound.hpp>
#include <gaus/live_memory/lagrangian_bound.hpp>

namespace gaus::live_memory {

Deadline boundDeadline(std::optional<double> methodTimeLimit) {
  if (!methodTimeLimit) return Deadline(kBoundSeconds);
  return Deadline(std::max(0.25, 0.1 * *methodTimeLimit));
}

Expected<PeakMemoryBound> peakMemoryBound(const Graph& graph, Cycle horizon,
                                          const Deadline& deadline, const std::atomic<bool>* cancel,
                                          std::span<const Schedule* const> known,
                                          const std::function<void(std::string_view)>& progress) {
  return peakMemoryBound(*graphFacts(graph, horizon), deadline, cancel, known, progress);
}

Expected<PeakMemoryBound> peakMemoryBound(const ProblemFacts& facts, const Deadline& deadline,
                                          const std::atomic<bool>* cancel,
                                          std::span<const Schedule* const> known,
                                          const std::function<void(std::string_view)>& progress) {
  const Graph& graph = facts.graph();
  const auto start = std::chrono::steady_clock::now();
  const auto stop = [&] {
    return deadline.expired() || (cancel != nullptr && cancel->load(std::memory_order_relaxed));
  };
  auto cut = cutBound(facts, stop);
  if (!cut) return Error{cut.error()};
  PeakMemoryBound bound;
  bound.cut = cut->value;
  bound.value = cut->value;
  bound.argument = cut->peakCycle ? fmt::format("min cut at cycle {}", *cut->peakCycle)
                                  : std::string("mandatory lifetimes");
  bound.complete = cut->complete;
  bound.note = fmt::format(
      "min cut {} over {} cycles ({} settled by the ASAP/ALAP profiles; mandatory lifetimes {})",
      cut->value, cut->cyclesCut, cut->cyclesSkipped, cut->mandatory);
  if (!cut->complete) bound.note += ", stopped by its time share";
  if (cut->complete && !stop()) {
    LagrangianBoundOptions options;
    options.stop = stop;
    if (progress) {
      options.progress = [&](const LagrangianBound& so) {
        progress(fmt::format("bound: {} after {} windows, {} minimum cuts, {:.1f} s",
                             std::max(so.value, cut->value), so.windows, so.cuts,
                             deadline.elapsedSeconds()));
      };
    }
    double lowestPeak = std::numeric_limits<double>::infinity();
    for (const Schedule* schedule : known) {
      if (schedule == nullptr) continue;
      options.schedules.emplace_back(schedule->start);
      lowestPeak = std::min(lowestPeak, computeMetrics(graph, Machine{}, *schedule).peakLiveMemory);
    }
    if (lowestPeak < std::numeric_limits<double>::infinity()) options.stopAt = lowestPeak;
    const double began = deadline.elapsedSeconds();
    auto lagrangian = lagrangianBound(facts, cut->value, options);
    if (!lagrangian) return Error{lagrangian.error()};
    bound.lagrangian = lagrangian->value;
    bound.complete = lagrangian->complete;
    bound.note += fmt::format("; Lagrangian {} ({} windows, {} minimum cuts in {:.3f} s{})",
                              lagrangian->value, lagrangian->windows, lagrangian->cuts,
                              deadline.elapsedSeconds() - began,
                              lagrangian->complete ? "" : ", stopped by its time share");
    if (lagrangian->value > bound.value) {
      bound.value = lagrangian->value;
      bound.argument =
          fmt::format("Lagrangian over cycles {}-{}", lagrangian->first, lagrangian->last);
    }
  }
  bound.note = fmt::format("{} [{}] in {:.3f} s: {}", bound.value, bound.argument,
                           secondsSince(start), bound.note);
  return bound;
}

std::optional<double> reportBound(const Problem& problem, Result& result, const Deadline& deadline,
                                  const std::atomic<bool>* cancel, const Schedule* known) {
  if (!problem.horizon || problem.graph == nullptr) return std::nullopt;
  const Schedule* schedules[] = {known, result.schedule ? &*result.schedule : nullptr};
  auto bound = peakMemoryBound(*problem.facts(), deadline, cancel, schedules);
  if (!bound) return std::nullopt;
  if (!result.bounds.lowerBound || bound->value > *result.bounds.lowerBound) {
    result.bounds.lowerBound = bound->value;
    result.bounds.lowerBoundArgument = bound->argument;
  }
  result.notes.emplace_back("bound", bound->note);
  const double best = *result.bounds.lowerBound;
  if (result.objective && result.schedule && meetsBound(*result.objective, best) &&
      (result.status == ModelStatus::kFeasible || result.status == ModelStatus::kTimeout)) {
    result.status = ModelStatus::kOptimal;
  }
  return best;
}

}  // namespace gaus::live_memory
