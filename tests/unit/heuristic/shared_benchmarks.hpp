// Running the heuristic methods on the shared benchmarks (../shared/benchmarks; the files of a
// folder come from test_support.hpp): reading, the lower bound on II, and IMS through the
// registry, which verifies the schedule.
#pragma once

#include <algorithm>
#include <filesystem>
#include <vector>

#include <catch2/catch.hpp>

#include <gaus/core/analysis.hpp>
#include <gaus/core/instance.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/heuristic/methods.hpp>
#include <gaus/methods/registry.hpp>

#include "kernel_files.hpp"
#include "test_support.hpp"

namespace gaus::test {

inline const MethodRegistry& heuristicRegistry() {
  static const MethodRegistry registry = [] {
    MethodRegistry methods;
    registerHeuristicMethods(methods);
    return methods;
  }();
  return registry;
}

// The 21 HeuriGym operator-scheduling instances (baseline.json, which holds the ILP baseline's
// latencies, left out; the reader puts them in each instance's reference), in path order.
inline std::vector<Instance> heurigymInstances() {
  std::vector<Instance> instances;
  for (const auto& file : sharedBenchmarkFiles("heurigym-operator-scheduling", ".json")) {
    if (file.filename() == "baseline.json") continue;
    auto read = loadInstances(file);
    REQUIRE(read.size() == 1);
    instances.push_back(std::move(read.front()));
  }
  return instances;
}

// The lower bound on II every modulo schedule obeys: max(ResMII, RecMII), from core's analyses
// (independent of the scheduler).
inline std::int64_t minimumIi(const Instance& instance) {
  const ResMii resMii = computeResMii(*instance.graph, *instance.machine);
  const RecMii recMii = computeRecMii(*instance.graph);
  REQUIRE_FALSE(resMii.infeasible);
  REQUIRE_FALSE(recMii.infeasible);
  return std::max(resMii.value, recMii.value);
}

// Runs ims through the registry and checks what every loop must satisfy: a verified schedule
// (run() verifies; verify() is called again here, independently of the registry), with
// II >= max(ResMII, RecMII). Returns the II.
inline std::int64_t scheduleLoopWithIms(const Instance& instance) {
  INFO(instance.name);
  const Problem problem = instance.problem(ProblemKind::kModulo);
  const Result result = heuristicRegistry().run("ims", problem, {});
  INFO(result.message);
  REQUIRE(result.status == ModelStatus::kFeasible);
  REQUIRE(result.schedule);
  REQUIRE(result.schedule->ii);
  CHECK(result.verified());
  const VerificationReport report = verify(problem, *result.schedule);
  INFO(report.summary());
  CHECK(report.ok());
  const std::int64_t ii = *result.schedule->ii;
  CHECK(ii >= minimumIi(instance));
  return ii;
}

}  // namespace gaus::test
