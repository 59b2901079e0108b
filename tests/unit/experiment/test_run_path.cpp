// The run path does each step once: a call looks its method up once (MethodRegistry::lookups),
// applies the settings once and parses the options once (counted by wrapping each method's
// parseOptions), for the command line's shape (prepareInstanceRun, then runPrepared: `gaus
// schedule`, `gaus twill`), Python's (runMethodOnInstance) and a run of `gaus run`
// (executeRun). The counts are exact: one call, one lookup and one parse; a second anywhere on
// the path fails them.
#include <atomic>
#include <memory>
#include <optional>

#include <catch2/catch.hpp>

#include <gaus/core/analysis.hpp>
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
    method.parseOptions = [parse = method.parseOptions, parses = counting->parses](
                              const MethodOptions& given, const Settings& settings) {
      ++*parses;
      return parse(given, settings);
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

namespace {

// The analyses of one graph, counted through core's observer (ProblemFacts computes each once
// for every layer of a call; a layer that works one out again adds to the count).
struct AnalysisCount {
  const Graph* graph = nullptr;
  int orders = 0;
  int resMiis = 0;
  int recMiis = 0;
};
AnalysisCount analysisCount;

void countAnalysis(Analysis analysis, const Graph& graph) {
  if (&graph != analysisCount.graph) return;
  switch (analysis) {
    case Analysis::kTopologicalOrder:
      ++analysisCount.orders;
      break;
    case Analysis::kResMii:
      ++analysisCount.resMiis;
      break;
    case Analysis::kRecMii:
      ++analysisCount.recMiis;
      break;
  }
}

// One call in the command line's shape (`gaus schedule`, `gaus twill`), with the analyses of
// the instance's graph counted from before the problem is posed to the verified result.
AnalysisCount countedRun(const Instance& instance, InstanceRunRequest request) {
  analysisCount = AnalysisCount{instance.graph.get()};
  observeAnalyses(&countAnalysis);
  const auto prepared = prepareInstanceRun(methodCatalog(), instance, request);
  std::optional<InstanceRun> run;
  if (prepared) run = runPrepared(*prepared);
  observeAnalyses(nullptr);
  INFO((prepared ? run->result.message : prepared.error()));
  REQUIRE(prepared.ok());
  CHECK(run->result.verified());
  return analysisCount;
}

}  // namespace

TEST_CASE("run path: one call computes the topological order and the MII once",
          "[experiment][run_path]") {
  // ilp on a latency problem: the input check, the list start, the model's windows, the
  // verifier and the metrics all read the posed problem's one order.
  // The same for list scheduling and GauS (its setup, start, legalization and verifier).
  for (const char* method : {"ilp", "list", "gaus"}) {
    INFO(method);
    InstanceRunRequest latency;
    latency.method = {method, {{"time_limit", "20"}}, {}};
    if (std::string_view(method) == "gaus") {
      latency.method.options.emplace("max_steps", "20");
      latency.method.options.emplace("threads", "1");
    }
    latency.kind = "latency";
    CHECK(countedRun(test::toyFlashAttention(), latency).orders == 1);
  }
  // twill on a loop: the input check, the II search's bounds, the SMT model's windows and the
  // explanation read one MII (ResMII and RecMII once each) and one order.
  InstanceRunRequest twill;
  twill.method = {"twill", {{"time_limit", "20"}}, {}};
  const AnalysisCount modulo = countedRun(test::toyFlashAttention(), twill);
  CHECK(modulo.orders == 1);
  CHECK(modulo.resMiis == 1);
  CHECK(modulo.recMiis == 1);
}

TEST_CASE("run path: a peak-memory call computes the topological order once",
          "[experiment][run_path]") {
  // Formulation B on an input beside a chain at D = 5: the input check, the start, B's bound
  // (min cut and Lagrangian), the improvement's neighbourhoods and the verifier read the posed
  // problem's one order, for each method that minimizes peak memory.
  for (const char* method : {"ilp", "gaus", "fds"}) {
    INFO(method);
    InstanceRunRequest request;
    request.method = {method, {{"time_limit", "20"}}, {}};
    if (std::string_view(method) == "gaus") {
      request.method.options.emplace("max_steps", "20");
      request.method.options.emplace("threads", "1");
    }
    request.horizon = 5;
    request.objective = "peak_memory";
    Instance instance;
    instance.name = "input";
    instance.graph = std::make_shared<const Graph>(test::inputBesideChain(2.0));
    instance.machine = std::make_shared<const Machine>();
    CHECK(countedRun(instance, request).orders == 1);
  }
}

TEST_CASE("run path: --objective peak_memory without --horizon is refused before the method loads",
          "[experiment][run_path]") {
  // Every problem peak_memory fits needs a horizon D: the request is refused before the method
  // is looked up (so no engine plugin loads), and the message names --horizon.
  const auto counting = countingRegistry();
  InstanceRunRequest request;
  request.method = {"list", {}, {}};
  request.objective = "peak_memory";
  const std::size_t lookupsBefore = counting->registry.lookups();
  const auto refused = prepareInstanceRun(counting->registry, test::toyFlashAttention(), request);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.error(),
             Catch::Contains("--objective peak_memory") && Catch::Contains("give --horizon D"));
  CHECK(counting->registry.lookups() == lookupsBefore);
}
