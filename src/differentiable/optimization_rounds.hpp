// The outer loop at one horizon (and II), GAUS.md "Legalization": optimize (K Adam steps and a
// multiplier update) -> round -> legalize every batch row -> keep the best verified schedule;
// after `updatesPerRound` updates, restart mu from the best schedule (sigma reset) and go on,
// until a success (when the attempt has a success test), a target, the budget, or `patience`
// rounds in a row without improvement.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <vector>

#include <gaus/core/registry.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/differentiable/gaus_options.hpp>

#include "formulation.hpp"
#include "initialization.hpp"
#include "progress_trace.hpp"
#include "tensor_support.hpp"

namespace gaus::differentiable {

struct Candidate {
  Schedule schedule;
  double objective = 0.0;  // smaller is better
};

// Budget and figures shared by every attempt of one run.
class RunState {
 public:
  RunState(const GausOptions& options, const RunContext& context);

  // Time, step budget or cancellation: stop everything.
  bool exhausted() const;
  double elapsedSeconds() const { return deadline_.elapsedSeconds(); }
  std::int64_t steps() const { return steps_; }
  void addSteps(std::int64_t steps) { steps_ += steps; }
  // The first legal schedule found by optimization (not the start), for the figures.
  void noteLegal() {
    if (!firstLegalSeconds_) firstLegalSeconds_ = elapsedSeconds();
  }
  std::optional<double> firstLegalSeconds() const { return firstLegalSeconds_; }
  std::int64_t legalizations = 0;
  double optimizationSeconds = 0.0;  // inside Adam steps and multiplier updates
  double legalizationSeconds = 0.0;  // legalizing candidates: list scheduling, verify, objective

 private:
  const RunContext& context_;
  Deadline deadline_;
  std::optional<std::int64_t> maxSteps_;
  std::int64_t steps_ = 0;
  std::optional<double> firstLegalSeconds_;
};

struct AttemptSpec {
  const FormulationModel* model = nullptr;
  StartingPoint start;
  // Odd batch rows start (and restart) here when set: a second kind of start for diversity.
  std::optional<StartingPoint> alternateStart;
  // Legalizes the means of one batch row; nullopt when they give no legal candidate.
  std::function<std::optional<Candidate>(const std::vector<double>& mu)> legalize;
  // Where a round restarts when a legal candidate is known.
  std::function<StartingPoint(const Candidate&)> restartFrom;
  // Candidates must be strictly better than this to count as an improvement.
  std::optional<double> objectiveToBeat;
  // When set, the first candidate passing it ends the attempt.
  std::function<bool(const Candidate&)> success;
  // Shown as "best" in progress lines until this attempt finds something better.
  std::optional<double> bestLegalSoFar;
};

struct AttemptOutcome {
  std::optional<Candidate> best;  // the best improving candidate, if any
  bool succeeded = false;
  std::int64_t rounds = 0;
  std::int64_t updates = 0;
};

AttemptOutcome runAttempt(const AttemptSpec& spec, const GausOptions& options,
                          const TensorSettings& settings, RunState& state, ProgressTrace& trace,
                          std::mt19937_64& random);

}  // namespace gaus::differentiable
