// The run path does each step once: a call looks its method up once (MethodRegistry::lookups),
// applies the settings once and parses the options once (counted by wrapping each method's
// parseOptions), for the command line's shape (prepareInstanceRun, then runPrepared: `gaus
// schedule`, `gaus twill`), Python's (runMethodOnInstance) and a run of `gaus run`
// (executeRun). The counts are exact: one call, one lookup and one parse; a second anywhere on
// the path fails them.
#include <atomic>
#include <memory>

#include <catch2/catch.hpp>

#include <gaus/experiment/experiment_config.hpp>
#include <gaus/methods/method_catalog.hpp>
#include <gaus/methods/run_method.hpp>

#include "experiment_test_support.hpp"
#include "graph_survey.hpp"
#include "run_execution.hpp"
#include "run_plan.hpp"
#include "toy_graphs.hpp"

using namespace gaus;

namespace {

// The catalog's list and ims, each parsing its options through a counter.
struct CountingRegistry {
  MethodRegistry registry;
  std::shared_ptr<std::atomic<int>> parses = std::make_shared<std::atomic<int>>(0);
};

std::unique_ptr<CountingRegistry> countingRegistry() {
  auto counting = std::make_unique<CountingRegistry>();
  for (const char* name : {"list", "ims"}) {
    MethodInfo method = *methodCatalog().find(name);
    method.parseOptions = [parse = method.parseOptions,
                           parses = counting->parses](const MethodOptions& given) {
      ++*parses;
      return parse(given);
    };
    counting->registry.add(std::move(method));
  }
  return counting;
}

std::string echoed(const OptionValues& values, const std::string& name) {
  for (const auto& [option, value] : values) {
    if (option == name) return value;
  }
  return "(not echoed)";
}

}  // namespace

TEST_CASE("run path: a command's call looks the method up once and parses its options once",
          "[experiment][run_path]") {
  const auto counting = countingRegistry();
  const MethodRegistry& registry = counting->registry;
  const Instance toy = test::toyFlashAttention();  // a loop: ims poses a modulo problem
  InstanceRunRequest request;
  // max_ii is declared by ims; device is not (ignored, and said so); the deadline is the one
  // channel of the time limit.
  request.method = {"ims", {}, {{"max_ii", "8"}, {"device", "cpu"}}};
  request.deadline = Deadline(60.0);

  // The command line's shape: prepare (the notes are read from it), then run.
  const std::size_t lookupsBefore = registry.lookups();
  const auto prepared = prepareInstanceRun(registry, toy, request);
  REQUIRE(prepared.ok());
  CHECK(registry.lookups() == lookupsBefore + 1);
  CHECK(*counting->parses == 1);
  CHECK(prepared->call.ignoredSettings == std::vector<std::string>{"device"});
  CHECK(prepared->problem.kind == ProblemKind::kModulo);
  // What is left of the 60 s deadline reaches ims as its time_limit (a fraction of a second
  // went to preparing).
  REQUIRE(prepared->methodLimit);
  CHECK(*prepared->methodLimit > 50.0);
  CHECK(*prepared->methodLimit <= 60.0);
  const OptionValues before = prepared->call.echo();
  CHECK(echoed(before, "max_ii") == "8");

  const InstanceRun run = runPrepared(*prepared);
  CHECK(registry.lookups() == lookupsBefore + 1);
  CHECK(*counting->parses == 1);
  CHECK(run.result.verified());
  // The result echoes the options parsed before the run, the deadline's time_limit included.
  CHECK(run.result.options == before);
  CHECK(run.ignoredSettings == std::vector<std::string>{"device"});

  // Python's shape: one call of runMethodOnInstance, one more lookup and one more parse.
  const auto python = runMethodOnInstance(registry, toy, request);
  REQUIRE(python.ok());
  CHECK(python->result.verified());
  CHECK(registry.lookups() == lookupsBefore + 2);
  CHECK(*counting->parses == 2);
}

TEST_CASE("run path: a method's own time_limit beats the caller's deadline",
          "[experiment][run_path]") {
  const auto counting = countingRegistry();
  InstanceRunRequest request;
  request.method = {"ims", {{"time_limit", "5"}}, {}};
  request.deadline = Deadline(60.0);
  const auto prepared = prepareInstanceRun(counting->registry, test::toyFlashAttention(), request);
  REQUIRE(prepared.ok());
  // -O time_limit gives the method its own budget: the deadline does not reach it.
  CHECK_FALSE(prepared->methodLimit);
  CHECK(echoed(prepared->call.echo(), "time_limit") == "5");
  CHECK(prepared->call.ignoredSettings.empty());
}

TEST_CASE("run path: a run of gaus run looks its method up once and parses its options once",
          "[experiment][run_path]") {
  namespace fs = std::filesystem;
  const auto counting = countingRegistry();
  const MethodRegistry& registry = counting->registry;
  const fs::path folder = test::experimentScratch("run_path");
  const auto path = test::writeConfig(folder, R"(name: counted
graphs:
  - set: tiny
    generate: {ops: 12, degree: 2, seeds: [1]}
methods:
  - method: list
)");
  const auto config = experiment::readExperimentConfig(path, registry);
  INFO((config ? std::string() : config.error()));
  REQUIRE(config.ok());
  fs::create_directories(folder / "survey");
  auto graphs = experiment::surveyGraphs(*config, folder / "graphs", folder / "survey");
  INFO((graphs ? std::string() : graphs.error()));
  REQUIRE(graphs.ok());
  const auto plan = experiment::planRuns(*config, std::move(graphs).value(), registry, 1);
  REQUIRE(plan.ok());
  REQUIRE(plan->runs.size() == 1);
  fs::create_directories(folder / "run");
  const experiment::RunTask task{&*config, &*plan, 0, std::nullopt, {}, 1};

  // Reading and planning the config checked it (their own lookups); the run is counted alone.
  const std::size_t lookupsBefore = registry.lookups();
  counting->parses->store(0);
  const experiment::RunOutput output = experiment::executeRun(task, registry, folder / "run", {});
  CHECK(output.record.verified);
  CHECK(registry.lookups() == lookupsBefore + 1);
  CHECK(*counting->parses == 1);
}
