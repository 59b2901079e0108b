// Method ilp on latency-bounded problems with the objective peak_memory (exact/peak_memory_milp):
// a hand-computed instance, the refusals of objectives, and ctrl of the EPFL circuits.
#include <catch2/catch.hpp>

#include <gaus/exact/methods.hpp>
#include <gaus/methods/registry.hpp>

#include "kernel_files.hpp"
#include "live_memory_reference.hpp"
#include "test_support.hpp"

using namespace gaus;

namespace {

// test::twoProducerPairs at horizon D, asked for peak memory.
Problem twoPairs(Cycle horizon) {
  Problem problem = test::boundedProblem(test::twoProducerPairs(), horizon);
  problem.objective = ProblemObjective::kPeakMemory;
  return problem;
}

MethodRegistry exactRegistry() {
  MethodRegistry registry;
  registerExactMethods(registry);
  return registry;
}

}  // namespace

TEST_CASE("ilp peak_memory: two producer-consumer pairs, by hand", "[exact][memory]") {
  const MethodRegistry registry = exactRegistry();
  // D = 2: both producers must start at 0 and both readers at 1, so both values are live at
  // cycle 0: the peak is 2, and the mandatory lifetimes already prove it.
  const Result tight =
      registry.run("ilp", twoPairs(2), {{"time_limit", test::timeLimitText(10.0)}});
  REQUIRE(tight.verified());
  CHECK(tight.objectiveName == "peak_memory");
  CHECK(*tight.objective == Approx(2.0));
  CHECK(tight.status == ModelStatus::kOptimal);
  // D = 4: one pair after the other (p1 0, q1 1, p2 2, q2 3) keeps one value live at a time,
  // and some value is live at cycle 0: the optimum is 1. The mandatory lifetimes give 0 (every
  // producer may start at 2 and every reader at 1), so the MILP (or the refined start meeting
  // its bound) proves it.
  const Result loose =
      registry.run("ilp", twoPairs(4), {{"time_limit", test::timeLimitText(10.0)}});
  REQUIRE(loose.verified());
  CHECK(*loose.objective == Approx(1.0));
  CHECK(loose.status == ModelStatus::kOptimal);
  REQUIRE(loose.bounds.lowerBound.has_value());
  CHECK(*loose.bounds.lowerBound == Approx(1.0));
}

TEST_CASE("objectives: a name that is none, one that does not fit the kind, one ilp lacks",
          "[exact][memory][objective]") {
  const auto unknown = parseProblemObjective("peak");
  REQUIRE_FALSE(unknown.ok());
  CHECK_THAT(unknown.error(), Catch::Contains("peak_memory"));
  CHECK(*parseProblemObjective("") == ProblemObjective::kMethodDefault);
  CHECK(*parseProblemObjective("stage_cost") == ProblemObjective::kStageCost);

  const MethodRegistry registry = exactRegistry();
  // peak_memory on a latency problem: the input check names both.
  Problem latency = twoPairs(4);
  latency.kind = ProblemKind::kLatency;
  latency.horizon.reset();
  const Result misfit = registry.run("ilp", latency, {});
  REQUIRE(misfit.failed());
  CHECK_THAT(misfit.message, Catch::Contains("peak_memory") && Catch::Contains("latency problem"));
  // stage_cost fits a latency-bounded problem, but ilp does not minimize it: the registry's one
  // objective check says what ilp minimizes there (a command adds the methods that do minimize
  // it, unsupportedObjectiveMessage, which loads every engine: tests/integration).
  Problem stages = twoPairs(4);
  stages.objective = ProblemObjective::kStageCost;
  const Result refused = registry.run("ilp", stages, {});
  REQUIRE(refused.failed());
  CHECK_THAT(refused.message, Catch::Contains("method ilp does not minimize stage_cost") &&
                                  Catch::Contains("it minimizes peak_memory there"));
}

TEST_CASE("ilp peak_memory: ctrl at D = 11 is 31, proven", "[exact][memory]") {
  // The EPFL circuit ctrl at the list schedule's latency: 31 was proven by HiGHS and CBC on the
  // same model written by hand (docs/exact.md), and GauS's best schedule has 31.
  const Instance instance =
      test::loadInstance(test::sharedPath("benchmarks/epfl-combinational/ctrl.aig"));
  Problem problem = instance.problem(ProblemKind::kLatencyBounded, 11);
  problem.objective = ProblemObjective::kPeakMemory;
  const Result result =
      exactRegistry().run("ilp", problem, {{"time_limit", test::timeLimitText(60.0)}});
  REQUIRE(result.verified());
  CHECK(*result.objective == Approx(31.0));
  CHECK(result.status == ModelStatus::kOptimal);
}
