// The cross-method check (apps/gaus-bench/crosscheck_bench.cpp): the exhaustive
// references on hand-computed instances, the short form of the check on random cases of every
// problem kind, and the reproducers of the disagreements it found (tests/data/crosscheck/).

#include <algorithm>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <gaus/core/verify.hpp>
#include <gaus/crosscheck/crosscheck.hpp>
#include <gaus/crosscheck/exhaustive_search.hpp>
#include <gaus/crosscheck/reproducer.hpp>
#include <gaus/methods/method_catalog.hpp>

#include "kernel_files.hpp"
#include "test_support.hpp"
#include "toy_graphs.hpp"

using namespace gaus;
using namespace gaus::crosscheck;

namespace {

Schedule startsAt(std::vector<Cycle> starts) {
  Schedule schedule;
  schedule.start = std::move(starts);
  return schedule;
}

// a -> b and c -> d, every op one cycle, no unit limited; a and c hold 4 bytes each.
Instance twoValuesOfFourBytes() {
  GraphBuilder builder("two_values");
  const OpId a = builder.addOp("a", 1);
  const OpId b = builder.addOp("b", 1);
  const OpId c = builder.addOp("c", 1);
  const OpId d = builder.addOp("d", 1);
  builder.setMem(a, 4);
  builder.setMem(c, 4);
  builder.addEdge(a, b);
  builder.addEdge(c, d);
  return test::makeInstance(std::move(builder), Machine{});
}

// a (weight 3) -> b (1) with communication, c (2) beside them.
Instance weightsInTwoStages() {
  GraphBuilder builder("three_stages");
  const OpId a = builder.addOp("a", 1);
  const OpId b = builder.addOp("b", 1);
  const OpId c = builder.addOp("c", 1);
  builder.setWeight(a, 3);
  builder.setWeight(b, 1);
  builder.setWeight(c, 2);
  builder.setEdgeComm(builder.addEdge(a, b, 0), 1.0);
  return test::makeInstance(std::move(builder), Machine{});
}

// Runs the check on `count` seeds of `family` from `firstSeed` and names every disagreement.
// Returns how many claims (optimal, infeasible, bounds) were compared.
std::int64_t checkSeeds(Family family, std::uint64_t firstSeed, std::int64_t count,
                        double timeLimitSeconds) {
  CheckOptions options;
  options.timeLimitSeconds = timeLimitSeconds;
  options.budget.nodes = 200'000;
  std::int64_t claims = 0;
  for (std::uint64_t seed = firstSeed; seed < firstSeed + count; ++seed) {
    auto crossCheckCase = generateCase(seed, family);
    REQUIRE(crossCheckCase.ok());
    const CaseOutcome outcome = checkCase(*crossCheckCase, options, methodCatalog());
    CHECK(!outcome.runs.empty());
    claims += outcome.claimsCompared;
    for (const Disagreement& disagreement : outcome.disagreements) {
      FAIL_CHECK(fmt::format("seed {} ({}): {} ({} against {}): {}", seed, toString(family),
                             disagreement.check, disagreement.method, disagreement.witness,
                             disagreement.message));
    }
  }
  return claims;
}

// Tiny cases (3 to `maxOps` ops) of `family`, every one enumerated: the methods that solve the
// kind are held to the exhaustive optimum of the objective each reports. Returns how many
// enumerations were complete.
std::int64_t requireExhaustiveAgreement(Family family, std::uint64_t firstSeed, std::int64_t count,
                                        std::int32_t maxOps) {
  CheckOptions options;
  options.timeLimitSeconds = 0.5;
  std::int64_t complete = 0;
  for (std::uint64_t seed = firstSeed; seed < firstSeed + count; ++seed) {
    auto crossCheckCase = generateCase(seed, family, maxOps);
    REQUIRE(crossCheckCase.ok());
    REQUIRE(crossCheckCase->problem.graph->numOps() <= maxOps);
    const CaseOutcome outcome = checkCase(*crossCheckCase, options, methodCatalog());
    CHECK(!outcome.runs.empty());
    complete += outcome.exhaustiveComplete ? 1 : 0;
    for (const Disagreement& disagreement : outcome.disagreements) {
      FAIL_CHECK(fmt::format("tiny seed {} ({}): {} ({} against {}): {}", seed, toString(family),
                             disagreement.check, disagreement.method, disagreement.witness,
                             disagreement.message));
    }
  }
  return complete;
}

void requireAgreement(Family family, std::uint64_t firstSeed, std::int64_t count) {
  // Short limits: the check needs answers to compare, not good ones; a method that runs out of
  // time reports a timeout, which no comparison counts against it.
  std::int64_t claims = checkSeeds(family, firstSeed, count, 0.1);
  // A check that compares nothing is no check. How many comparisons there are depends on which
  // runs finish within their limit (a timeout claims nothing): on a loaded machine every twill
  // run of the modulo-warp family may time out at 0.1 s. Then the first seeds run again with
  // ten times the limit, which must give some claims.
  if (claims == 0) claims = checkSeeds(family, firstSeed, std::min<std::int64_t>(count, 10), 1.0);
  CHECK(claims > 0);
}

}  // namespace

// One test case (one process: this suite links every engine, whose start-up dominates a small
// case) with a section per hand-computed instance.
TEST_CASE("exhaustive references on hand-computed instances") {
  SECTION("acyclic: a 2-cycle op feeding one more, a third op, one ALU: latency 3") {
    // a (latency 2) -> b (delay 2), c independent, all on the one ALU for one cycle. b starts at
    // 2 at the earliest, so latency >= 3; a:0, c:1, b:2 reaches it.
    Machine machine;
    machine.name = "one_alu";
    const ResourceId alu = machine.addResource("ALU", 1);
    GraphBuilder builder("three");
    const OpId a = builder.addOp("a", 2);
    const OpId b = builder.addOp("b", 1);
    const OpId c = builder.addOp("c", 1);
    for (OpId op : {a, b, c}) builder.addReservation(op, {alu, 0, 1, 1});
    builder.addEdge(a, b);
    const Instance instance = test::makeInstance(std::move(builder), std::move(machine));
    const Problem problem = instance.problem(ProblemKind::kLatency);

    const AcyclicOptimum optimum = searchAcyclic(problem, 6, false);
    REQUIRE(optimum.complete);
    REQUIRE(optimum.minLatency == 3);
    REQUIRE(optimum.best);
    CHECK(verify(problem, *optimum.best).ok());
    // Nothing is done by cycle 2, and the search says so completely.
    const AcyclicOptimum tooShort = searchAcyclic(problem, 2, false);
    CHECK(tooShort.complete);
    CHECK_FALSE(tooShort.best);
  }

  SECTION("modulo: the toy Flash-Attention loop has II 2 and latency 4") {
    // TWILL.md: ResMII 2 (two 1-cycle TC ops on one TC), RecMII 1, I* = 2, min L = 4.
    const Instance instance = test::toyFlashAttention();
    const Problem problem = instance.problem(ProblemKind::kModulo);
    const ModuloOptimum optimum = searchModulo(problem, 8);
    REQUIRE(optimum.complete);
    CHECK(optimum.minIi == 2);
    CHECK(optimum.minLatency == 4);
    REQUIRE(optimum.best);
    CHECK(verify(problem, *optimum.best).ok());
  }

  SECTION("latency-bounded: two values of 4 bytes need 8 at D = 2 and 4 at D = 3") {
    // a -> b and c -> d, every op one cycle, no unit limited, a and c holding 4 bytes each. A
    // value lives from its op's start to its consumer's start. At D = 2, a and c start at 0 and
    // b and d at 1, so both values are live in cycle 0: peak 8. At D = 3 (a:0, b:1, c:1, d:2)
    // they are live one after the other: peak 4, which no schedule beats (a's value is live for
    // at least a cycle). The latency is 2 in both.
    const Instance instance = twoValuesOfFourBytes();
    for (const auto& [horizon, peak] : {std::pair<Cycle, double>{2, 8.0}, {3, 4.0}}) {
      INFO("D = " << horizon);
      const Problem problem = instance.problem(ProblemKind::kLatencyBounded, horizon);
      const AcyclicOptimum optimum = searchAcyclic(problem, horizon, true);
      REQUIRE(optimum.complete);
      CHECK(optimum.minLatency == 2);
      REQUIRE(optimum.minPeakMemory);
      CHECK(optimum.minPeakMemory->value == peak);
      const auto report = verify(problem, optimum.minPeakMemory->witness);
      CHECK(report.ok());
      CHECK(report.metrics.peakLiveMemory == peak);
      CHECK_FALSE(optimum.minStageObjective);  // not a stage problem
    }
  }

  SECTION("stages: a (3) -> b (1) with communication and c (2) in 2 stages: 301") {
    // Total weight 6 in 2 stages: the peak is at least 3, and only {a} | {b, c} reaches it,
    // which crosses the comm edge a -> b once: 100 x 3 + 1 = 301. Keeping a and b together
    // weighs at least 4 (400). So 301 is the optimum on GS-Schedule's scale.
    const Instance instance = weightsInTwoStages();
    const Problem problem = instance.problem(ProblemKind::kStages, 2);
    const AcyclicOptimum optimum = searchAcyclic(problem, 2, true);
    REQUIRE(optimum.complete);
    REQUIRE(optimum.minStageObjective);
    CHECK(optimum.minStageObjective->value == 301.0);
    const Schedule& witness = optimum.minStageObjective->witness;
    CHECK(verify(problem, witness).ok());
    CHECK(witness.start == std::vector<Cycle>{0, 1, 1});
  }

  SECTION("a search gives up at its node budget and says so") {
    const Instance instance = test::toyFlashAttention();
    const ModuloOptimum optimum = searchModulo(instance.problem(ProblemKind::kModulo), 8, {1});
    CHECK_FALSE(optimum.complete);
  }
}

// The short form of `gaus-bench crosscheck`: seeds 1 to 50 of each family (250 cases; about
// half of them small enough for the exhaustive references). Every method of the catalog that
// solves the case's kind runs on it.
TEST_CASE("cross-method check: latency cases agree across methods and with enumeration") {
  requireAgreement(Family::kLatency, 1, 50);
}
TEST_CASE("cross-method check: latency-bounded cases agree across methods and with enumeration") {
  requireAgreement(Family::kLatencyBounded, 1, 50);
}
TEST_CASE("cross-method check: modulo cases agree across methods and with enumeration") {
  requireAgreement(Family::kModulo, 1, 50);
}
TEST_CASE("cross-method check: modulo-warp cases agree across methods and with enumeration") {
  requireAgreement(Family::kModuloWarp, 1, 50);
}
TEST_CASE("cross-method check: stage cases agree across methods and with enumeration") {
  requireAgreement(Family::kStages, 1, 50);
}

// A method that claims too much on B and A is caught by the enumeration, through the registry
// like any method: the check is generic over the methods that declare the kind.
TEST_CASE(
    "cross-method check: an optimal claim above the brute-force optimum of B or A is caught") {
  // Each problem is the hand-computed one of "exhaustive references" above; the method answers
  // a verified but suboptimal schedule and claims it optimal, with its value as the bound.
  struct Overclaim {
    Problem problem;
    Schedule schedule;
    std::string objective;
    double claimed = 0;
    double optimum = 0;
  };
  std::vector<Overclaim> cases;
  {
    // B at D = 3: a, c at 0 and b, d at 1 hold both values in cycle 0, peak 8; the optimum is 4.
    const Instance instance = twoValuesOfFourBytes();
    cases.push_back({instance.problem(ProblemKind::kLatencyBounded, 3), startsAt({0, 1, 0, 1}),
                     "peak_memory", 8.0, 4.0});
  }
  {
    // A in 2 stages: a and b together in stage 0 weigh 4, so 100 x 4 = 400; the optimum is 301.
    const Instance instance = weightsInTwoStages();
    cases.push_back({instance.problem(ProblemKind::kStages, 2), startsAt({0, 0, 1}),
                     "stage_cost", 400.0, 301.0});
  }
  for (const Overclaim& overclaim : cases) {
    INFO(overclaim.objective);
    REQUIRE(verify(overclaim.problem, overclaim.schedule).ok());
    MethodInfo method;
    method.name = "overclaiming";
    method.kinds = {overclaim.problem.kind};
    method.parseOptions = [](const MethodOptions&, const Settings&) -> Expected<ParsedOptions> {
      return ParsedOptions{};
    };
    method.solve = [&overclaim](const Problem&, const ParsedOptions&, const RunContext&) {
      Result result;
      result.schedule = overclaim.schedule;
      result.objectiveName = overclaim.objective;
      result.objective = overclaim.claimed;
      result.bounds.lowerBound = overclaim.claimed;
      result.status = ModelStatus::kOptimal;
      return result;
    };
    MethodRegistry registry;
    registry.add(method);
    const Family family =
        overclaim.problem.kind == ProblemKind::kStages ? Family::kStages : Family::kLatencyBounded;
    const CaseOutcome outcome =
        checkCase(caseOf(1, family, overclaim.problem, "overclaim"), CheckOptions{}, registry);
    REQUIRE(outcome.runs.size() == 1);
    CHECK(outcome.exhaustiveComplete);
    // Both the optimal claim and the bound disagree with the optimum.
    std::int32_t caught = 0;
    for (const Disagreement& disagreement : outcome.disagreements) {
      INFO(disagreement.message);
      CHECK(disagreement.check == "exhaustive");
      CHECK(disagreement.method == "overclaiming");
      CHECK_THAT(disagreement.message, Catch::Contains(fmt::format("{}", overclaim.optimum)));
      ++caught;
    }
    CHECK(caught == 2);
  }
}

// B and A against brute force: 20 tiny cases each in the default suite (`gaus-bench crosscheck
// --family latency-bounded|stages --max-ops 8` runs the 1,000 of docs/benchmarks.md). Most of
// them must be enumerated completely, or the check would compare nothing.
TEST_CASE("cross-method check: tiny latency-bounded cases agree with brute force on peak memory") {
  CHECK(requireExhaustiveAgreement(Family::kLatencyBounded, 1, 20, 6) >= 10);
}
TEST_CASE("cross-method check: tiny stage cases agree with brute force on the stage objective") {
  CHECK(requireExhaustiveAgreement(Family::kStages, 1, 20, 6) >= 10);
}

// The disagreements the check found, shrunk (tests/data/crosscheck/), each fixed: every method
// now agrees on them. The expected answers, by hand:
// - seed 152: a chain n3 -> n2 -> n1 -> n0 with delays 2, 2, 3 and n0's 3-cycle table makes the
//   critical path 10 > D = 9, so no schedule exists; GauS failed the call instead of answering
//   "infeasible".
// - seed 255: D = 23 is above every lower bound (critical path 14) and GauS meets it; list missed
//   it and said "infeasible", which only a bound may prove ("unknown" now).
// - seed 318: n1 (latency 0, spill cost 1) -> n5 (min_warps 2): n5's two warps differ from n1's
//   one, so n5 waits the spill cost, L = 2 at II = 1; Twill stopped at the MILP's one stage and
//   called the loop infeasible.
// - seed 676: n2 (TC, 2 cycles) -> n0 (ALU, spill cost 1) -> n1 (TC, min_warps 2), self-loops on
//   n0 and n1. At II = 2 the MILP's L is 4 (two stages), but n1's warps differ from n0's, so n1
//   waits to 2 + 1 + 1 = 4 and, with n2 on TC residue 0, to 5: L = 6, three stages. Twill
//   stopped at two stages and called II = 3 minimal.
// - seed 3884: n2 (1 byte of smem) -> n4 with delay 0 and n5 (1 byte) -> n3 with delay 2, smem
//   capacity 2, one warp, no unit reserved. The memory of a modulo-warp problem holds rings of
//   max(1, ceil(lifetime / II)) buffers per consumed value (core ringBuffers): at II 1, n5's
//   value lives >= 2 cycles, 2 buffers, and n2's 1, so 3 > 2 whatever the starts; at II 2 both
//   take 1 buffer. So II 2 is minimal, with L = 2 (n3 >= n5 + 2; every op has duration 0).
//   The verifier counted the footprints live at each residue (2 at II 1) and accepted the
//   enumeration's II 1 witness; twill counted rings and proved II 2. One rule now: the witness
//   fails on memory capacity.
// - seed 861 (31 ops, fixed II = 14): the modulo MILP ran to milp_time_limit (60 s) whatever the
//   call's time_limit, and CBC aborted in Clp after about 8 s. The call now ends within its limit
//   plus the target's max(1 s, 10 %): a timeout, not a failed call. (The Clp abort itself is
//   retried without presolve: exact_tests, "a CBC crash is solved again without presolve".)
TEST_CASE("cross-method check: the reproducers of fixed disagreements now agree") {
  CheckOptions options;
  options.timeLimitSeconds = 1.0;
  const auto files = reproducerFiles(test::dataPath("crosscheck"));
  REQUIRE(files.size() == 6);
  for (const auto& file : files) {
    auto reproducer = readReproducer(file);
    REQUIRE(reproducer.ok());
    INFO(file.filename().string() << ": was " << reproducer->message);
    const CaseOutcome outcome = checkCase(reproducer->crossCheckCase, options, methodCatalog());
    for (const MethodRun& run : outcome.runs) {
      INFO(run.method << ": " << run.result.message);
      CHECK_FALSE(run.result.failed());
      if (reproducer->crossCheckCase.seed == 152) {
        CHECK(run.result.status == ModelStatus::kInfeasible);
      }
      if (reproducer->crossCheckCase.seed == 318 && run.method == "twill") {
        REQUIRE(run.result.schedule);
        CHECK(run.result.schedule->ii == 1);
        CHECK(run.result.verification->metrics.latency == 2);
      }
      if (reproducer->crossCheckCase.seed == 861 && run.method == "ilp") {
        CHECK(run.result.status == ModelStatus::kTimeout);
        CHECK(run.result.stats.seconds <= options.timeLimitSeconds + 1.0);
      }
      if (reproducer->crossCheckCase.seed == 3884 && run.method == "twill") {
        REQUIRE(run.result.schedule);
        CHECK(run.result.schedule->ii == 2);
        CHECK(run.result.verification->metrics.latency == 2);
      }
      if (reproducer->crossCheckCase.seed == 676 && run.method == "twill") {
        REQUIRE(run.result.schedule);
        CHECK(run.result.schedule->ii == 2);
        CHECK(run.result.verification->metrics.latency == 6);
      }
    }
    for (const Disagreement& disagreement : outcome.disagreements) {
      FAIL_CHECK(disagreement.check << " (" << disagreement.method
                                    << "): " << disagreement.message);
    }
  }
}

TEST_CASE("cross-method check: seed 3884's II 1 witness holds 3 bytes of rings in 2") {
  // The witness the enumeration found under the per-residue count: n2, n4, n5 at 0 and n3 at 2,
  // II 1. n2's value is read as it is made (1 buffer), n5's lives 2 cycles (2 buffers).
  const Instance instance =
      test::loadInstance(test::dataPath("crosscheck/modulo-warp-exhaustive-twill-seed3884.json"));
  REQUIRE(instance.schedule);
  CHECK(instance.schedule->ii == 1);
  const auto report = verify(instance.problem(ProblemKind::kModuloWarp), *instance.schedule);
  CHECK(report.totalViolations == 1);
  CHECK(report.count(ConstraintFamily::kMemoryCapacity) == 1);
  CHECK_THAT(report.summary(),
             Catch::Contains("rings hold 3 > capacity 2") && Catch::Contains("n2 1 x 1, n5 2 x 1"));
}
