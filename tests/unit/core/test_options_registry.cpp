#include <algorithm>

#include <catch2/catch.hpp>

#include <gaus/methods/registry.hpp>

#include "toy_graphs.hpp"

using namespace gaus;

namespace {

enum class Mode { kFast, kExact };
constexpr auto kModeNames = makeEnumNames<Mode>({{Mode::kFast, "fast"}, {Mode::kExact, "exact"}});

struct DemoOptions {
  std::int64_t steps = 3;
  double rate = 0.1;
  bool verbose = false;
  std::optional<std::int32_t> limit;
  Mode mode = Mode::kFast;
  struct {
    std::string path = "out";
  } nested;
};

const OptionTable<DemoOptions>& demoTable() {
  static const OptionTable<DemoOptions> table = [] {
    OptionTable<DemoOptions> t("demo");
    t.add("steps", &DemoOptions::steps, "steps", NumericRange::atLeast(1))
        .add("rate", &DemoOptions::rate, "rate", NumericRange::aboveUpTo(0, 1))
        .add("verbose", &DemoOptions::verbose, "talk")
        .add("limit", &DemoOptions::limit, "cap", NumericRange::atLeast(1))
        .add("mode", &DemoOptions::mode, kModeNames, "how")
        .add(
            "path", [](DemoOptions& o) -> std::string& { return o.nested.path; }, "where")
        .require([](const DemoOptions& o) -> std::optional<std::string> {
          if (o.mode == Mode::kExact && o.steps > 10) return "mode exact allows at most 10 steps";
          return std::nullopt;
        });
    return t;
  }();
  return table;
}

}  // namespace

TEST_CASE("option table: defaults come from the struct, values parse by type", "[core][options]") {
  const auto parsed = demoTable().parse(
      {{"steps", "12"}, {"rate", "0.5"}, {"verbose", "yes"}, {"limit", "4"}, {"path", "x/y"}});
  REQUIRE(parsed.ok());
  CHECK(parsed->steps == 12);
  CHECK(parsed->rate == 0.5);
  CHECK(parsed->verbose);
  CHECK(parsed->limit == 4);
  CHECK(parsed->mode == Mode::kFast);  // the struct's default
  CHECK(parsed->nested.path == "x/y");
  // The echo lists every option in declaration order with the value used, defaults included;
  // an unset optional echoes as none, and none parses back to unset.
  const OptionValues defaults = demoTable().echo(DemoOptions{});
  CHECK(defaults == OptionValues{{"steps", "3"},
                                 {"rate", "0.1"},
                                 {"verbose", "false"},
                                 {"limit", "none"},
                                 {"mode", "fast"},
                                 {"path", "out"}});
  CHECK_FALSE(demoTable().parse({{"limit", "none"}})->limit.has_value());
  const auto docs = demoTable().docs();
  REQUIRE(docs.size() == 6);
  CHECK(docs[0].type == "integer");
  CHECK(docs[0].range.describe() == ">= 1");
  CHECK(docs[1].range.describe() == "in (0, 1]");
  CHECK(docs[3].type == "integer or none");
  CHECK(docs[4].choices == std::vector<std::string>{"fast", "exact"});
  CHECK(docs[4].defaultValue == "fast");
}

TEST_CASE("option table: every problem is named in one message", "[core][options]") {
  // A typo names the nearest known option; a dash spelling is a typo of the snake_case name.
  const auto typo = demoTable().parse({{"stpes", "1"}});
  REQUIRE_FALSE(typo.ok());
  CHECK_THAT(typo.error(), Catch::StartsWith("method demo: unknown option 'stpes' (did you mean "
                                             "'steps'?)") &&
                               Catch::Contains("known: steps, rate"));
  CHECK_THAT(demoTable().parse({{"ste-ps", "1"}}).error(), Catch::Contains("did you mean 'steps'"));
  CHECK_THAT(demoTable().parse({{"zzzzzz", "1"}}).error(), !Catch::Contains("did you mean"));

  const auto bad = demoTable().parse(
      {{"steps", "x12"}, {"rate", "2"}, {"verbose", "maybe"}, {"mode", "slow"}, {"limit", "0"}});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error(), Catch::Contains("option 'steps' expects an integer, got 'x12'") &&
                              Catch::Contains("option 'rate' = 2 must be in (0, 1]") &&
                              Catch::Contains("option 'verbose' expects true or false") &&
                              Catch::Contains("option 'mode' expects fast or exact, got 'slow'") &&
                              Catch::Contains("option 'limit' = 0 must be >= 1"));
  // 2^31 does not fit the int32 field.
  CHECK_THAT(demoTable().parse({{"limit", "2147483648"}}).error(), Catch::Contains("fits 32 bits"));
  // Rules across fields run once every field parsed.
  CHECK_THAT(demoTable().parse({{"mode", "exact"}, {"steps", "11"}}).error(),
             Catch::Contains("mode exact allows at most 10 steps"));
  CHECK(demoTable().parse({{"mode", "exact"}, {"steps", "10"}}).ok());
}

TEST_CASE(
    "registry: a method's own option beats a generic setting, which applies only where "
    "declared",
    "[core][registry]") {
  const MethodInfo method = makeMethod<DemoOptions>(
      "demo", "demo", {ProblemKind::kLatency}, demoTable(),
      [](const Problem&, const DemoOptions&, const RunContext&) { return Result{}; });
  const AppliedSettings applied = applySettings(
      method, {{"steps", "5"}},
      {{"steps", std::int64_t{7}}, {"rate", 0.2}, {"seed", std::int64_t{3}}});
  CHECK(applied.options == MethodOptions{{"steps", "5"}});
  CHECK(applied.settings == Settings{{"rate", 0.2}});
  CHECK(applied.ignored == std::vector<std::string>{"seed"});
  const auto resolved = method.resolveOptions(applied.options, applied.settings);
  REQUIRE(resolved.ok());
  CHECK(resolved->front() == std::pair<std::string, std::string>{"steps", "5"});
  CHECK(std::find(resolved->begin(), resolved->end(),
                  std::pair<std::string, std::string>{"rate", "0.2"}) != resolved->end());
}

TEST_CASE("registry: the kind of problem is inferred from the graph", "[core][registry]") {
  const auto toy = test::toyFlashAttention();  // O -> O is loop-carried
  const auto solves = [](std::vector<ProblemKind> kinds) {
    MethodInfo method;
    method.kinds = std::move(kinds);
    return method;
  };
  const MethodInfo all =
      solves({ProblemKind::kLatency, ProblemKind::kLatencyBounded, ProblemKind::kModulo});
  CHECK(inferProblemKind(*toy.graph, all, false, false) == ProblemKind::kModulo);
  CHECK(inferProblemKind(*toy.graph, solves({ProblemKind::kModuloWarp}), false, false) ==
        ProblemKind::kModuloWarp);
  // A method that solves no modulo kind still gets the loop's modulo problem, which the
  // registry refuses: the loop-carried edges are never dropped unasked.
  CHECK(inferProblemKind(*toy.graph, solves({ProblemKind::kLatency}), false, false) ==
        ProblemKind::kModulo);
  GraphBuilder builder("chain");
  const OpId a = builder.addOp("a", 1);
  const OpId b = builder.addOp("b", 1);
  builder.addEdge(a, b);
  const auto chain = test::makeInstance(std::move(builder), Machine{});
  CHECK(inferProblemKind(*chain.graph, all, false, false) == ProblemKind::kLatency);
  CHECK(inferProblemKind(*chain.graph, all, false, true) == ProblemKind::kLatencyBounded);
  CHECK(inferProblemKind(*chain.graph, all, true, false) == ProblemKind::kModulo);
}

TEST_CASE("registry verifies what a method returns", "[core][registry]") {
  MethodRegistry registry;
  // A method that returns a fixed schedule: legal for the toy at II 2, illegal at II 1.
  registry.add(
      makeMethod<DemoOptions>("fixed", "returns S:0 P:2 O:3", {ProblemKind::kModulo}, demoTable(),
                              [](const Problem& problem, const DemoOptions&, const RunContext&) {
                                Result result;
                                result.status = ModelStatus::kFeasible;
                                Schedule schedule;
                                schedule.start = {0, 2, 3};
                                schedule.ii = problem.ii.value_or(2);
                                result.schedule = schedule;
                                return result;
                              }));
  const auto toy = test::toyFlashAttention();
  const Result good = registry.run("fixed", toy.problem(ProblemKind::kModulo, std::nullopt, 2), {});
  CHECK(good.status == ModelStatus::kFeasible);
  CHECK(good.verified());
  CHECK(good.options == demoTable().echo(DemoOptions{}));
  const Result bad = registry.run("fixed", toy.problem(ProblemKind::kModulo, std::nullopt, 1), {});
  CHECK(bad.failed());
  CHECK_FALSE(bad.verified());
  CHECK_THAT(bad.message, Catch::Contains("fails verification"));

  const Result badOption =
      registry.run("fixed", toy.problem(ProblemKind::kModulo, std::nullopt, 2), {{"steps", "0"}});
  CHECK(badOption.failed());
  CHECK_THAT(badOption.message, Catch::Contains("'steps' = 0 must be >= 1"));

  const Result unknown = registry.run("nope", toy.problem(ProblemKind::kModulo), {});
  CHECK(unknown.message == "unknown method 'nope'; known: fixed");
  // A typo gets the nearest name, as every unknown name does (option_text::didYouMean).
  const Result typo = registry.run("fixd", toy.problem(ProblemKind::kModulo), {});
  CHECK(typo.message == "unknown method 'fixd' (did you mean 'fixed'?); known: fixed");
  const Result wrongKind = registry.run("fixed", toy.problem(ProblemKind::kLatency), {});
  CHECK(wrongKind.message == "method fixed does not solve latency problems (it solves modulo)");
  // A command that refuses before running also names the methods that solve the kind.
  CHECK(registry.unsupportedKindMessage("fixed", ProblemKind::kLatency) ==
        "method fixed does not solve latency problems (it solves modulo); no method of this "
        "build does");
}

TEST_CASE("registry: a schedule without II of a loop notes the loop-carried edges it ignores",
          "[core][registry]") {
  // The toy's O -> O (distance 1) is not held against a schedule of one iteration; the result
  // says so in its notes, from the verifier's count. S:0 P:1 O:2 meets the distance-0 edges.
  MethodRegistry registry;
  const auto oneIteration = [](const Problem&, const DemoOptions&, const RunContext&) {
    Result result;
    result.status = ModelStatus::kFeasible;
    result.schedule = Schedule{{0, 1, 2}, std::nullopt, std::nullopt};
    return result;
  };
  registry.add(makeMethod<DemoOptions>("chain", "one iteration", {ProblemKind::kLatency},
                                       demoTable(), oneIteration));
  registry.add(makeMethod<DemoOptions>("looped", "a modulo method", {ProblemKind::kModulo},
                                       demoTable(), oneIteration));
  const auto toy = test::toyFlashAttention();
  const Result result = registry.run("chain", toy.problem(ProblemKind::kLatency), {});
  REQUIRE(result.verified());
  CHECK(result.verification->uncheckedLoopCarriedEdges == 1);
  REQUIRE(result.notes.size() == 1);
  CHECK(result.notes.front().first == "loop-carried edges");
  CHECK_THAT(result.notes.front().second,
             Catch::StartsWith("1 ignored: a schedule without an II is one iteration"));
  // The refusal of a kind before a run names the methods that solve it.
  CHECK(registry.unsupportedKindMessage("chain", ProblemKind::kModulo) ==
        "method chain does not solve modulo problems (it solves latency); methods that do: "
        "looped");
}

TEST_CASE(
    "registry: an option the method declares as describing the machine sizes it before the check "
    "and the verification",
    "[core][registry]") {
  // One op that needs 4 warps, on a machine with 1: the modulo-warp check refuses it unless the
  // run's `warps` option (the --warps setting), which the method declares as describing the
  // machine (describeMachineWith), gives the machine 4 first. The method returns the op on
  // warps {0..3}, which verifies only against the 4-warp machine.
  struct WarpOptions {
    std::optional<std::int32_t> warps;
  };
  static const OptionTable<WarpOptions> table = [] {
    OptionTable<WarpOptions> t("warped");
    t.add("warps", &WarpOptions::warps, "warps", NumericRange::between(1, kMaxWarps));
    return t;
  }();
  MethodInfo warped =
      makeMethod<WarpOptions>("warped", "one op on four warps", {ProblemKind::kModuloWarp}, table,
                              [](const Problem& problem, const WarpOptions&, const RunContext&) {
                                Result result;
                                result.status = ModelStatus::kFeasible;
                                Schedule schedule;
                                schedule.start = {0};
                                schedule.ii = 1;
                                schedule.warps = std::vector<WarpSet>{0b1111};
                                result.schedule = schedule;
                                CHECK(problem.machine->warps == 4);
                                return result;
                              });
  describeMachineWith<WarpOptions>(warped, [](Machine& machine, const WarpOptions& options) {
    if (options.warps) machine.warps = *options.warps;
  });
  MethodRegistry registry;
  registry.add(std::move(warped));
  GraphBuilder builder("wide");
  builder.setMinWarps(builder.addOp("a", 1), 4);
  Machine oneWarp;
  oneWarp.name = "one_warp";
  const auto wide = test::makeInstance(std::move(builder), oneWarp);
  const Problem problem = wide.problem(ProblemKind::kModuloWarp);

  const Result refused = registry.run("warped", problem, {});
  CHECK_THAT(refused.message,
             Catch::Contains("op a needs min_warps=4, but machine 'one_warp' has 1 warps"));
  // A setting reaches the method typed, beside its own options (prepareMethodCall's path).
  const MethodInfo& method = *registry.find("warped");
  const AppliedSettings applied = applySettings(method, {}, {{"warps", std::int64_t{4}}});
  const auto parsed = method.parseOptions(applied.options, applied.settings);
  REQUIRE(parsed.ok());
  const Result asSetting =
      registry.runParsed(method, withMachineOptions(method, problem, *parsed), *parsed);
  CHECK(asSetting.verified());
  const Result asOption = registry.run("warped", problem, {{"warps", "4"}});
  CHECK(asOption.verified());
  const Result bad = registry.run("warped", problem, {{"warps", "0"}});
  CHECK_THAT(bad.message, Catch::Contains("'warps' = 0"));
}

TEST_CASE("attempt records print the one status model", "[core][result]") {
  Attempt attempt;
  attempt.phase = "smt";
  attempt.ii = 2;
  attempt.latency = 4;
  attempt.status = ModelStatus::kInfeasible;
  attempt.seconds = 0.25;
  CHECK(attempt.describe() == "II=2 L=4 smt infeasible 0.250s");
  attempt.call = CallStatus::kError;
  CHECK(attempt.statusText() == "error");
  CHECK(errorResult("x").statusText() == "error");
}

TEST_CASE("the nearest name: separators are no typos, a third of the name may be mistyped",
          "[core][options]") {
  using option_text::nearestName;
  const std::vector<std::string> flags = {"--time-limit", "--seed", "--memory-limit"};
  CHECK(nearestName("--timelimit", flags) == "--time-limit");   // one missing separator
  CHECK(nearestName("--time_limit", flags) == "--time-limit");  // '_' for '-' costs nothing
  CHECK(nearestName("--seeed", flags) == "--seed");             // one extra letter
  CHECK_FALSE(nearestName("--output", flags));                  // too far from every one
  CHECK(option_text::didYouMean("lsit", {"list", "ims"}) == " (did you mean 'list'?)");
  CHECK(option_text::didYouMean("zzz", {"list", "ims"}).empty());
}
