// The engine end to end through the method registry (which verifies every schedule it hands
// back): each formulation on random graphs, keep-best, determinism, options, progress and trace,
// and the modulo legalizer on the toy Flash-Attention loop.
#include <filesystem>
#include <fstream>

#include <gaus/core/analysis.hpp>
#include <gaus/core/random_graph.hpp>
#include <gaus/core/stage_objective.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/differentiable/gaus_figures.hpp>
#include <gaus/differentiable/gaus_scheduler.hpp>
#include <gaus/heuristic/balanced_stages.hpp>
#include <gaus/heuristic/iterative_modulo_scheduler.hpp>
#include <gaus/heuristic/list_scheduler.hpp>
#include <gaus/heuristic/stage_refinement.hpp>

#include "legalization.hpp"
#include "scheduler_fixtures.hpp"
#include "torch_catch.hpp"
#include "toy_graphs.hpp"

using namespace gaus;

namespace {

// Small budgets: a few hundred Adam steps per case keep the suite fast.
MethodOptions quickOptions() {
  return {{"batch", "2"},
          {"updates_per_round", "4"},
          {"patience", "2"},
          {"K", "25"},
          {"max_steps", "1500"},
          {"time_limit", "60"},
          {"progress_interval", "1000"}};
}

Instance randomInstance(std::uint64_t seed, std::int32_t backEdges = 0) {
  RandomGraphOptions options;
  options.ops = 40;
  options.averageDegree = 1.8;
  options.maxIdSpan = 10;
  options.opTypes = {{"ALU", 1, 2, 1, 2, 2.0}, {"MUL", 2, 3, 2, 1, 1.0}};
  options.backEdges = backEdges;
  options.maxDistance = 2;
  options.weightedFraction = 0.5;
  options.minWeight = 1.0;
  options.maxWeight = 5.0;
  options.commFraction = 0.4;
  options.seed = seed;
  auto generated = generateRandomGraph(options);
  REQUIRE(generated.ok());
  Instance instance = toInstance(std::move(generated).value());
  instance.name = "random";
  return instance;
}

Cycle criticalPathOf(const Graph& graph) {
  const auto order = topologicalOrder(graph);
  return criticalPathLength(graph, asapTimes(graph, *order));
}

Cycle latencyOf(const Instance& instance, const Schedule& schedule) {
  return computeMetrics(*instance.graph, *instance.machine, schedule).latency;
}

void requireVerified(const Result& result) {
  INFO(result.message);
  REQUIRE(result.schedule.has_value());
  REQUIRE(result.verified());
  CHECK((result.status == ModelStatus::kOptimal || result.status == ModelStatus::kFeasible ||
         result.status == ModelStatus::kTimeout));
}

}  // namespace

TEST_CASE("gaus L: verified, never worse than list scheduling, never below the lower bound",
          "[differentiable][scheduler]") {
  for (std::uint64_t seed : {1, 2, 3}) {
    INFO("seed " << seed);
    const Instance instance = randomInstance(seed);
    const Problem problem = instance.problem(ProblemKind::kLatency);
    const Result result =
        differentiable::fixture::gausRegistry().run("gaus", problem, quickOptions());
    requireVerified(result);
    // The start is list scheduling (height priority): GauS returns it or something shorter.
    const auto list = heuristic::listSchedule(problem);
    REQUIRE(list.ok());
    CHECK(*result.objective == static_cast<double>(latencyOf(instance, *result.schedule)));
    CHECK(*result.objective <= static_cast<double>(latencyOf(instance, *list)));
    REQUIRE(result.bounds.lowerBound.has_value());
    CHECK(*result.objective >= *result.bounds.lowerBound);
    CHECK(*result.bounds.lowerBound >= static_cast<double>(criticalPathOf(*instance.graph)));
    // List scheduling (34, 31, 23) is above the lower bound (30, 30, 22): the search runs.
    CHECK(result.stats.iterations > 0);
  }
}

TEST_CASE("gaus A and B at a horizon: verified, within the horizon, no worse than the start",
          "[differentiable][scheduler]") {
  for (const char* formulation : {"A", "B"}) {
    for (std::uint64_t seed : {4, 5}) {
      INFO("formulation " << formulation << ", seed " << seed);
      const Instance instance = randomInstance(seed);
      // Twice the list schedule's latency: the list schedule is a legal start.
      const Problem latencyProblem = instance.problem(ProblemKind::kLatency);
      const auto list = heuristic::listSchedule(latencyProblem);
      const Cycle horizon = 2 * latencyOf(instance, *list);
      const Problem problem = instance.problem(ProblemKind::kLatencyBounded, horizon);
      MethodOptions options = quickOptions();
      options["formulation"] = formulation;
      const Result result = differentiable::fixture::gausRegistry().run("gaus", problem, options);
      requireVerified(result);
      CHECK(latencyOf(instance, *result.schedule) <= horizon);
      const double startObjective =
          std::string(formulation) == "A"
              ? stageObjective(*instance.graph, *list, 0.01)
              : computeMetrics(*instance.graph, *instance.machine, *list).peakLiveMemory;
      CHECK(*result.objective <= startObjective);
    }
  }
}

TEST_CASE("gaus on a stage problem: verified, never above the refined greedy cut, GS scale",
          "[differentiable][scheduler]") {
  // The random graphs' weights (1-5 on half the ops) and comm flags as a stage problem of 4
  // stages, ratio 100. GauS's starts include the greedy cut, refined by the same deterministic
  // refinement, so its objective is at most that of the refined cut, and at least the bound
  // 100 x max(ceil(total / 4), largest weight) it reports.
  for (std::uint64_t seed : {4, 5}) {
    INFO("seed " << seed);
    const Instance instance = randomInstance(seed);
    const Problem problem = instance.problem(ProblemKind::kStages, 4);
    const Result result =
        differentiable::fixture::gausRegistry().run("gaus", problem, quickOptions());
    requireVerified(result);
    CHECK(result.objectiveName == "stage_cost");
    const auto cut = heuristic::greedyBalancedStages(*problem.graph, 4);
    REQUIRE(cut.ok());
    const auto refined = heuristic::refineStages(*problem.graph, 4, *cut);
    const double refinedObjective =
        gsScheduleObjective(stageFigures(*problem.graph, refined.schedule), 100);
    CHECK(*result.objective <= refinedObjective);
    CHECK(*result.bounds.lowerBound == 100 * peakStageWeightLowerBound(*problem.graph, 4));
    CHECK(*result.objective >= *result.bounds.lowerBound);
  }
}

TEST_CASE("gaus C: the min-II search verifies, between MinII and the start's II",
          "[differentiable][scheduler]") {
  // Iterative modulo scheduling reaches II 31 over MinII = ResMII = 30 on seed 1 (six back
  // edges) and II 27 over 26 on seed 7 (four): the search runs on both.
  for (const auto& [seed, backEdges] : {std::pair{1, 6}, std::pair{7, 4}}) {
    INFO("seed " << seed);
    const Instance instance = randomInstance(seed, backEdges);
    const Problem problem = instance.problem(ProblemKind::kModulo);
    const Result result =
        differentiable::fixture::gausRegistry().run("gaus", problem, quickOptions());
    requireVerified(result);
    const Result ims = heuristic::iterativeModuloSchedule(problem);
    REQUIRE(ims.schedule.has_value());
    const std::int64_t minIi =
        std::max<std::int64_t>({1, computeResMii(*instance.graph, *instance.machine).value,
                                computeRecMii(*instance.graph).value});
    CHECK(*result.schedule->ii >= minIi);
    CHECK(*result.schedule->ii <= *ims.schedule->ii);
    CHECK(*result.objective == *result.schedule->ii);
    CHECK(result.stats.iterations > 0);
  }
}

TEST_CASE("gaus C at a fixed II keeps that II and improves the secondary objective or keeps it",
          "[differentiable][scheduler]") {
  const Instance instance = randomInstance(8, 4);
  Problem problem = instance.problem(ProblemKind::kModulo);
  const Result ims = heuristic::iterativeModuloSchedule(problem);
  REQUIRE(ims.schedule.has_value());
  problem.ii = *ims.schedule->ii + 1;
  const Result result =
      differentiable::fixture::gausRegistry().run("gaus", problem, quickOptions());
  requireVerified(result);
  CHECK(*result.schedule->ii == *problem.ii);
}

TEST_CASE("gaus C on the toy Flash-Attention loop reaches II = MinII = 2, proven",
          "[differentiable][scheduler]") {
  // TWILL.md / toy_graphs.hpp: ResMII = 2 (two tensor-core ops, one unit), RecMII = 1.
  const Instance toy = test::toyFlashAttention();
  const Result result = differentiable::fixture::gausRegistry().run(
      "gaus", toy.problem(ProblemKind::kModulo), quickOptions());
  requireVerified(result);
  CHECK(*result.schedule->ii == 2);
  CHECK(result.status == ModelStatus::kOptimal);
  CHECK(result.bounds.iiProvenOptimal);
}

TEST_CASE("modulo legalization: the toy loop at II 2 verifies, and below ResMII it fails",
          "[differentiable][legalization]") {
  const Instance toy = test::toyFlashAttention();
  const Problem problem = toy.problem(ProblemKind::kModulo, std::nullopt, 2);
  // Priorities S, P, O in order: S at 0, P at 1 (EXP), O at 2 clashes with S on TC (residue 0)
  // and moves to 3; the loop-carried O -> O (delay 1, distance 1) holds at II 2.
  const auto schedule = differentiable::legalizeModulo(problem, 2, {0, 1, 2}, {0, 1, 2}, false);
  REQUIRE(schedule.has_value());
  CHECK(schedule->start == std::vector<Cycle>{0, 1, 3});
  CHECK(verify(problem, *schedule).ok());
  const Problem tooShort = toy.problem(ProblemKind::kModulo, std::nullopt, 1);
  CHECK_FALSE(differentiable::legalizeModulo(tooShort, 1, {0, 1, 2}, {0, 1, 2}, false));
}

TEST_CASE(
    "keep-best: the result is never worse than a given start, and with no steps it is the "
    "start",
    "[differentiable][scheduler]") {
  const Instance instance = randomInstance(9);
  const Problem problem = instance.problem(ProblemKind::kLatency);
  // A legal but poor start: ops one after another in topological order.
  const auto order = topologicalOrder(*instance.graph);
  Schedule serial;
  serial.start.assign(static_cast<std::size_t>(instance.graph->numOps()), 0);
  Cycle time = 0;
  for (OpId op : *order) {
    serial.start[op] = time;
    time += instance.graph->duration(op) + 3;
  }
  REQUIRE(verify(problem, serial).ok());
  const double serialLatency = static_cast<double>(latencyOf(instance, serial));
  RunContext context;
  context.initialSchedule = &serial;
  MethodOptions options = quickOptions();
  options["max_steps"] = "0";
  const Result unchanged =
      differentiable::fixture::gausRegistry().run("gaus", problem, options, context);
  requireVerified(unchanged);
  CHECK(*unchanged.objective == serialLatency);
  CHECK(unchanged.schedule->start == serial.start);

  const Result improved =
      differentiable::fixture::gausRegistry().run("gaus", problem, quickOptions(), context);
  requireVerified(improved);
  CHECK(*improved.objective < serialLatency);
}

TEST_CASE(
    "legalization modes: async, sync and rows side by side verify, never worse than the start",
    "[differentiable][scheduler]") {
  // Each formulation on two random graphs, with the worker beside the optimizer (async, the
  // default) and on its thread (sync). Whatever the timing, the answer is a verified schedule
  // no worse than the start the run reports as its first attempt (keep-best), and the figures
  // name what the legalization cost the optimizer.
  struct Case {
    const char* formulation;
    ProblemKind kind;
    std::int32_t backEdges;
  };
  for (const Case& c :
       {Case{"L", ProblemKind::kLatency, 0}, Case{"B", ProblemKind::kLatencyBounded, 0},
        Case{"A", ProblemKind::kLatencyBounded, 0}, Case{"C", ProblemKind::kModulo, 3}}) {
    // "rows": asynchronous, the two rows of each offer on two threads side by side.
    for (const std::string mode : {"async", "sync", "rows"}) {
      for (std::uint64_t seed : {6, 7}) {
        INFO(c.formulation << ", " << mode << ", seed " << seed);
        const Instance instance = randomInstance(seed, c.backEdges);
        const auto list = heuristic::listSchedule(instance.problem(ProblemKind::kLatency));
        REQUIRE(list.ok());
        const Problem problem = c.kind == ProblemKind::kLatencyBounded
                                    ? instance.problem(c.kind, 2 * latencyOf(instance, *list))
                                    : instance.problem(c.kind);
        MethodOptions options = quickOptions();
        options["formulation"] = c.formulation;
        options["legalization"] = mode == "sync" ? "sync" : "async";
        if (mode == "rows") options["legalization_threads"] = "2";
        const Result result = differentiable::fixture::gausRegistry().run("gaus", problem, options);
        requireVerified(result);
        REQUIRE(!result.attempts.empty());
        const Attempt& start = result.attempts.front();
        REQUIRE(start.phase == "start");
        if (c.kind == ProblemKind::kLatency) {
          CHECK(*result.objective <= static_cast<double>(*start.latency));
        } else if (c.kind == ProblemKind::kModulo) {
          CHECK(*result.schedule->ii <= *start.ii);
        } else {
          const double startObjective =
              std::string(c.formulation) == "A"
                  ? stageObjective(*instance.graph, *list, 0.01)
                  : computeMetrics(*instance.graph, *instance.machine, *list).peakLiveMemory;
          CHECK(*result.objective <= startObjective);
        }
        for (const Figure& figure : {differentiable::figures::kOptimizerWaitSeconds,
                                     differentiable::figures::kLegalizedCandidates,
                                     differentiable::figures::kLegalizationSeconds}) {
          INFO(figure.name);
          CHECK(result.figures.get(figure).value_or(-1.0) >= 0.0);
        }
      }
    }
  }
}

TEST_CASE("determinism: the same seed gives the same schedule on the CPU",
          "[differentiable][scheduler]") {
  // Synchronous legalization: a run is then a function of its seed (asynchronously, which
  // means the worker takes depends on timing).
  const Instance instance = randomInstance(10);
  MethodOptions options = quickOptions();
  options["legalization"] = "sync";
  options["seed"] = "17";
  options["formulation"] = "B";
  const Cycle horizon = criticalPathOf(*instance.graph) + 6;
  const Problem problem = instance.problem(ProblemKind::kLatencyBounded, horizon);
  const Result first = differentiable::fixture::gausRegistry().run("gaus", problem, options);
  const Result second = differentiable::fixture::gausRegistry().run("gaus", problem, options);
  requireVerified(first);
  requireVerified(second);
  CHECK(first.schedule->start == second.schedule->start);
  CHECK(first.stats.iterations == second.stats.iterations);

  // With rounding noise the candidates differ from round(mu), and the noise is drawn from the
  // seed and the means: still a function of the seed, still verified, and no worse than the
  // list start (keep-best).
  // The horizon holds the list start (twice its latency), so that the start is that schedule.
  const auto list = heuristic::listSchedule(instance.problem(ProblemKind::kLatency));
  REQUIRE(list.ok());
  const Problem roomy =
      instance.problem(ProblemKind::kLatencyBounded, 2 * latencyOf(instance, *list));
  options["rounding_noise"] = "2";
  const Result noisy = differentiable::fixture::gausRegistry().run("gaus", roomy, options);
  const Result noisyAgain = differentiable::fixture::gausRegistry().run("gaus", roomy, options);
  requireVerified(noisy);
  requireVerified(noisyAgain);
  CHECK(noisy.schedule->start == noisyAgain.schedule->start);
  CHECK(*noisy.objective <=
        computeMetrics(*instance.graph, *instance.machine, *list).peakLiveMemory);
}

TEST_CASE("options: typos and bad values are named, and the result echoes every option",
          "[differentiable][options]") {
  const Instance instance = randomInstance(11);
  const Problem problem = instance.problem(ProblemKind::kLatency);
  const Result typo =
      differentiable::fixture::gausRegistry().run("gaus", problem, {{"lrr", "0.1"}});
  CHECK(typo.failed());
  CHECK_THAT(typo.message, Catch::Contains("unknown option 'lrr'"));
  const Result bad = differentiable::fixture::gausRegistry().run(
      "gaus", problem, {{"eta", "2"}, {"formulation", "Q"}});
  CHECK(bad.failed());
  CHECK_THAT(bad.message, Catch::Contains("'eta' = 2 must be in (0, 1]") &&
                              Catch::Contains("'formulation' expects auto, A, B, C or L, got 'Q'"));
  const Result wrongKind =
      differentiable::fixture::gausRegistry().run("gaus", problem, {{"formulation", "B"}});
  CHECK_THAT(wrongKind.message, Catch::Contains("formulation B does not fit a latency problem"));

  MethodOptions options = quickOptions();
  options["max_steps"] = "0";
  const Result result = differentiable::fixture::gausRegistry().run("gaus", problem, options);
  std::set<std::string> echoed;
  for (const auto& [name, value] : result.options) echoed.insert(name);
  for (const auto& doc : differentiable::gausOptionTable().docs()) {
    INFO(doc.name);
    CHECK(echoed.count(doc.name) == 1);
  }
  // What auto resolved to is a note beside the echo (L: the latency search of GAUS.md).
  CHECK(std::find(result.notes.begin(), result.notes.end(),
                  std::pair<std::string, std::string>{"formulation used", "L"}) !=
        result.notes.end());
}

TEST_CASE("progress lines and a CSV or JSON-lines trace record every multiplier update",
          "[differentiable][scheduler]") {
  const Instance instance = randomInstance(12);
  for (const char* extension : {".csv", ".jsonl"}) {
    INFO(extension);
    const auto trace =
        std::filesystem::temp_directory_path() / (std::string("gaus_trace_test") + extension);
    MethodOptions options = quickOptions();
    options["trace"] = trace.string();
    options["progress_interval"] = "0";
    options["max_steps"] = "200";  // 8 updates of K = 25 steps
    // Synchronous: a success seen between two steps would end an update early.
    options["legalization"] = "sync";
    std::vector<std::string> lines;
    RunContext context;
    context.progress = [&lines](std::string_view line) { lines.emplace_back(line); };
    const Result result = differentiable::fixture::gausRegistry().run(
        "gaus", instance.problem(ProblemKind::kLatency), options, context);
    requireVerified(result);
    REQUIRE(lines.size() == 8);
    CHECK_THAT(lines.front(), Catch::StartsWith("gaus: step 25 D=") &&
                                  Catch::Contains("violation") && Catch::Contains("elapsed"));
    std::ifstream in(trace);
    std::vector<std::string> records;
    for (std::string record; std::getline(in, record);) records.push_back(record);
    if (std::string(extension) == ".csv") {
      REQUIRE(records.size() == 9);
      CHECK(records.front() == "step,horizon,ii,objective,violation,rho,best,elapsed");
      CHECK_THAT(records[1], Catch::StartsWith("25,"));
    } else {
      REQUIRE(records.size() == 8);
      CHECK_THAT(records.front(), Catch::StartsWith("{\"step\": 25, \"horizon\": ") &&
                                      Catch::Contains("\"ii\": null") &&
                                      Catch::Contains("\"best\": "));
    }
    std::filesystem::remove(trace);
  }
}

TEST_CASE("the LibTorch kernels give a verified schedule too", "[differentiable][scheduler]") {
  const Instance instance = randomInstance(5);
  MethodOptions options = quickOptions();
  options["kernels"] = "torch";
  options["dtype"] = "float64";
  const Result result = differentiable::fixture::gausRegistry().run(
      "gaus", instance.problem(ProblemKind::kLatency), options);
  requireVerified(result);
  CHECK(result.stats.iterations > 0);  // list scheduling (26) is above the lower bound (22)
}

TEST_CASE("device cuda runs on a visible GPU, and without one fails with one line naming the CPU",
          "[differentiable][options]") {
  const Instance instance = randomInstance(6);
  MethodOptions options = quickOptions();
  options["device"] = "cuda";
  const Result result = differentiable::fixture::gausRegistry().run(
      "gaus", instance.problem(ProblemKind::kLatency), options);
  if (torch::cuda::is_available()) {
    // A CUDA LibTorch on a machine with a GPU: the LibTorch kernels run there (auto -> torch).
    requireVerified(result);
    CHECK(std::find(result.notes.begin(), result.notes.end(),
                    std::pair<std::string, std::string>{"device used", "cuda"}) !=
          result.notes.end());
    return;
  }
  // Debian's CPU-only LibTorch, or a CUDA one with no GPU visible (as on the CI machines): the
  // call fails before any tensor is made, with the remedy in the one line.
  CHECK(result.failed());
  CHECK_FALSE(result.schedule.has_value());
  CHECK_THAT(result.message, Catch::StartsWith("method gaus: device cuda: no CUDA device is "
                                               "visible to LibTorch " TORCH_VERSION) &&
                                 Catch::Contains("run on the CPU with --device cpu"));
  CHECK(result.message.find('\n') == std::string::npos);
}

TEST_CASE("memory_limit: tensors estimated above it are refused before any is made",
          "[differentiable][options]") {
  // chainOfFour at horizon 9 (A): 4 ops, 3 edges, 1 resource; W = min(D = 9, 2 ceil(4 x 8) + 1)
  // = 9; batch 2 (quickOptions); float32. The estimate is 4 copies x 2 rows x 4 bytes x
  // ((4 + 3) x 9 + 1 x 9) = 2304 bytes (gaus_scheduler.cpp, tensorFootprint): a limit of
  // 2303 refuses the run, 2304 lets it run. A refusal is a
  // failed call with the estimate, the limit and what to change, as the exact engine's.
  const Instance instance = test::chainOfFour();
  const Problem problem = instance.problem(ProblemKind::kLatencyBounded, 9);
  MethodOptions options = quickOptions();
  options["memory_limit"] = "2303";
  const Result refused = differentiable::fixture::gausRegistry().run("gaus", problem, options);
  CHECK(refused.failed());
  CHECK_FALSE(refused.schedule.has_value());
  CHECK_THAT(refused.message,
             Catch::StartsWith("method gaus: the tensors of 4 ops and 3 edges (window W = 9, "
                               "horizon up to 9, batch 2, float32) would take about 2 kB") &&
                 Catch::Contains("above memory_limit=2303") && Catch::Contains("lower -O batch"));
  CHECK(refused.message.find('\n') == std::string::npos);

  options["memory_limit"] = "2304";
  requireVerified(differentiable::fixture::gausRegistry().run("gaus", problem, options));
}

TEST_CASE("B's incumbent: splices and exact windows, verified and reported",
          "[differentiable][scheduler]") {
  // An and-inverter-like graph (1,200 ops of latency 1 and mem 1 in 150 layers, unlimited
  // units) at D = the critical path, as the ablation's B rows, in synchronous mode (a function
  // of the seed). Against the refined start (max_steps=0, windows=false): the start with exact
  // windows, GauS with splices (windows off) and GauS with neither must verify and be no worse,
  // and each must report the figures of what it ran and only those.
  RandomGraphOptions generator;
  generator.ops = 1200;
  generator.averageDegree = 2.0;
  generator.layered = true;
  generator.layers = 150;
  generator.maxLayerSpan = 8;
  generator.opTypes = {{"AND", 1, 1, 1, std::nullopt, 1.0}};
  generator.weightedFraction = 1.0;
  generator.minWeight = 1.0;
  generator.maxWeight = 1.0;
  generator.seed = 3;
  auto generated = generateRandomGraph(generator);
  REQUIRE(generated.ok());
  const Instance instance = toInstance(std::move(generated).value());
  const Problem problem =
      instance.problem(ProblemKind::kLatencyBounded, criticalPathOf(*instance.graph));
  MethodOptions options = quickOptions();
  options["formulation"] = "B";
  options["legalization"] = "sync";
  options["batch"] = "1";
  options["max_steps"] = "0";
  options["windows"] = "false";
  const Result start = differentiable::fixture::gausRegistry().run("gaus", problem, options);
  options["windows"] = "true";
  const Result windows = differentiable::fixture::gausRegistry().run("gaus", problem, options);
  options["windows"] = "false";
  options["max_steps"] = "600";
  const Result spliced = differentiable::fixture::gausRegistry().run("gaus", problem, options);
  options["splice"] = "false";
  const Result plain = differentiable::fixture::gausRegistry().run("gaus", problem, options);
  for (const Result* result : {&start, &windows, &spliced, &plain}) requireVerified(*result);
  INFO("start " << *start.objective << ", windows " << *windows.objective << ", spliced "
                << *spliced.objective << ", plain " << *plain.objective);
  CHECK(*windows.objective <= *start.objective);
  CHECK(*spliced.objective <= *start.objective);
  CHECK(*plain.objective <= *start.objective);
  using namespace differentiable::figures;
  const auto figure = [](const Result& result, const Figure& which) {
    return result.figures.get(which);
  };
  // Windows: solved, and each kept window counted among the solves.
  REQUIRE(figure(windows, kWindowSolves).has_value());
  CHECK(*figure(windows, kWindowSolves) > 0);
  CHECK(*figure(windows, kWindowImprovements) <= *figure(windows, kWindowSolves));
  CHECK_FALSE(figure(start, kWindowSolves).has_value());
  // Splices: regions taken from the candidates of 600 steps (6 when written), and no more falls
  // than regions.
  REQUIRE(figure(spliced, kSplicedRegions).has_value());
  CHECK(*figure(spliced, kSplicedRegions) > 0);
  CHECK(*figure(spliced, kSpliceImprovements) <= *figure(spliced, kSplicedRegions));
  CHECK_FALSE(figure(spliced, kWindowSolves).has_value());
  CHECK_FALSE(figure(plain, kSplicedRegions).has_value());
  CHECK_FALSE(figure(plain, kWindowSolves).has_value());
}
