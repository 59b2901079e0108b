// The budget of one GauS run: its deadline (time limit and cancellation) and its step budget,
// with the time spent optimizing. The legalization worker reads it (to stop work when time is up)
// and the optimizer's rounds spend it (optimization_rounds.hpp): both depend on this type, and
// neither on the other.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>

#include <gaus/differentiable/gaus_options.hpp>
#include <gaus/core/deadline.hpp>
#include <gaus/methods/run_context.hpp>

namespace gaus::differentiable {

// Budget and figures shared by every attempt of one run.
class RunBudget {
 public:
  RunBudget(const GausOptions& options, const RunContext& context);

  // Time, step budget or cancellation: stop everything.
  bool exhausted() const;
  // Time or cancellation only: work that takes no Adam steps (legalizing and refining a
  // schedule) goes on under a step budget, so that max_steps=0 still refines the start.
  bool outOfTime() const;
  // A cancel request (part of outOfTime): not the time limit.
  bool cancelled() const;
  // The run's cancel flag (RunContext::cancel), for solvers that take one; may be null.
  const std::atomic<bool>* cancelFlag() const { return context_.cancel; }
  // A progress line of a phase outside the optimizer's (RunContext::report).
  void report(std::string_view line) const { context_.report(line); }
  double elapsedSeconds() const { return deadline_.elapsedSeconds(); }
  // Seconds left of the run's time limit (infinite without one).
  double remainingSeconds() const { return deadline_.remainingSeconds(); }
  // The run's deadline, for a phase that takes its share of what is left (Deadline::share).
  const Deadline& deadline() const { return deadline_; }
  std::int64_t steps() const { return steps_; }
  void addSteps(std::int64_t steps) { steps_ += steps; }
  double optimizationSeconds = 0.0;  // inside Adam steps and multiplier updates

 private:
  const RunContext& context_;
  Deadline deadline_;
  std::optional<std::int64_t> maxSteps_;
  std::int64_t steps_ = 0;
};

}  // namespace gaus::differentiable
