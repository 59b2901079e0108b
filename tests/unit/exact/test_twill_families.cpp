// The SMT model, one constraint family at a time: for each family a tiny SAT case (whose
// schedule verifies) and a tiny UNSAT case whose unsat core names the family. Expected answers
// are worked out by hand in each case's comment.
#include <algorithm>
#include <bit>

#include <catch2/catch.hpp>

#include <gaus/core/verify.hpp>
#include <gaus/exact/methods.hpp>
#include <gaus/exact/twill.hpp>
#include <gaus/methods/registry.hpp>

#include "test_support.hpp"
#include "toy_graphs.hpp"

using namespace gaus;
using namespace gaus::exact;

namespace {

bool coreHas(const TwillCheck& check, TwillFamily family) {
  return std::find(check.core.begin(), check.core.end(), family) != check.core.end();
}

// Checks (ii, latency) and, on SAT, that the schedule verifies as a modulo-warp schedule.
TwillCheck checkAndVerify(const Instance& instance, std::int32_t ii, Cycle latency,
                          bool breakSymmetry = true) {
  const Problem problem = instance.problem(ProblemKind::kModuloWarp);
  TwillCheckOptions options;
  options.timeLimitSeconds = test::timeLimit(20.0);
  options.breakSymmetry = breakSymmetry;
  const TwillCheck check = checkTwill(problem, ii, latency, options);
  if (check.status == ModelStatus::kFeasible) {
    REQUIRE(check.schedule);
    const auto report = verify(problem, *check.schedule);
    INFO(report.summary());
    CHECK(report.ok());
  }
  return check;
}

Machine warpMachine(std::int32_t warps, std::optional<std::int32_t> variableLatencyWarp) {
  Machine machine;
  machine.name = "warps";
  machine.addResource("TC", 1);
  machine.addResource("ALU", 1);
  machine.addResource("TMA", 1);
  machine.warps = warps;
  machine.variableLatencyWarp = variableLatencyWarp;
  return machine;
}

}  // namespace

TEST_CASE("SMT dependence: a -> b with delay 3 fits L 4, not L 3", "[exact][twill][families]") {
  // a and b take 1 cycle; b starts >= t(a) + 3 and completes by L: L >= 4.
  GraphBuilder builder("dependence");
  builder.addOp("a", 1);
  builder.addOp("b", 1);
  builder.addEdge(0, 1, 3, 0);
  const auto instance = test::makeInstance(std::move(builder), warpMachine(1, std::nullopt));
  CHECK(checkAndVerify(instance, 4, 4).status == ModelStatus::kFeasible);
  const auto unsat = checkAndVerify(instance, 4, 3);
  REQUIRE(unsat.status == ModelStatus::kInfeasible);
  CHECK(unsat.core == std::vector<TwillFamily>{TwillFamily::kDependence});
}

TEST_CASE("SMT capacity: toy FA fits II 2, not II 1", "[exact][twill][families]") {
  // S and O each hold the single TC for one cycle: they need two residues (TWILL.md toy).
  const auto toy = test::toyFlashAttention();
  CHECK(checkAndVerify(toy, 2, 4).status == ModelStatus::kFeasible);
  const auto unsat = checkAndVerify(toy, 1, 6);
  REQUIRE(unsat.status == ModelStatus::kInfeasible);
  CHECK(unsat.core == std::vector<TwillFamily>{TwillFamily::kCapacity});
}

TEST_CASE("SMT memory: buffers x stages against shared-memory capacity",
          "[exact][twill][families]") {
  // a -> b with delay 3 at II 2: a's value lives >= 3 cycles, i.e. 2 buffers (ceil(3 / 2)). With
  // 40 bytes each 80 > 64: UNSAT; with 30 bytes 60 <= 64: SAT.
  for (std::int64_t bytes : {30, 40}) {
    Machine machine = warpMachine(1, std::nullopt);
    machine.memories.push_back({"smem", 64});
    GraphBuilder builder("memory");
    const OpId a = builder.addOp("a", 1);
    builder.addFootprint(a, {0, bytes});
    builder.addOp("b", 1);
    builder.addEdge(0, 1, 3, 0);
    const auto instance = test::makeInstance(std::move(builder), machine);
    INFO(bytes << " bytes");
    const auto check = checkAndVerify(instance, 2, 5);
    if (bytes == 30) {
      CHECK(check.status == ModelStatus::kFeasible);
    } else {
      REQUIRE(check.status == ModelStatus::kInfeasible);
      // The long life comes from the edge: without the dependence family b could start at
      // once, so the minimal core is {dependence, memory}.
      CHECK(check.core == std::vector<TwillFamily>{TwillFamily::kDependence, TwillFamily::kMemory});
    }
  }
}

TEST_CASE("SMT memory: a value read as it is made still holds a buffer, as the verifier counts",
          "[exact][twill][families]") {
  // The shape of the cross-method check's seed 3884, at II 1: x -> cx with delay 0 (x's value may
  // live 0 cycles, yet holds one buffer) and y -> cy with delay 2 (y's value lives >= 2 cycles:
  // 2 buffers at II 1), one byte each. The rings need 1 + 2 = 3 bytes: capacity 2 is UNSAT,
  // capacity 3 SAT with L = 3 (y at 0, cy at 2). The footprints live at one residue are only 2
  // (x's value is never live), which is why a per-residue count called capacity 2 feasible; the
  // verifier of modulo-warp problems counts the rings, so both say no.
  for (std::int64_t capacity : {2, 3}) {
    Machine machine = warpMachine(1, std::nullopt);
    machine.memories.push_back({"smem", capacity});
    const auto instance = test::ringsOfSeed3884(machine);
    INFO("capacity " << capacity);
    const auto check = checkAndVerify(instance, 1, 3);
    if (capacity == 3) {
      CHECK(check.status == ModelStatus::kFeasible);
    } else {
      REQUIRE(check.status == ModelStatus::kInfeasible);
      CHECK(check.core == std::vector<TwillFamily>{TwillFamily::kDependence, TwillFamily::kMemory});
    }
  }
}

TEST_CASE("SMT warp groups: min_warps 2 takes an aligned pair without the variable-latency warp",
          "[exact][twill][families]") {
  // Warp 0 is the variable-latency warp, which a fixed-latency op may not use. An op on 2 warps
  // takes an aligned pair, {0,1} or {2,3}: among 4 warps it gets {2,3}; among 3 the only pair
  // is {0,1}, which holds warp 0, so the variable-latency family blocks it (warps 1 and 2 are
  // free but not an aligned pair).
  for (std::int32_t warps : {4, 3}) {
    GraphBuilder builder("groups");
    const OpId wide = builder.addOp("wide", 1);
    builder.setMinWarps(wide, 2);
    const auto instance = test::makeInstance(std::move(builder), warpMachine(warps, 0));
    const auto check = checkAndVerify(instance, 1, 1);
    if (warps == 4) {
      REQUIRE(check.status == ModelStatus::kFeasible);
      CHECK((*check.schedule->warps)[0] == WarpSet{0b1100});
    } else {
      REQUIRE(check.status == ModelStatus::kInfeasible);
      CHECK(coreHas(check, TwillFamily::kVariableLatency));
    }
  }
}

TEST_CASE("SMT warp symmetry: warp groups are renamed, never lost", "[exact][twill][families]") {
  // Ops a and b on warp groups of 4, c and d on one warp each, on 16 warps with warp 0 for
  // variable latency: the blocks {4..7}, {8..11} and {12..15} are interchangeable, and so are
  // the warps of a block. a holds TC and c holds ALU at both residues of II 2, and b and d have
  // blocking in-edges from them, so b may not share a warp with a, nor d with c (a blocking op
  // issues only when no other op of its warps executes). Both orders of the model hold at L 2:
  // a schedule exists with or without them. With them, a (op 0) takes the first block in
  // first-use order, {4..7}, and b, which may not share it, the next, {8..11}; c and d can go
  // to several warps (a's block is used by op 0, so its warps are open to later ops).
  GraphBuilder builder("renamed");
  const OpId a = builder.addOp("a", 2);
  const OpId b = builder.addOp("b", 1);
  const OpId c = builder.addOp("c", 2);
  const OpId d = builder.addOp("d", 1);
  builder.setMinWarps(a, 4);
  builder.setMinWarps(b, 4);
  builder.addReservation(a, {0, 0, 2, 1});
  builder.addReservation(c, {1, 0, 2, 1});
  builder.setEdgeBlocking(builder.addEdge(a, b, 0, 0), true);
  builder.setEdgeBlocking(builder.addEdge(c, d, 0, 0), true);
  const auto instance = test::makeInstance(std::move(builder), warpMachine(16, 0));
  for (const bool symmetry : {true, false}) {
    INFO("symmetry " << symmetry);
    const auto check = checkAndVerify(instance, 2, 2, symmetry);
    REQUIRE(check.status == ModelStatus::kFeasible);
    const auto& warps = *check.schedule->warps;
    CHECK((warps[0] & warps[1]) == 0);
    CHECK((warps[2] & warps[3]) == 0);
    if (symmetry) {
      CHECK(warps[0] == WarpSet{0xF0});
      CHECK(warps[1] == WarpSet{0xF00});
    }
  }
}

TEST_CASE("SMT variable latency: loads alone on the variable-latency warp",
          "[exact][twill][families]") {
  // A variable-latency load and a compute op: with 2 warps the load takes warp 0 and the compute
  // warp 1. With 1 warp (the variable-latency one) the compute op has nowhere to go.
  for (std::int32_t warps : {2, 1}) {
    GraphBuilder builder("variable_latency");
    const OpId load = builder.addOp("load", 1);
    builder.setVariableLatency(load, true);
    builder.addReservation(load, {2, 0, 1, 1});
    const OpId compute = builder.addOp("compute", 1);
    builder.addReservation(compute, {0, 0, 1, 1});
    builder.addEdge(load, compute, 1, 0);
    const auto instance = test::makeInstance(std::move(builder), warpMachine(warps, 0));
    const auto check = checkAndVerify(instance, 1, 2);
    if (warps == 2) {
      REQUIRE(check.status == ModelStatus::kFeasible);
      CHECK((*check.schedule->warps)[0] == WarpSet{1});
      CHECK((*check.schedule->warps)[1] == WarpSet{2});
    } else {
      REQUIRE(check.status == ModelStatus::kInfeasible);
      CHECK(coreHas(check, TwillFamily::kVariableLatency));
    }
  }
}

TEST_CASE("SMT register limit: two 100-register values exceed 150 on one warp",
          "[exact][twill][families]") {
  // a and b (100 registers each) feed c; at II 2 and L 3 both values are live in the cycle
  // before c starts. On one warp that is 200 > 150: UNSAT; two warps hold one each: SAT.
  for (std::int32_t warps : {2, 1}) {
    Machine machine = warpMachine(warps, std::nullopt);
    machine.registerLimit = 150;
    GraphBuilder builder("registers");
    const OpId a = builder.addOp("a", 1);
    builder.setRegs(a, 100);
    const OpId b = builder.addOp("b", 1);
    builder.setRegs(b, 100);
    const OpId c = builder.addOp("c", 1);
    builder.addEdge(a, c, 1, 0);
    builder.addEdge(b, c, 1, 0);
    const auto instance = test::makeInstance(std::move(builder), machine);
    const auto check = checkAndVerify(instance, 2, 3);
    if (warps == 2) {
      REQUIRE(check.status == ModelStatus::kFeasible);
      CHECK((*check.schedule->warps)[a] != (*check.schedule->warps)[b]);
    } else {
      REQUIRE(check.status == ModelStatus::kInfeasible);
      // Both values are live together only because c waits for both: the minimal core is
      // {dependence, register-limit}.
      CHECK(check.core ==
            std::vector<TwillFamily>{TwillFamily::kDependence, TwillFamily::kRegisterLimit});
    }
  }
}

TEST_CASE("SMT register file: three 200-register values need two residues within 65,536",
          "[exact][twill][families]") {
  // test::registerFileLoop (derived there): at II 1, L 2 the three values share residue 0 on
  // three warp groups, 3 x 200 x 128 = 76,800 > 65,536: UNSAT. The value is live only because
  // its reader waits a cycle, so the minimal core is {dependence, register-file}. Without the
  // family the same check is SAT, and the verifier refuses its schedule for the file. At II 2 the
  // least L within the file is 3: L 2 is UNSAT for the same reason as II 1.
  const auto instance = test::registerFileLoop();
  const Problem problem = instance.problem(ProblemKind::kModuloWarp);
  const std::vector<TwillFamily> fileCore{TwillFamily::kDependence, TwillFamily::kRegisterFile};
  const auto crowded = checkAndVerify(instance, 1, 2);
  REQUIRE(crowded.status == ModelStatus::kInfeasible);
  CHECK(crowded.core == fileCore);
  const auto sameResidue = checkAndVerify(instance, 2, 2);
  REQUIRE(sameResidue.status == ModelStatus::kInfeasible);
  CHECK(sameResidue.core == fileCore);
  CHECK(checkAndVerify(instance, 2, 3).status == ModelStatus::kFeasible);

  TwillCheckOptions unaware;
  unaware.families = unaware.families.without(TwillFamily::kRegisterFile);
  const TwillCheck free = checkTwill(problem, 1, 2, unaware);
  REQUIRE(free.status == ModelStatus::kFeasible);
  const auto report = verify(problem, *free.schedule);
  CHECK(report.count(ConstraintFamily::kRegisterFile) == 1);
  CHECK(report.totalViolations == 1);
}

TEST_CASE("twill register file: the free optimum II 1 exceeds the file, the answer is II 2, L 3",
          "[exact][twill][families]") {
  // test::registerFileLoop: free, II 1 and L 2 on three warps, which the verifier refuses;
  // within the file II 2 and L 3 on two warps (derived there), what the second search (the one
  // with the family) answers, optimal: II 1 is refuted at every L it tries. Both searches are in
  // the log, the first's SAT at II 1 before the second's refutation of it.
  const auto instance = test::registerFileLoop();
  const Problem problem = instance.problem(ProblemKind::kModuloWarp);
  TwillOptions unaware;
  unaware.smt.families = unaware.smt.families.without(TwillFamily::kRegisterFile);
  const TwillSolution free = solveTwill(problem, unaware);
  REQUIRE(free.ii() == 1);
  CHECK(free.twill.latency == 2);
  CHECK(free.twill.assignment.warpsUsed == 3);
  REQUIRE(free.result.verification);
  CHECK(free.result.verification->count(ConstraintFamily::kRegisterFile) == 1);

  const TwillSolution within = solveTwill(problem);
  INFO(within.result.message);
  for (const auto& attempt : within.result.attempts) UNSCOPED_INFO(attempt.describe());
  REQUIRE(within.result.status == ModelStatus::kOptimal);
  CHECK(within.ii() == 2);
  CHECK(within.twill.latency == 3);
  CHECK(within.twill.assignment.warpsUsed == 2);
  CHECK(within.twill.iiBound.provenMinimal);
  REQUIRE(within.result.verification);
  CHECK(within.result.verification->ok());
  const auto& notes = within.result.notes;
  CHECK(std::any_of(notes.begin(), notes.end(),
                    [](const auto& note) { return note.first == "register file"; }));
  // A machine that names no register file gets the free answer from one search.
  Machine unknown = *instance.machine;
  unknown.registerFile.reset();
  Problem unbounded = problem;
  unbounded.machine = std::make_shared<const Machine>(unknown);
  const TwillSolution plain = solveTwill(unbounded);
  CHECK(plain.ii() == 1);
  CHECK(plain.result.attempts.size() == free.result.attempts.size());
}

TEST_CASE("SMT spill delay: a cross-warp edge pays the producer's spill cost",
          "[exact][twill][families]") {
  // A variable-latency producer (warp 0) feeds a fixed-latency consumer (warp 1): the edge
  // crosses warps, so the consumer starts >= 0 + 1 + 5 = 6 and L >= 7. L = 6 is UNSAT.
  GraphBuilder builder("spill");
  const OpId producer = builder.addOp("producer", 1);
  builder.setVariableLatency(producer, true);
  builder.setSpillCost(producer, 5);
  const OpId consumer = builder.addOp("consumer", 1);
  builder.addEdge(producer, consumer, 1, 0);
  const auto instance = test::makeInstance(std::move(builder), warpMachine(2, 0));
  CHECK(checkAndVerify(instance, 8, 7).status == ModelStatus::kFeasible);
  const auto unsat = checkAndVerify(instance, 8, 6);
  REQUIRE(unsat.status == ModelStatus::kInfeasible);
  CHECK(coreHas(unsat, TwillFamily::kSpillDelay));
}

TEST_CASE("SMT blocking concurrency: a blocking wait cannot share a warp with a full-II op",
          "[exact][twill][families]") {
  // b waits on a blocking synchronization from a; c holds the ALU for 3 cycles, i.e. the whole
  // II = 3, so c is executing at every residue and b may not issue on c's warp. One warp:
  // UNSAT; two warps: SAT with b and c apart.
  for (std::int32_t warps : {2, 1}) {
    GraphBuilder builder("blocking");
    const OpId a = builder.addOp("a", 1);
    const OpId b = builder.addOp("b", 1);
    const OpId c = builder.addOp("c", 3);
    builder.addReservation(c, {1, 0, 3, 1});
    const EdgeId edge = builder.addEdge(a, b, 1, 0);
    builder.setEdgeBlocking(edge, true);
    const auto instance = test::makeInstance(std::move(builder), warpMachine(warps, std::nullopt));
    const auto check = checkAndVerify(instance, 3, 3);
    if (warps == 2) {
      REQUIRE(check.status == ModelStatus::kFeasible);
      CHECK(((*check.schedule->warps)[b] & (*check.schedule->warps)[c]) == 0);
    } else {
      REQUIRE(check.status == ModelStatus::kInfeasible);
      CHECK(check.core == std::vector<TwillFamily>{TwillFamily::kBlockingConcurrency});
    }
  }
}

TEST_CASE("SMT warp issue: two independent ops on one warp need II 2 with one stream",
          "[exact][twill][families]") {
  // a and b take 1 cycle each, no edges, no limited unit: without an issue model both start at
  // cycle 0 of II 1 on the one warp. With one instruction stream (width 1) the warp executes
  // one of them per cycle, so II 1 has one slot for two ops: UNSAT at every L, naming only the
  // new family; II 2 puts them at residues 0 and 1 (L 2). A width of 2 gives II 1 back.
  for (const std::optional<std::int32_t> width :
       {std::optional<std::int32_t>{}, std::optional<std::int32_t>{1},
        std::optional<std::int32_t>{2}}) {
    INFO("width " << width.value_or(0));
    Machine machine = warpMachine(1, std::nullopt);
    machine.warpIssueWidth = width;
    GraphBuilder builder("issue");
    builder.addOp("a", 1);
    builder.addOp("b", 1);
    const auto instance = test::makeInstance(std::move(builder), std::move(machine));
    const auto single = checkAndVerify(instance, 1, 4);
    if (width == 1) {
      REQUIRE(single.status == ModelStatus::kInfeasible);
      CHECK(single.core == std::vector<TwillFamily>{TwillFamily::kWarpIssue});
      const auto two = checkAndVerify(instance, 2, 2);
      REQUIRE(two.status == ModelStatus::kFeasible);
      CHECK(two.schedule->start[0] % 2 != two.schedule->start[1] % 2);
    } else {
      CHECK(single.status == ModelStatus::kFeasible);
    }
  }
}

TEST_CASE("SMT warp issue: an op holds its warp for every cycle of its reservation",
          "[exact][twill][families]") {
  // c reserves the ALU for 3 cycles, d the TC for 1, on one warp with width 1: c's window takes
  // 3 of the warp's slots per II, d one more, so II 3 has 3 slots for 4 (UNSAT, the issue
  // family alone: the units are different and have room) and II 4 fits (c at 0, d at 3 mod 4).
  GraphBuilder builder("window");
  const OpId c = builder.addOp("c", 3);
  builder.addReservation(c, {1, 0, 3, 1});
  const OpId d = builder.addOp("d", 1);
  builder.addReservation(d, {0, 0, 1, 1});
  Machine machine = warpMachine(1, std::nullopt);
  machine.warpIssueWidth = 1;
  const auto instance = test::makeInstance(std::move(builder), std::move(machine));
  const auto tight = checkAndVerify(instance, 3, 6);
  REQUIRE(tight.status == ModelStatus::kInfeasible);
  CHECK(tight.core == std::vector<TwillFamily>{TwillFamily::kWarpIssue});
  const auto fits = checkAndVerify(instance, 4, 4);
  REQUIRE(fits.status == ModelStatus::kFeasible);
  CHECK((fits.schedule->start[d] - fits.schedule->start[c] + 4) % 4 == 3);
}

TEST_CASE("twill warp_issue: the search's II rises from 1 to 2, and the verifier agrees",
          "[exact][twill][families]") {
  // The first case through the whole search: two independent 1-cycle ops on a one-warp machine
  // that names no issue width. Without the option II 1 (MII 1: nothing binds); with it II 2,
  // proven (II 1 is UNSAT by the issue family), and the schedule without the option fails the
  // verifier once the machine has one stream per warp.
  GraphBuilder builder("issue_search");
  builder.addOp("a", 1);
  builder.addOp("b", 1);
  const auto instance = test::makeInstance(std::move(builder), warpMachine(1, std::nullopt));
  const Problem problem = instance.problem(ProblemKind::kModuloWarp);
  const TwillSolution free = solveTwill(problem);
  REQUIRE(free.ii() == 1);
  TwillOptions options;
  options.smt.warpIssue = true;
  const TwillSolution serial = solveTwill(problem, options);
  INFO(serial.result.message);
  REQUIRE(serial.result.status == ModelStatus::kOptimal);
  CHECK(serial.ii() == 2);
  CHECK(serial.twill.iiBound.provenMinimal);
  REQUIRE(serial.result.verification);
  CHECK(serial.result.verification->ok());

  auto oneStream = std::make_shared<Machine>(*problem.machine);
  oneStream->warpIssueWidth = 1;
  Problem posed = problem;
  posed.machine = oneStream;
  const auto report = verify(posed, *free.result.schedule);
  CHECK(report.count(ConstraintFamily::kWarpIssue) == 1);
  CHECK(verify(posed, *serial.result.schedule).ok());
}

TEST_CASE("method twill, warp_issue=true: the registry verifies against one stream per warp",
          "[exact][twill][families]") {
  // As above through MethodRegistry::run, which poses the problem with the option applied
  // (withMachineOptions) and verifies against it: II 2, and the verdict counts the issue family.
  GraphBuilder builder("issue_method");
  builder.addOp("a", 1);
  builder.addOp("b", 1);
  const auto instance = test::makeInstance(std::move(builder), warpMachine(1, std::nullopt));
  MethodRegistry registry;
  registerExactMethods(registry);
  const Problem problem = instance.problem(ProblemKind::kModuloWarp);
  const Result serial = registry.run("twill", problem, {{"warp_issue", "true"}});
  INFO(serial.message);
  REQUIRE(serial.call == CallStatus::kOk);
  REQUIRE(serial.schedule);
  CHECK(serial.schedule->ii == 2);
  REQUIRE(serial.verification);
  CHECK(serial.verification->ok());
  const MethodInfo& twill = *registry.find("twill");
  const auto parsed = twill.parseOptions({{"warp_issue", "true"}}, {});
  REQUIRE(parsed);
  const Problem posed = withMachineOptions(twill, problem, *parsed);
  CHECK(posed.machine->warpIssueWidth == 1);
  // The machine's own width stays: 2 slots per cycle give II 1 back.
  Machine wide = *problem.machine;
  wide.warpIssueWidth = 2;
  Problem widened = problem;
  widened.machine = std::make_shared<const Machine>(wide);
  const Result parallel = registry.run("twill", widened, {{"warp_issue", "true"}});
  REQUIRE(parallel.call == CallStatus::kOk);
  CHECK(parallel.schedule->ii == 1);
}
