// One SMT model built, loaded and torn down, each timed against its estimate
// (gaus/exact/twill_model_cost.hpp).

#include <chrono>

#include <gaus/exact/twill_model_cost.hpp>

#include "smt_model.hpp"

namespace gaus::exact {

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Expected<TwillModelCostSample> measureTwillModelCost(const Problem& problem, std::int32_t ii,
                                                     Cycle latency) {
  const detail::SmtModelSize size = detail::estimateSmtModelSize(problem, ii, latency, {});
  const detail::SmtModelCost estimate = size.cost();
  TwillModelCostSample sample;
  sample.literals = size.literals;
  sample.registerRowTermsSquared = size.registerRowTermsSquared;
  sample.estimatedBuild = estimate.build;
  sample.estimatedLoad = estimate.load;
  sample.estimatedTeardown = estimate.teardown;

  const auto buildStart = std::chrono::steady_clock::now();
  auto built =
      detail::TwillSmtModel::buildWithin(problem, ii, latency, {}, Deadline(std::nullopt), size);
  if (!built) return Error{built.error()};
  sample.buildSeconds = secondsSince(buildStart);

  detail::SmtQuery query;
  query.timeLimitSeconds = 0.001;
  const auto checkStart = std::chrono::steady_clock::now();
  sample.firstCheck = (*built)->check(query).status;
  sample.loadSeconds = secondsSince(checkStart);

  const auto teardownStart = std::chrono::steady_clock::now();
  built->reset();
  sample.teardownSeconds = secondsSince(teardownStart);
  return sample;
}

}  // namespace gaus::exact
