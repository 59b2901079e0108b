#include <catch2/catch.hpp>

#include <gaus/core/registry.hpp>

#include "toy_graphs.hpp"

using namespace gaus;

TEST_CASE("option reader parses typed values and reports typos", "[core][options]") {
  const MethodOptions options{{"steps", "12"}, {"lr", "0.5"}, {"fast", "yes"}, {"lrr", "1"}};
  OptionReader reader("demo", options);
  CHECK(reader.getInt("steps", 3) == 12);
  CHECK(reader.getDouble("lr", 0.1) == 0.5);
  CHECK(reader.getBool("fast", false));
  CHECK(reader.getInt("absent", 7) == 7);
  const std::string problems = reader.finish();
  CHECK_THAT(problems, Catch::Contains("unknown option 'lrr'") && Catch::Contains("lr"));
  // The echo lists every option with the value used, defaults included.
  CHECK(reader.used().size() == 4);

  const MethodOptions bad{{"steps", "x12"}};
  OptionReader badReader("demo", bad);
  badReader.getInt("steps", 3);
  CHECK_THAT(badReader.finish(), Catch::Contains("'steps' expects an integer, got 'x12'"));
}

TEST_CASE("registry verifies what a method returns", "[core][registry]") {
  MethodRegistry registry;
  // A method that returns a fixed schedule: legal for the toy at II 2, illegal at II 1.
  registry.add({"fixed",
                "returns S:0 P:2 O:3",
                {ProblemKind::kModulo},
                {},
                [](const Problem& problem, const MethodOptions&, const RunContext&) {
                  Result result;
                  result.status = SolveStatus::kFeasible;
                  Schedule schedule;
                  schedule.start = {0, 2, 3};
                  schedule.ii = problem.ii.value_or(2);
                  result.schedule = schedule;
                  return result;
                }});
  const auto toy = test::toyFlashAttention();
  const Result good = registry.run("fixed", toy.problem(ProblemKind::kModulo, std::nullopt, 2), {});
  CHECK(good.status == SolveStatus::kFeasible);
  CHECK(good.verified());
  const Result bad = registry.run("fixed", toy.problem(ProblemKind::kModulo, std::nullopt, 1), {});
  CHECK(bad.status == SolveStatus::kError);
  CHECK_FALSE(bad.verified());
  CHECK_THAT(bad.message, Catch::Contains("fails verification"));

  const Result unknown = registry.run("nope", toy.problem(ProblemKind::kModulo), {});
  CHECK_THAT(unknown.message, Catch::Contains("unknown method 'nope'") && Catch::Contains("fixed"));
  const Result wrongKind = registry.run("fixed", toy.problem(ProblemKind::kLatency), {});
  CHECK_THAT(wrongKind.message, Catch::Contains("does not solve latency problems"));
}
