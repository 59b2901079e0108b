#include "legalization.hpp"

#include <algorithm>
#include <cmath>

#include <gaus/heuristic/list_scheduler.hpp>
#include <gaus/heuristic/modulo_list_scheduler.hpp>

namespace gaus::differentiable {

std::vector<Cycle> roundedStarts(const std::vector<double>& mu) {
  std::vector<Cycle> rounded;
  rounded.reserve(mu.size());
  for (double value : mu) rounded.push_back(std::max<Cycle>(0, std::llround(value)));
  return rounded;
}

Expected<Schedule> legalizeAcyclic(const heuristic::ListScheduler& scheduler,
                                   const std::vector<double>& priority,
                                   const std::vector<Cycle>* releaseTime) {
  heuristic::ListSchedulerOptions options;
  options.priority = heuristic::ListPriority::kCustom;
  options.tieBreak = heuristic::ListPriority::kAlap;
  options.customKey = priority;
  if (releaseTime != nullptr) options.releaseTime = *releaseTime;
  return scheduler.schedule(options);
}

std::optional<Schedule> legalizeModulo(const Problem& problem, std::int32_t ii,
                                       const std::vector<Cycle>& key,
                                       const std::vector<Cycle>& alap, bool useReleaseTimes) {
  const Graph& graph = *problem.graph;
  heuristic::ModuloListOptions options;
  options.priorityKey.assign(key.begin(), key.end());
  options.tieBreakKey.assign(alap.begin(), alap.end());
  if (useReleaseTimes) options.releaseTime = key;
  auto schedule = heuristic::moduloListSchedule(graph, *problem.machine, ii, options);
  if (!schedule) return std::nullopt;
  if (problem.horizon && scheduleLatency(graph, schedule->start) > *problem.horizon) {
    return std::nullopt;
  }
  return std::move(schedule).value();
}

}  // namespace gaus::differentiable
