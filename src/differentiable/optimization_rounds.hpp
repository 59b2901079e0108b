// The outer loop at one horizon (and II), GAUS.md "Legalization": optimize (K Adam steps and a
// multiplier update) -> round -> legalize every batch row -> keep the best verified schedule;
// after `updatesPerRound` updates, restart mu from the best schedule (sigma reset) and go on,
// until a success (when the attempt has a success test), a target, the budget, or `patience`
// rounds in a row without improvement. Rounding, legalization and keeping the best are the
// legalization worker's (legalization_worker.hpp): asynchronously the optimizer offers the means
// whenever the worker is free and keeps stepping; synchronously it legalizes them itself at each
// multiplier update.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <vector>

#include <gaus/core/schedule.hpp>
#include <gaus/differentiable/gaus_options.hpp>
#include <gaus/methods/registry.hpp>

#include "formulation.hpp"
#include "initialization.hpp"
#include "legalization_worker.hpp"
#include "progress_trace.hpp"
#include "run_budget.hpp"
#include "tensor_support.hpp"

namespace gaus::differentiable {

// One attempt's optimization. The attempt's rules (legalizer, objective to beat, success test)
// were given to the worker by LegalizationWorker::beginAttempt before; runAttempt ends the
// attempt (endAttempt) before it returns.
struct AttemptSpec {
  const FormulationModel* model = nullptr;
  StartingPoint start;
  // Odd batch rows start (and restart) here when set: a second kind of start for diversity.
  std::optional<StartingPoint> alternateStart;
  // Where a round restarts when a legal candidate is known.
  std::function<StartingPoint(const Candidate&)> restartFrom;
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
                          const TensorSettings& settings, RunBudget& budget,
                          LegalizationWorker& worker, ProgressTrace& trace,
                          std::mt19937_64& random);

}  // namespace gaus::differentiable
