// The Twill search on the built-in kernels (TWILL.md "Built-in kernels and expected results").
// The kernels solve in a few seconds at most (docs/benchmarks.md) and run by default; the
// Blackwell ablations take longer and are tagged [.slow].
#include <algorithm>

#include <catch2/catch.hpp>

#include <gaus/core/analysis.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/exact/methods.hpp>
#include <gaus/exact/modulo_milp.hpp>
#include <gaus/exact/twill.hpp>

#include "kernel_files.hpp"
#include "test_support.hpp"
#include "toy_graphs.hpp"

using namespace gaus;
using namespace gaus::exact;

namespace {

TwillSolution solve(const Instance& instance, TwillOptions options = {}) {
  options.smt.timeLimitSeconds = test::timeLimit(120.0);
  // Under GAUS_TEST_TIME_LIMIT the search as a whole is bounded too (unset: no limit).
  if (const double overridden = test::timeLimit(0.0); overridden > 0.0) {
    options.search.timeLimitSeconds = overridden;
  }
  TwillSolution solution = solveTwill(instance.problem(ProblemKind::kModuloWarp), options);
  INFO(solution.result.message);
  for (const auto& attempt : solution.result.attempts) UNSCOPED_INFO(attempt.describe());
  return solution;
}

// The ablations on fa_fwd_blackwell: the SMT refuted I 16 at the MILP's stage limit, L 32.
bool refutedAtStageLimit(const TwillSolution& solution) {
  return std::any_of(solution.result.attempts.begin(), solution.result.attempts.end(),
                     [](const Attempt& attempt) {
                       return attempt.phase == "smt" && attempt.ii == 16 && attempt.latency == 32 &&
                              attempt.status == ModelStatus::kInfeasible;
                     });
}

OpId opNamed(const Instance& instance, const std::string& name) {
  const auto op = instance.graph->findOp(name);
  REQUIRE(op);
  return *op;
}

// Does [a, a + la) meet [b, b + lb) modulo ii?
bool overlapModulo(Cycle a, Cycle la, Cycle b, Cycle lb, Cycle ii) {
  for (Cycle x = 0; x < la; ++x) {
    const Cycle offset = (((a + x - b) % ii) + ii) % ii;
    if (offset < lb) return true;
  }
  return false;
}

bool endsWith(const std::string& name, const std::string& suffix) {
  return name.size() >= suffix.size() &&
         name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "No sub-tiling": the two query sub-tiles of the Blackwell kernel become one tile of twice the
// rows. The ops of sub-tile 1 are dropped and those of sub-tile 0 do twice the work: unit
// cycles, latencies, out-edge delays, registers per thread and memory footprints double.
Instance mergedSubTiles(const Instance& instance) {
  const Graph& graph = *instance.graph;
  GraphBuilder builder(graph.name() + "_one_tile");
  std::vector<OpId> kept(static_cast<std::size_t>(graph.numOps()), -1);
  for (OpId op = 0; op < graph.numOps(); ++op) {
    const std::string& name = graph.opName(op);
    if (endsWith(name, "1")) continue;
    OpAttributes attributes = graph.opAttributes(op);
    if (endsWith(name, "0")) {
      attributes.latency *= 2;
      attributes.regs *= 2;
      for (auto& block : attributes.reservation) block.length *= 2;
      for (auto& print : attributes.footprints) print.amount *= 2;
    }
    kept[op] = builder.addOp(attributes);
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    EdgeAttributes attributes = graph.edgeAttributes(e);
    if (kept[attributes.source] < 0 || kept[attributes.target] < 0) continue;
    if (endsWith(graph.opName(attributes.source), "0")) attributes.delay = graph.edgeDelay(e) * 2;
    attributes.source = kept[attributes.source];
    attributes.target = kept[attributes.target];
    const EdgeId added = builder.addEdge(attributes);
    builder.setEdgeBlocking(added, attributes.blocking);
  }
  return test::makeInstance(std::move(builder), *instance.machine);
}

// The instance with every fixed-latency op's spill cost set to `cost`.
Instance withSpillCost(const Instance& instance, std::int32_t cost) {
  const Graph& graph = *instance.graph;
  GraphBuilder builder(graph.name() + "_no_communication");
  for (OpId op = 0; op < graph.numOps(); ++op) {
    OpAttributes attributes = graph.opAttributes(op);
    if (!attributes.variableLatency) attributes.spillCost = cost;
    builder.addOp(attributes);
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    const EdgeAttributes attributes = graph.edgeAttributes(e);
    const EdgeId added = builder.addEdge(attributes);
    builder.setEdgeBlocking(added, attributes.blocking);
  }
  return test::makeInstance(std::move(builder), *instance.machine);
}

// The smallest II at which the modulo MILP finds a schedule (no warp constraints).
std::int32_t smallestModuloFeasibleIi(const Instance& instance) {
  ModuloSearchOptions options;
  const Result result = searchModulo(instance.problem(ProblemKind::kModulo), options);
  REQUIRE(result.status == ModelStatus::kOptimal);
  return *result.schedule->ii;
}

}  // namespace

TEST_CASE("twill toy FA: I = 1 infeasible, I* = 2, L = 4, S:0 and O:3", "[exact][twill]") {
  // TWILL.md / paper Fig. 1. I = 1 fails the tensor core (S and O need two TC cycles); at I = 2
  // the minimum L is 4 with S:0 and O:3 forced (S:1 would put O at residue 1 with S). P may sit
  // at 1 or 2 (both optimal; the paper draws P:2), so P is only checked to be one of them.
  const auto toy = test::loadKernel("toy_fa");
  const Problem problem = toy.problem(ProblemKind::kModuloWarp);
  CHECK(solveModuloAtIi(toy.problem(ProblemKind::kModulo), 1).status == ModelStatus::kInfeasible);
  for (Cycle latency = 3; latency <= 6; ++latency) {
    CHECK(checkTwill(problem, 1, latency).status == ModelStatus::kInfeasible);
  }
  const TwillSolution solution = solve(toy);
  REQUIRE(solution.result.status == ModelStatus::kOptimal);
  CHECK(*solution.ii() == 2);
  CHECK(*solution.twill.latency == 4);
  CHECK(*solution.twill.stages == 2);
  const auto& start = solution.result.schedule->start;
  CHECK(start[0] == 0);
  CHECK((start[1] == 1 || start[1] == 2));
  CHECK(start[2] == 3);
  // Two stages: S of the first iteration runs alone in the prologue (stage 0 holds S, stage 1
  // holds O).
  CHECK(start[0] / *solution.ii() == 0);
  CHECK(start[2] / *solution.ii() == 1);
  CHECK(solution.result.verification->ok());

  // The paper's M = {S:0, P:2, O:3} verifies; {S:0, P:1, O:2} clashes on TC at 0 mod 2.
  Schedule paper;
  paper.start = {0, 2, 3};
  paper.ii = 2;
  paper.warps = std::vector<WarpSet>{1, 1, 1};
  CHECK(verify(problem, paper).ok());
  Schedule clash = paper;
  clash.start = {0, 1, 2};
  const auto report = verify(problem, clash);
  CHECK(report.count(ConstraintFamily::kResource) == 1);
}

TEST_CASE("twill through the registry: verified, with the attempt log and the explanation",
          "[exact][twill]") {
  MethodRegistry registry;
  registerExactMethods(registry);
  const auto toy = test::loadKernel("toy_fa");
  const Result result =
      registry.run("twill", toy.problem(ProblemKind::kModuloWarp),
                   {{"explain", "true"}, {"time_limit", test::timeLimitText(30.0)}});
  INFO(result.message);
  REQUIRE(result.status == ModelStatus::kOptimal);
  CHECK(result.verified());
  CHECK(*result.objective == 2);
  // One MILP attempt and one SMT attempt at II = 2, then the explanation.
  REQUIRE(result.attempts.size() >= 2);
  CHECK(result.attempts[0].phase == "milp");
  CHECK(result.attempts[0].ii == 2);
  CHECK(result.attempts[0].latency == 4);
  CHECK(result.attempts[0].status == ModelStatus::kOptimal);
  CHECK(result.attempts[1].phase == "smt");
  CHECK(result.attempts[1].status == ModelStatus::kFeasible);
  CHECK(std::any_of(result.notes.begin(), result.notes.end(), [](const auto& note) {
    return note.first == "explanation" &&
           note.second.find("II: ResMII: unit TC") != std::string::npos;
  }));
  const Result unknown =
      registry.run("twill", toy.problem(ProblemKind::kModuloWarp), {{"disable", "registers"}});
  CHECK(unknown.failed());
  CHECK_THAT(unknown.message, Catch::Contains("unknown family 'registers'"));
}

TEST_CASE("twill GEMM (Hopper): loads on the variable-latency warp, MMA apart, I = MMA cost",
          "[exact][twill]") {
  // The WGMMA holds the tensor core 4 units per K step and the loads are streaming, so I = 4
  // (ResMII of TC). Loads must run alone on warp 0 (variable latency) and the MMA elsewhere: the
  // producer/consumer split of CUTLASS and Triton, with 2 warps proven minimal.
  const auto gemm = test::loadKernel("gemm_hopper");
  const TwillSolution solution = solve(gemm);
  REQUIRE(solution.result.status == ModelStatus::kOptimal);
  CHECK(*solution.ii() == 4);
  const auto& warps = *solution.result.schedule->warps;
  CHECK(warps[opNamed(gemm, "load_a")] == WarpSet{1});
  CHECK(warps[opNamed(gemm, "load_b")] == WarpSet{1});
  CHECK(warps[opNamed(gemm, "mma")] != WarpSet{1});
  CHECK(solution.twill.assignment.warpsUsed == 2);
  CHECK(solution.twill.assignment.warpsProvenMinimal);
  CHECK(solution.twill.assignment.roles.size() == 2);
  CHECK(solution.result.verification->ok());
}

TEST_CASE("twill FA forward (Hopper, two sub-tiles): I* = ResMII(TC), FA3 ping-pong",
          "[exact][twill]") {
  // Per sub-tile S and PV hold the TC 4 units each: ResMII(TC) = 16; exp needs 2 x 4 = 8 of
  // EXP. Expected (TWILL.md): I* = 16; some sub-tile's next-iteration S is issued before the
  // current O of a sub-tile (S(j+1) before PV(j), the FA3 pipeline); one sub-tile's exp overlaps
  // the other's GEMMs (ping-pong). The WGMMA waits (blocking edges into the softmax and the
  // rescale) keep the two sub-tiles on two consumer warps: with the producer, 3 warps.
  const auto fa = test::loadKernel("fa_fwd_hopper");
  TwillOptions options;
  options.explain.enabled = true;
  const TwillSolution solution = solve(fa, options);
  REQUIRE(solution.result.status == ModelStatus::kOptimal);
  const std::int64_t resMiiTc = computeResMii(*fa.graph, *fa.machine).value;
  CHECK(resMiiTc == 16);
  CHECK(*solution.ii() == resMiiTc);
  const auto& start = solution.result.schedule->start;
  const Cycle ii = *solution.ii();
  bool sBeforeO = false;
  bool pingPong = false;
  for (const std::string a : {"0", "1"}) {
    for (const std::string b : {"0", "1"}) {
      if (start[opNamed(fa, "s" + a)] + ii < start[opNamed(fa, "pv" + b)]) sBeforeO = true;
      if (a == b) continue;
      const Cycle exp = start[opNamed(fa, "exp" + a)];
      for (const std::string gemm : {"s", "pv"}) {
        if (overlapModulo(exp, 4, start[opNamed(fa, gemm + b)], 4, ii)) pingPong = true;
      }
    }
  }
  CHECK(sBeforeO);
  CHECK(pingPong);
  const auto& warps = *solution.result.schedule->warps;
  CHECK(warps[opNamed(fa, "load_k")] == WarpSet{1});
  CHECK(warps[opNamed(fa, "load_v")] == WarpSet{1});
  CHECK(solution.twill.assignment.warpsUsed == 3);
  CHECK(solution.twill.assignment.warpsProvenMinimal);
  CHECK(solution.result.verification->ok());
  CHECK_THAT(solution.twill.explanation.text, Catch::Contains("ResMII: unit TC"));
}

TEST_CASE("twill FA forward (Blackwell, two sub-tiles): I* = 16 and the roles found",
          "[exact][twill]") {
  // TC and EXP both need 16 units per iteration (B200's tensor cores are 2x Hopper's, its exp
  // units are not), so I* = 16. The target is FA4's five roles (load, MMA, two softmax groups,
  // correction); this cost model gets four warps, proven minimal (docs/exact.md says why and
  // what the cost model would need for five). The ablations follow as separate cases:
  // - fewer warps: 3 warps (one load warp and two compute warps);
  // - no sub-tiling: one tile of twice the rows (its own smallest modulo-feasible I);
  // - no cross-warp communication: every fixed-latency op's spill cost above any L tried.
  const auto fa = test::loadKernel("fa_fwd_blackwell");
  const TwillSolution solution = solve(fa);
  REQUIRE(solution.result.status == ModelStatus::kOptimal);
  CHECK(*solution.ii() == 16);
  CHECK(solution.twill.assignment.warpsUsed == 4);
  CHECK(solution.twill.assignment.warpsProvenMinimal);
  CHECK(solution.twill.assignment.roles.size() == 4);
  const auto& warps = *solution.result.schedule->warps;
  CHECK(warps[opNamed(fa, "load_k")] == WarpSet{1});
  CHECK(warps[opNamed(fa, "load_v")] == WarpSet{1});
  CHECK(solution.result.verification->ok());
}

// The three ablations of TWILL.md, each UNSAT in the paper at the smallest modulo-feasible I of
// the kernel it runs on (16 for the two-sub-tile kernel: TC and EXP both need 16 units per
// iteration); each test says what the search here proves of it.
TEST_CASE("twill FA Blackwell ablation: 3 warps are UNSAT at I = 16 within the MILP's stages",
          "[exact][twill][.slow]") {
  // The paper's ablation: Algorithm 1 finds nothing at I = 16 on 3 warps (L 32, the MILP's two
  // stages). The search here cannot decide I = 16 for every L: beyond the stages the models
  // carry the register rows and their checks time out (L 160 after L 48, 64 and 96 are
  // refuted), and the relaxation without registers and memory has a schedule at its sufficient
  // L, so what rules 3 warps out involves registers or memory and no proof for every L follows
  // from it. The answer is therefore a timeout, not infeasible.
  const auto fa = test::loadKernel("fa_fwd_blackwell");
  const std::int32_t smallest = smallestModuloFeasibleIi(fa);
  CHECK(smallest == 16);
  TwillOptions options;
  options.search.maxIi = smallest;
  options.search.warps = 3;
  const TwillSolution solution = solve(fa, options);
  CHECK(refutedAtStageLimit(solution));
  CHECK(std::any_of(
      solution.result.attempts.begin(), solution.result.attempts.end(), [](const Attempt& attempt) {
        return attempt.detail.find("without registers and memory") != std::string::npos &&
               attempt.status == ModelStatus::kFeasible;
      }));
  CHECK(solution.result.status == ModelStatus::kTimeout);
}

TEST_CASE("twill FA Blackwell ablation: no sub-tiling is UNSAT at its smallest I",
          "[exact][twill][.slow]") {
  const auto single = mergedSubTiles(test::loadKernel("fa_fwd_blackwell"));
  TwillOptions options;
  options.search.maxIi = smallestModuloFeasibleIi(single);
  const TwillSolution solution = solve(single, options);
  CHECK(solution.result.status == ModelStatus::kInfeasible);
}

TEST_CASE(
    "twill FA Blackwell ablation: no cross-warp communication is UNSAT at I = 16 within the "
    "MILP's stages, and costs four more stages beyond them",
    "[exact][twill][.slow]") {
  // The paper's ablation: a spill cost of 64 makes every cross-warp edge too slow for the
  // MILP's two stages (L 32 at I 16), so Algorithm 1 finds nothing at I 16. The search here
  // also tries larger L (goBeyondStages) and finds the 64-cycle spills affordable at L 96,
  // six stages; L 95 is refuted, so 96 is the least L at I 16.
  const auto fa = test::loadKernel("fa_fwd_blackwell");
  TwillOptions options;
  options.search.maxIi = smallestModuloFeasibleIi(fa);
  const TwillSolution solution = solve(withSpillCost(fa, 64), options);
  CHECK(refutedAtStageLimit(solution));
  REQUIRE(solution.result.status == ModelStatus::kOptimal);
  CHECK(*solution.ii() == 16);
  CHECK(scheduleLatency(*fa.graph, solution.result.schedule->start) == 96);
  CHECK(solution.result.verification->ok());
}

TEST_CASE("twill search: a blocking wait pushes II above MII, and the explanation says why",
          "[exact][twill]") {
  // c holds the ALU 3 cycles (MII = 3); b waits on a blocking synchronization from a. With one
  // warp, b would issue while c executes at every residue of II = 3, so II = 3 is UNSAT for
  // every L; at II = 4 c leaves one residue free. Expected: II = 4, and the explanation blames
  // blocking-concurrency for II = 3.
  Machine machine;
  machine.name = "one_warp";
  const ResourceId alu = machine.addResource("ALU", 1);
  GraphBuilder builder("blocking_pushes_ii");
  const OpId a = builder.addOp("a", 1);
  const OpId b = builder.addOp("b", 1);
  const OpId c = builder.addOp("c", 3);
  builder.addReservation(c, {alu, 0, 3, 1});
  builder.setEdgeBlocking(builder.addEdge(a, b, 1, 0), true);
  const auto instance = test::makeInstance(std::move(builder), machine);
  TwillOptions options;
  options.explain.enabled = true;
  const TwillSolution solution = solve(instance, options);
  REQUIRE(solution.result.status == ModelStatus::kOptimal);
  CHECK(solution.twill.iiBound.mii == 3);
  CHECK(*solution.ii() == 4);
  REQUIRE(solution.twill.explanation.iiFailures.size() == 1);
  CHECK(solution.twill.explanation.iiFailures[0].first == 3);
  CHECK_THAT(solution.twill.explanation.iiFailures[0].second,
             Catch::Contains("blocking-concurrency"));
  CHECK_THAT(solution.twill.explanation.iiBinding, Catch::Contains("warp constraints"));
}

TEST_CASE("twill search: nothing satisfiable up to the bound names the blocking family",
          "[exact][twill]") {
  // a's value needs 300 registers for at least one cycle (a -> b, delay 1) but a warp holds
  // 240: no II up to the non-overlapped bound helps, and the message must say register-limit.
  Machine machine;
  machine.name = "small_registers";
  machine.addResource("ALU", 1);
  machine.warps = 2;
  machine.registerLimit = 240;
  GraphBuilder builder("too_many_registers");
  const OpId a = builder.addOp("a", 1);
  builder.addReservation(a, {0, 0, 1, 1});
  builder.setRegs(a, 300);
  const OpId b = builder.addOp("b", 1);
  builder.addEdge(a, b, 1, 0);
  const auto instance = test::makeInstance(std::move(builder), machine);
  const TwillSolution solution = solve(instance);
  CHECK(solution.result.status == ModelStatus::kInfeasible);
  CHECK_THAT(solution.result.message, Catch::Contains("register-limit"));
  CHECK_FALSE(solution.result.schedule);
  // Every II from MII to the bound was tried and logged.
  CHECK(std::count_if(solution.result.attempts.begin(), solution.result.attempts.end(),
                      [](const Attempt& attempt) { return attempt.phase == "smt"; }) >= 1);
}

TEST_CASE("ilp through the registry: latency and modulo problems, options checked",
          "[exact][registry]") {
  MethodRegistry registry;
  registerExactMethods(registry);
  const auto toy = test::loadKernel("toy_fa");
  // Latency: S, P, O in a chain of 1-cycle ops: L = 3. Modulo: II = 2 (TWILL.md toy).
  const Result latency = registry.run("ilp", toy.problem(ProblemKind::kLatency), {});
  REQUIRE(latency.status == ModelStatus::kOptimal);
  CHECK(latency.verified());
  CHECK(*latency.objective == 3);
  const Result modulo = registry.run("ilp", toy.problem(ProblemKind::kModulo),
                                     {{"milp_model", "stage-residue"}, {"search_from", "1"}});
  REQUIRE(modulo.status == ModelStatus::kOptimal);
  CHECK(modulo.verified());
  CHECK(*modulo.objective == 2);
  // II = 1 infeasible, II = 2 optimal.
  REQUIRE(modulo.attempts.size() == 2);
  CHECK(modulo.attempts[0].status == ModelStatus::kInfeasible);
  CHECK(modulo.attempts[1].status == ModelStatus::kOptimal);
  const Result typo = registry.run("ilp", toy.problem(ProblemKind::kModulo), {{"milp_modle", "x"}});
  CHECK(typo.failed());
  CHECK_THAT(typo.message,
             Catch::Contains("unknown option 'milp_modle' (did you mean 'milp_model'?)"));
  const Result bad = registry.run("ilp", toy.problem(ProblemKind::kModulo), {{"normalize", "yes"}});
  CHECK(bad.failed());
  CHECK_THAT(bad.message, Catch::Contains("'normalize' expects off, on or auto, got 'yes'"));
}
