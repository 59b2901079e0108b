// The helpers the formulations' searches share (search_support.hpp).
#include "search_support.hpp"

#include <algorithm>
#include <random>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/heuristic/iterative_modulo_scheduler.hpp>

#include "legalization.hpp"

namespace gaus::differentiable {

namespace {

// The means with Gaussian noise of `roundingNoise` steps. The noise is drawn from the run's seed
// and the means themselves (64 of them, spread over the ops), so that rows and offers differ and
// a synchronous run stays a function of its seed.
std::vector<double> perturbedMeans(const std::vector<double>& mu, const GausOptions& options) {
  std::uint64_t seed = options.seed;
  const std::size_t stride = std::max<std::size_t>(mu.size() / 64, 1);
  for (std::size_t i = 0; i < mu.size(); i += stride) {
    seed = seed * 0x100000001b3ULL ^ std::hash<double>{}(mu[i]);
  }
  std::mt19937_64 random(seed);
  std::normal_distribution<double> noise(0.0, options.roundingNoise);
  std::vector<double> perturbed(mu);
  for (double& value : perturbed) value += noise(random);
  return perturbed;
}

}  // namespace

bool useReleaseTimes(const RunSetup& setup) {
  if (setup.options.releaseTimes == "on") return true;
  if (setup.options.releaseTimes == "off") return false;
  return setup.part->boundedHorizon;
}

SearchStrategy searchStrategy(const RunSetup& setup, double gap) {
  if (setup.options.horizonSearch == "linear") return SearchStrategy::kLinear;
  if (setup.options.horizonSearch == "bisect") return SearchStrategy::kBisect;
  return gap > 32 ? SearchStrategy::kBisect : SearchStrategy::kLinear;
}

bool verified(const Problem& problem, const Schedule& schedule) {
  VerifyOptions options;
  options.maxMessages = 0;
  options.metrics = false;
  return verify(problem, schedule, options).ok();
}

std::vector<Cycle> alapAt(const RunSetup& setup, Cycle horizon) {
  auto alap = alapTimes(setup.graph, setup.order, horizon);
  return alap ? std::move(alap).value() : setup.asap;
}

Attempt startAttempt(ModelStatus status, std::optional<double> latency, std::string detail) {
  Attempt attempt;
  attempt.phase = "start";
  attempt.status = status;
  if (latency) attempt.latency = static_cast<std::int64_t>(*latency);
  attempt.detail = std::move(detail);
  return attempt;
}

Attempt horizonAttempt(const AttemptOutcome& outcome, Cycle horizon, double seconds) {
  Attempt attempt;
  attempt.phase = "horizon";
  attempt.horizon = horizon;
  attempt.status = outcome.succeeded ? ModelStatus::kFeasible : ModelStatus::kUnknown;
  attempt.seconds = seconds;
  attempt.detail =
      fmt::format("{} after {} updates", outcome.succeeded ? "legal" : "no legal schedule within D",
                  outcome.updates);
  return attempt;
}

std::optional<Schedule> startSchedule(const RunSetup& setup, std::vector<Attempt>& attempts) {
  if (setup.givenSchedule != nullptr) {
    if (verified(setup.problem, *setup.givenSchedule)) return *setup.givenSchedule;
    attempts.push_back(startAttempt(ModelStatus::kUnknown, std::nullopt,
                                    "the given schedule does not verify: used as mu only"));
  }
  if (setup.problem.isModulo()) {
    heuristic::ImsOptions ims;
    ims.ii = setup.problem.ii;
    Result imsResult = heuristic::iterativeModuloSchedule(setup.problem, ims);
    if (imsResult.schedule && verified(setup.problem, *imsResult.schedule)) {
      return std::move(imsResult.schedule);
    }
    attempts.push_back(startAttempt(
        ModelStatus::kUnknown, std::nullopt,
        fmt::format("iterative modulo scheduling gave no legal start ({})", imsResult.message)));
    return std::nullopt;
  }
  auto list = setup.listScheduler->schedule();
  if (list && verified(setup.problem, *list)) return std::move(list).value();
  return std::nullopt;
}

double latencyOf(const RunSetup& setup, const Schedule& schedule) {
  return static_cast<double>(scheduleLatency(setup.graph, schedule.start));
}

double objectiveOf(const RunSetup& setup, const Schedule& schedule) {
  return setup.part->objective(setup, schedule);
}

std::optional<Candidate> scoredCandidate(const RunSetup& setup, const Problem& problem,
                                         Schedule schedule) {
  if (!verified(problem, schedule)) return std::nullopt;
  const double objective = objectiveOf(setup, schedule);
  return Candidate{std::move(schedule), objective, nullptr};
}

StartingPoint firstStartingPoint(const RunSetup& setup, const Schedule* start,
                                 const std::vector<Cycle>& alap) {
  Initialization init = setup.options.initialization;
  if (init == Initialization::kAuto) {
    init = setup.givenSchedule != nullptr ? Initialization::kGiven
           : setup.part->boundedHorizon   ? Initialization::kAsapAlap
                                          : Initialization::kList;
  }
  if (init == Initialization::kGiven && setup.givenSchedule != nullptr) {
    return scheduleStart(*setup.givenSchedule, setup.asap, alap, setup.options);
  }
  if (init == Initialization::kList && start != nullptr) {
    return scheduleStart(*start, setup.asap, alap, setup.options);
  }
  return midpointStart(setup.asap, alap, setup.options);
}

// The release times are round(mu_i) clamped into [ASAP_i, ALAP_i], so that where no resource is
// limited the list schedule is each op at max(its release, its producers' finish), which never
// passes D; a mean outside its window would otherwise push its successors past D, and the
// fallback without release times would throw away the means' shape.
std::optional<Candidate> legalizeAcyclicCandidate(
    const RunSetup& setup, const std::vector<double>& mu, std::optional<Cycle> horizon,
    const std::vector<Cycle>* alap, const StopRequest& stop, const Refinement* refine) {
  std::vector<Cycle> rounded =
      roundedStarts(setup.options.roundingNoise > 0.0 ? perturbedMeans(mu, setup.options) : mu);
  const std::vector<double> priority(rounded.begin(), rounded.end());
  const bool release = useReleaseTimes(setup);
  if (release && alap != nullptr) {
    for (std::size_t op = 0; op < rounded.size(); ++op) {
      rounded[op] = std::clamp(rounded[op], setup.asap[op], std::max(setup.asap[op], (*alap)[op]));
    }
  }
  auto schedule = legalizeAcyclic(*setup.listScheduler, priority, release ? &rounded : nullptr);
  if (!schedule) return std::nullopt;
  // With release times the schedule may overrun the horizon where plain priority would not.
  if (horizon && release && latencyOf(setup, *schedule) > static_cast<double>(*horizon)) {
    schedule = legalizeAcyclic(*setup.listScheduler, priority, nullptr);
    if (!schedule) return std::nullopt;
  }
  if (horizon && latencyOf(setup, *schedule) > static_cast<double>(*horizon)) return std::nullopt;
  // The refinement assumes a legal schedule, so a list schedule that is not one is dropped here
  // rather than refined; unrefined, scoredCandidate verifies it (once: at 10M ops a verification
  // is seconds).
  if (refine != nullptr && horizon) {
    if (!verified(setup.problem, *schedule)) return std::nullopt;
    return (*refine)(*schedule, stop);
  }
  return scoredCandidate(setup, setup.problem, std::move(schedule).value());
}

}  // namespace gaus::differentiable
