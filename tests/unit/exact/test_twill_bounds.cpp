// Twill's bounds that hold for every schedule length L (modulo_bounds.hpp; docs/exact.md, "II
// proofs for every L"): the warp-aware RecMII and the L that suffices at an II, by hand on a
// two-op recurrence, and the stand-in whose optimal II is above its MII only because a
// cross-warp spill lengthens its recurrence (configs/kernels/gather_attention_32w.yaml).
// test_warp_bounds.cpp compares both bounds with enumeration on random modulo-warp loops.
#include <chrono>

#include <catch2/catch.hpp>

#include <gaus/core/analysis.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/core/warp_rules.hpp>
#include <gaus/exact/twill.hpp>

#include "kernel_files.hpp"
#include "modulo_bounds.hpp"
#include "test_support.hpp"
#include "toy_graphs.hpp"

using namespace gaus;
using namespace gaus::exact;

namespace {

struct PairShape {
  std::int32_t minWarpsOfB = 2;
  bool aVariableLatency = false;
  std::int32_t regsOfA = 0;
};

// a (latency 2, spill cost 3) -> b (latency 1, spill cost 1) -> a at distance 1, on 4 warps
// without resources. RecMII = (2 + 1) / 1 = 3.
Instance pairLoop(const PairShape& shape) {
  Machine machine;
  machine.name = "four_warps";
  machine.warps = 4;
  if (shape.aVariableLatency) machine.variableLatencyWarp = 0;
  if (shape.regsOfA > 0) machine.registerLimit = 64;
  GraphBuilder builder("pair_loop");
  OpAttributes a;
  a.name = "a";
  a.latency = 2;
  a.spillCost = 3;
  a.variableLatency = shape.aVariableLatency;
  a.regs = shape.regsOfA;
  OpAttributes b;
  b.name = "b";
  b.latency = 1;
  b.spillCost = 1;
  b.minWarps = shape.minWarpsOfB;
  const OpId ia = builder.addOp(a);
  const OpId ib = builder.addOp(b);
  builder.addEdge(ia, ib);
  builder.addEdge(ib, ia, std::nullopt, 1);
  return test::makeInstance(std::move(builder), std::move(machine));
}

// a -> b -> a at distance 1, each of latency 2 and spill cost 3, a on the ALU and b on the tensor
// core for 6 cycles each, on 2 warps that issue one op per cycle (warp_issue_width 1). MII =
// ResMII 6 (RecMII 2 + 2 = 4); no edge must cross (same min_warps, no variable latency), so the
// warp-aware RecMII is 4 too. On one warp the two 6-cycle windows need 12 issue slots per II; on
// two warps both edges cross and the recurrence needs 2 + 3 + 2 + 3 = 10. So II 10 is optimal
// (a at 0, b at 5, L = b's end 11, 2 warps, 2 cross-warp edges), and II 6-9 fail at every L for
// a reason no bound sees: only the SMT checks refute them.
Instance issueBoundLoop(std::int32_t regs) {
  Machine machine;
  machine.name = "two_single_issue_warps";
  machine.warps = 2;
  machine.warpIssueWidth = 1;
  if (regs > 0) machine.registerLimit = 64;
  const ResourceId alu = machine.addResource("alu", 1);
  const ResourceId tc = machine.addResource("tc", 1);
  GraphBuilder builder("issue_bound_loop");
  const auto addOp = [&](const char* name, ResourceId unit) {
    OpAttributes op;
    op.name = name;
    op.latency = 2;
    op.spillCost = 3;
    op.regs = regs;
    op.reservation = {{unit, 0, 6, 1}};
    return builder.addOp(op);
  };
  const OpId a = addOp("a", alu);
  const OpId b = addOp("b", tc);
  builder.addEdge(a, b);
  builder.addEdge(b, a, std::nullopt, 1);
  return test::makeInstance(std::move(builder), std::move(machine));
}

}  // namespace

TEST_CASE("warp rules: an edge's cross-warp delay, and ops that never share a warp set",
          "[exact][twill][bounds]") {
  const Instance instance = pairLoop({});
  const Graph& graph = *instance.graph;
  // a -> b: a's latency 2 plus a's spill cost 3; b -> a: 1 + 1.
  CHECK(crossWarpDelay(graph, 0) == 5);
  CHECK(crossWarpDelay(graph, 1) == 2);
  // One warp against two: never one set.
  CHECK(warpSetsAlwaysDiffer(graph, *instance.machine, 0, 1));
  CHECK_FALSE(warpSetsAlwaysDiffer(graph, *instance.machine, 0, 0));
  const Instance same = pairLoop({.minWarpsOfB = 1});
  CHECK_FALSE(warpSetsAlwaysDiffer(*same.graph, *same.machine, 0, 1));
  // A variable-latency op runs alone on the variable-latency warp.
  const Instance loads = pairLoop({.minWarpsOfB = 1, .aVariableLatency = true});
  CHECK(warpSetsAlwaysDiffer(*loads.graph, *loads.machine, 0, 1));
}

TEST_CASE("warp-aware RecMII: the recurrence pays the spill of every edge that must cross",
          "[exact][twill][bounds]") {
  const TwillFamilySet all;
  SECTION("one warp against two: both edges cross, 5 + 2 over distance 1") {
    const Instance instance = pairLoop({});
    CHECK(computeRecMii(*instance.graph).value == 3);
    CHECK(detail::computeWarpAwareRecMii(*instance.graph, *instance.machine, all).value == 7);
  }
  SECTION("a variable-latency op and a fixed-latency one: both edges cross") {
    const Instance instance = pairLoop({.minWarpsOfB = 1, .aVariableLatency = true});
    CHECK(detail::computeWarpAwareRecMii(*instance.graph, *instance.machine, all).value == 7);
  }
  SECTION("two one-warp ops may share a warp: the plain RecMII") {
    const Instance instance = pairLoop({.minWarpsOfB = 1});
    CHECK(detail::computeWarpAwareRecMii(*instance.graph, *instance.machine, all).value == 3);
  }
  SECTION("with the spill-delay family off nothing is paid") {
    const Instance instance = pairLoop({});
    CHECK(detail::computeWarpAwareRecMii(*instance.graph, *instance.machine,
                                         all.without(TwillFamily::kSpillDelay))
              .value == 3);
  }
}

TEST_CASE("the L that suffices at an II, by hand, and none where lifetimes matter",
          "[exact][twill][bounds]") {
  const TwillFamilySet all;
  const Instance instance = pairLoop({});
  // At II 7. The path bound: II - 1 = 6, plus a's step 5 - 0 + 6 = 11 and b's 2 - 7 + 6 = 1,
  // plus the longest duration 2: 20. The raised graph (a -> b 5, b -> a 2 at distance 1) has no
  // positive cycle at 7: ASAP a 0, b 5, and existenceLatencyBound gives max(0, 5) + 2 ops x 6 +
  // duration: b 5 + 12 + 1 = 18, a 0 + 12 + 2 = 14. The smaller: 18.
  CHECK(detail::warpLatencyBound(*instance.graph, *instance.machine, 7, all) == 18);
  // At II 5 the raised cycle is positive (7 > 5): the path bound alone, 4 + (5 + 4) + (2 - 5 +
  // 4) + 2 = 16.
  CHECK(detail::warpLatencyBound(*instance.graph, *instance.machine, 5, all) == 16);
  // a's value holds registers against a limit: moving a earlier may lengthen its lifetime.
  const Instance registers = pairLoop({.regsOfA = 32});
  CHECK_FALSE(detail::warpLatencyBound(*registers.graph, *registers.machine, 7, all));
  CHECK(detail::warpLatencyBound(*registers.graph, *registers.machine, 7,
                                 all.without(TwillFamily::kRegisterLimit)) == 18);
}

TEST_CASE("twill on the pair loop: II 7 proven for every L, where RecMII says 3",
          "[exact][twill][bounds]") {
  // II 7 (the warp-aware RecMII above) with a at 0 and b at 5 (2 + spill 3): L = 6, b's end.
  const Instance instance = pairLoop({});
  const TwillSolution solution = solveTwill(instance.problem(ProblemKind::kModuloWarp));
  INFO(solution.result.message);
  REQUIRE(solution.result.status == ModelStatus::kOptimal);
  CHECK(*solution.ii() == 7);
  CHECK(*solution.twill.latency == 6);
  CHECK(solution.twill.iiBound.recMii == 3);
  CHECK(solution.twill.iiBound.warpRecMii == 7);
  CHECK(solution.twill.iiBound.proof == IiProof::kEveryLength);
}

TEST_CASE("twill stand-in: the gather loop's II is its warp-aware RecMII, above its MII",
          "[exact][twill][bounds]") {
  // configs/kernels/gather_attention_32w.yaml derives (14, 26, 5, 5): ResMII 8, RecMII 11, the
  // spill of pick -> load_kv makes the recurrence 14 at every L.
  const Instance instance =
      test::loadInstance(test::sourcePath("configs/kernels/gather_attention_32w.yaml"));
  const Graph& graph = *instance.graph;
  CHECK(computeResMii(graph, *instance.machine).value == 8);
  CHECK(computeRecMii(graph).value == 11);
  CHECK(detail::computeWarpAwareRecMii(graph, *instance.machine, TwillFamilySet{}).value == 14);
  TwillOptions options;
  options.search.timeLimitSeconds = 60.0;
  const auto begin = std::chrono::steady_clock::now();
  const TwillSolution solution = solveTwill(instance.problem(ProblemKind::kModuloWarp), options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  INFO(solution.result.message);
  for (const auto& attempt : solution.result.attempts) UNSCOPED_INFO(attempt.describe());
  REQUIRE(solution.result.status == ModelStatus::kOptimal);
  CHECK(solution.result.verification->ok());
  CHECK(*solution.ii() == 14);
  CHECK(*solution.twill.latency == 26);
  CHECK(solution.twill.assignment.warpsUsed == 5);
  CHECK(solution.twill.assignment.warpsProvenMinimal);
  CHECK(solution.twill.assignment.crossWarpEdges == 5);
  CHECK(solution.twill.assignment.crossEdgesProvenMinimal);
  CHECK(solution.twill.iiBound.proof == IiProof::kEveryLength);
  // The issue's target: proven in at most 20 s (docs/benchmarks.md has the runs at load >= 2).
  CHECK(seconds <= 20.0);
}

TEST_CASE("twill: II 6-9 refuted for every L by the relaxation without registers",
          "[exact][twill][bounds]") {
  // issueBoundLoop above: II 10 optimal, II 6-9 refuted by the SMT checks alone. Without
  // registers an L suffices at each of them (warpLatencyBound), so the checks up to it prove
  // them for every L. With 32 registers per value against a limit of 64 no L suffices for the
  // loop itself; the relaxation without registers (withoutLifetimeCosts) is the loop without
  // registers, whose refutation at its L refutes the loop's II for every L too (the register
  // rows only remove schedules): still every_length, by one check per II named in the log.
  for (const std::int32_t regs : {0, 32}) {
    INFO("regs " << regs);
    const Instance instance = issueBoundLoop(regs);
    const Graph& graph = *instance.graph;
    CHECK(computeResMii(graph, *instance.machine).value == 6);
    CHECK(detail::computeWarpAwareRecMii(graph, *instance.machine, TwillFamilySet{}).value == 4);
    CHECK(detail::warpLatencyBound(graph, *instance.machine, 9, TwillFamilySet{}).has_value() ==
          (regs == 0));
    const TwillSolution solution = solveTwill(instance.problem(ProblemKind::kModuloWarp));
    INFO(solution.result.message);
    REQUIRE(solution.result.status == ModelStatus::kOptimal);
    REQUIRE(solution.result.verification);
    CHECK(solution.result.verification->ok());
    CHECK(*solution.ii() == 10);
    CHECK(*solution.twill.latency == 11);
    CHECK(solution.twill.assignment.warpsUsed == 2);
    CHECK(solution.twill.assignment.crossWarpEdges == 2);
    for (const auto& attempt : solution.result.attempts) UNSCOPED_INFO(attempt.describe());
    CHECK(solution.twill.iiBound.proof == IiProof::kEveryLength);
    int relaxedRefutations = 0;
    for (const auto& attempt : solution.result.attempts) {
      if (attempt.detail.find("without registers and memory") != std::string::npos &&
          attempt.status == ModelStatus::kInfeasible) {
        ++relaxedRefutations;
      }
    }
    // One per II from 6 to 9 with registers; none needed without.
    CHECK(relaxedRefutations == (regs == 0 ? 0 : 4));
  }
}

TEST_CASE("twill at 32 warps: single-issue warps split a recurrence, II 10 proven for every L",
          "[exact][twill][bounds]") {
  // tests/data/twill/issue_recurrence_32w.yaml derives it: MII 8 (TC), warp-aware RecMII 4, but
  // mx and corr cannot share a single-issue warp group (12 slots per II) and split they pay two
  // spills (10): II 10. Its ops hold registers, so no L suffices for the loop itself; II 8 and 9
  // are proven for every L by the relaxation without registers and memory, one check each.
  const Instance instance = test::loadInstance(test::dataPath("twill/issue_recurrence_32w.yaml"));
  CHECK(computeResMii(*instance.graph, *instance.machine).value == 8);
  CHECK(
      detail::computeWarpAwareRecMii(*instance.graph, *instance.machine, TwillFamilySet{}).value ==
      4);
  CHECK_FALSE(detail::warpLatencyBound(*instance.graph, *instance.machine, 8, TwillFamilySet{}));
  TwillOptions options;
  options.search.timeLimitSeconds = 60.0;
  const TwillSolution solution = solveTwill(instance.problem(ProblemKind::kModuloWarp), options);
  INFO(solution.result.message);
  REQUIRE(solution.result.status == ModelStatus::kOptimal);
  REQUIRE(solution.result.verification);
  CHECK(solution.result.verification->ok());
  CHECK(*solution.ii() == 10);
  for (const auto& attempt : solution.result.attempts) UNSCOPED_INFO(attempt.describe());
  CHECK(solution.twill.iiBound.proof == IiProof::kEveryLength);
  std::vector<std::int64_t> relaxed;
  for (const auto& attempt : solution.result.attempts) {
    if (attempt.detail.find("without registers and memory") != std::string::npos &&
        attempt.status == ModelStatus::kInfeasible) {
      relaxed.push_back(*attempt.ii);
    }
  }
  CHECK(relaxed == std::vector<std::int64_t>{8, 9});
}
