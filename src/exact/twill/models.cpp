// The SMT models of the Twill search within its limits (search.hpp: buildModel, searchQuery),
// and its attempt log. A model is refused before it is built when its estimated size, with the
// models the search holds, is above memory_limit, or when it cannot be built, loaded into Z3
// and torn down in the time left (docs/exact.md, "Time limits and model size"); every check
// leaves room for the teardown of the models held, which ends the call too.

#include <algorithm>

#include <fmt/format.h>

#include <gaus/core/memory_limit.hpp>

#include "search.hpp"

namespace gaus::exact::detail {

Attempt TwillAttempt::withBlocking() const {
  Attempt attempt = record;
  if (!blocking.empty()) {
    attempt.detail +=
        (attempt.detail.empty() ? "" : "; ") + std::string("blocked by ") + familyList(blocking);
  }
  return attempt;
}

void logAttempt(TwillSolution& solution, TwillAttempt attempt) {
  solution.result.attempts.push_back(attempt.withBlocking());
  solution.twill.blocking.push_back(std::move(attempt.blocking));
}

void record(TwillSolution& solution, TwillAttempt attempt, const TwillOptions& options) {
  if (options.progress) options.progress("twill: " + attempt.withBlocking().describe());
  logAttempt(solution, std::move(attempt));
}

TwillAttempt smtAttempt(std::string phase, std::int32_t ii, Cycle latency, const SmtAnswer& answer,
                        std::string detail) {
  TwillAttempt attempt;
  attempt.record.phase = std::move(phase);
  attempt.record.ii = ii;
  attempt.record.latency = latency;
  attempt.record.status = answer.status;
  attempt.record.seconds = answer.seconds;
  attempt.record.detail = std::move(detail);
  if (attempt.record.detail.empty()) attempt.record.detail = answer.reason;
  if (answer.notBuilt) {
    attempt.record.detail += (attempt.record.detail.empty() ? "" : "; ") +
                             std::string("model not built: the model ") + *answer.notBuilt;
  }
  attempt.blocking = answer.core;
  return attempt;
}

void noteSmtSchedule(const SearchSetup& setup, TwillSolution& solution) {
  if (!solution.twill.firstSmtScheduleSeconds) {
    solution.twill.firstSmtScheduleSeconds = setup.deadline.elapsedSeconds();
  }
}

std::vector<const TwillSmtModel*> heldModels(const std::optional<Found>& incumbent,
                                             const Found* found) {
  std::vector<const TwillSmtModel*> held;
  if (incumbent && incumbent->model) held.push_back(incumbent->model.get());
  if (found != nullptr && found->model) held.push_back(found->model.get());
  return held;
}

Deadline earlierBy(const Deadline& deadline, double reserve) {
  const auto left = deadline.remainingLimit();
  return Deadline(left ? std::optional<double>(std::max(0.0, *left - reserve)) : std::nullopt);
}

double teardownSeconds(const std::vector<const TwillSmtModel*>& held,
                       const TwillSmtModel* checked) {
  std::vector<const TwillSmtModel*> models = held;
  models.push_back(checked);
  std::sort(models.begin(), models.end());
  models.erase(std::unique(models.begin(), models.end()), models.end());
  double seconds = 0.0;
  for (const TwillSmtModel* model : models) {
    if (model != nullptr) seconds += model->estimatedSize().cost().teardown;
  }
  return seconds;
}

Deadline beforeTeardown(const SearchSetup& setup, const std::vector<const TwillSmtModel*>& held) {
  return earlierBy(setup.deadline, teardownSeconds(held));
}

BuiltModel buildModel(const SearchSetup& setup, std::int32_t ii, Cycle latency,
                      const std::vector<const TwillSmtModel*>& held, TwillSolution& solution) {
  const SmtModelSize size = estimateSmtModelSize(setup.work, ii, latency, setup.modelOptions);
  std::int64_t heldBytes = 0;
  for (const TwillSmtModel* model : held) heldBytes += model->estimatedSize().bytes();
  const std::string what = fmt::format(
      "the SMT model at II={}, L={} ({} Boolean variables, {} literals{})", ii, latency,
      size.booleans, size.literals,
      heldBytes > 0 ? fmt::format("; with {} of models the search holds", formatBytes(heldBytes))
                    : std::string());
  const TwillOptions& options = setup.options;
  std::optional<ModelRefusal> refusal;
  if (auto refused = refuseAboveMemoryLimit(
          what, size.bytes() + heldBytes, options.milp.call.memoryLimitBytes,
          setup.normalized ? "lower -O normalize_sum, which shrinks II and L in the units solved"
                           : "normalize the costs (-O normalize=on), which shrinks II and L in "
                             "the units solved",
          "ims or gaus with --kind modulo, which assigns no warps")) {
    refusal = ModelRefusal{std::move(refused).value(), false};
  } else {
    auto model = TwillSmtModel::buildWithin(setup.work, ii, latency, setup.modelOptions,
                                            beforeTeardown(setup, held), size);
    if (model) return BuiltModel{std::move(model).value(), std::nullopt};
    refusal =
        ModelRefusal{fmt::format("{} {} (time_limit {}s): raise time_limit", what, model.error(),
                                 options.search.timeLimitSeconds.value_or(0.0)),
                     true};
  }
  SmtAnswer notBuilt;
  notBuilt.status = refusal->forTime ? ModelStatus::kTimeout : ModelStatus::kUnknown;
  record(solution, smtAttempt("smt", ii, latency, notBuilt, "model not built: " + refusal->message),
         options);
  return BuiltModel{nullptr, std::move(refusal)};
}

SmtQuery searchQuery(const SearchSetup& setup, const TwillSmtModel& model,
                     const std::vector<const TwillSmtModel*>& held) {
  SmtQuery query;
  query.families = setup.options.smt.families;
  query.timeLimitSeconds =
      std::min(setup.options.smt.timeLimitSeconds,
               earlierBy(setup.deadline, teardownSeconds(held, &model)).remainingSeconds());
  return query;
}

}  // namespace gaus::exact::detail
