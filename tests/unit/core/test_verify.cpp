#include <catch2/catch.hpp>

#include <gaus/core/verify.hpp>

#include "toy_graphs.hpp"

using namespace gaus;

namespace {

Schedule moduloSchedule(std::vector<Cycle> start, std::int32_t ii) {
  Schedule schedule;
  schedule.start = std::move(start);
  schedule.ii = ii;
  return schedule;
}

// A machine with two warps, warp 0 the variable-latency warp, a register limit of 100 per warp
// and 64 bytes of shared memory: the stage for the warp-specialization families.
Machine warpMachine() {
  Machine machine;
  machine.name = "warps";
  machine.addResource("TC", 1);
  machine.addResource("TMA", 1);
  machine.memories.push_back({"smem", 64});
  machine.warps = 2;
  machine.registerLimit = 100;
  machine.variableLatencyWarp = 0;
  return machine;
}

}  // namespace

TEST_CASE("toy FA: S:0 P:2 O:3 at II 2 verifies with L 4 and 2 stages", "[core][verify]") {
  const auto toy = test::toyFlashAttention();
  const auto report = verify(toy.problem(ProblemKind::kModulo), moduloSchedule({0, 2, 3}, 2));
  INFO(report.summary());
  REQUIRE(report.ok());
  CHECK(report.metrics.latency == 4);
  CHECK(report.metrics.stages == 2);
  CHECK(report.metrics.peakUsage == std::vector<std::int64_t>{1, 1});
}

TEST_CASE("toy FA: S:0 P:1 O:2 at II 2 clashes on TC at cycle 0 mod 2", "[core][verify]") {
  // O at cycle 2 and S at cycle 0 both hold the single tensor core at residue 0.
  const auto toy = test::toyFlashAttention();
  const auto report = verify(toy.problem(ProblemKind::kModulo), moduloSchedule({0, 1, 2}, 2));
  REQUIRE_FALSE(report.ok());
  CHECK(report.count(ConstraintFamily::kResource) == 1);
  CHECK(report.totalViolations == 1);
  CHECK_THAT(report.violations[0].message,
             Catch::Contains("resource TC") && Catch::Contains("cycle 0 (mod II=2)") &&
                 Catch::Contains("2 units in use > capacity 1") && Catch::Contains("S, O"));
}

TEST_CASE(
    "a unit over ten thousand ops: usage counted exactly at each cycle, in either event order",
    "[core][verify]") {
  // 10,000 one-cycle ops two to a cycle on a unit of capacity 2 (cycles 0..4,999) fill it
  // exactly, and one more op at cycle 1,234 makes 3 there: one violation, at that cycle, with a
  // peak of 3. 20,002 interval events over 5,000 cycles are put in order by counting
  // (usage_profile.hpp); the same ops on a modulo schedule at II 7 fold onto 7 residues (far
  // fewer cycles than events, counting again), and at II 1,000,000,007 each op keeps its cycle
  // but the events lie in a range too wide to count, so they are compared: both fill the unit
  // exactly without the extra op (10,000 / 7 > 2, so only the huge II verifies then).
  Machine machine;
  machine.name = "pair";
  machine.addResource("ALU", 2);
  GraphBuilder builder("many");
  constexpr OpId kFilling = 10000;
  for (OpId op = 0; op <= kFilling; ++op) {
    builder.addReservation(builder.addOp("op" + std::to_string(op), 1), {0, 0, 1, 1});
  }
  const auto instance = test::makeInstance(std::move(builder), machine);
  std::vector<Cycle> start;
  for (OpId op = 0; op < kFilling; ++op) start.push_back(op / 2);
  start.push_back(1234);
  Schedule schedule;
  schedule.start = start;
  const auto acyclic = verify(instance.problem(ProblemKind::kLatency), schedule);
  CHECK(acyclic.count(ConstraintFamily::kResource) == 1);
  CHECK(acyclic.totalViolations == 1);
  CHECK_THAT(acyclic.summary(), Catch::Contains("cycle 1234") && Catch::Contains("3 units"));

  start.pop_back();
  start.push_back(1'000'000'000);  // far from the rest, alone at its cycle
  schedule.start = start;
  schedule.ii = 7;
  CHECK(
      verify(instance.problem(ProblemKind::kModulo), schedule).count(ConstraintFamily::kResource) ==
      7);
  schedule.ii = 1'000'000'007;
  CHECK(verify(instance.problem(ProblemKind::kModulo), schedule).ok());
}

TEST_CASE("toy FA at an II of a billion: verified without a table per residue", "[core][verify]") {
  // A schedule file may carry any II (fuzzing found one of 1,065,746,980 that made the
  // verifier allocate 8 GB). At that II each op holds its unit alone, so S:0 P:1 O:2, which
  // clashes at II 2, verifies; its latency is 3 (O ends at 2 + 1) and its one stage.
  const auto toy = test::toyFlashAttention();
  const auto report =
      verify(toy.problem(ProblemKind::kModulo), moduloSchedule({0, 1, 2}, 1'065'746'980));
  INFO(report.summary());
  REQUIRE(report.ok());
  CHECK(report.metrics.latency == 3);
  CHECK(report.metrics.stages == 1);
}

TEST_CASE("precedence: forward and loop-carried violations name ops, times and numbers",
          "[core][verify]") {
  const auto toy = test::toyFlashAttention();
  SECTION("forward edge P -> O") {
    // II = 3 leaves TC free; O at 2 starts before P (t=2) + 1.
    const auto report = verify(toy.problem(ProblemKind::kModulo), moduloSchedule({0, 2, 2}, 3));
    REQUIRE(report.count(ConstraintFamily::kPrecedence) == 1);
    CHECK_THAT(
        report.violations[0].message,
        Catch::Contains("P (t=2, d=1) -> O (t=2), δ=0, II=3") && Catch::Contains("at or after 3"));
  }
  SECTION("loop-carried edge is checked only with an II") {
    // Chain with an extra back edge d -> a of delay 10, distance 1.
    GraphBuilder builder;
    builder.addOp("a", 1);
    builder.addOp("b", 1);
    builder.addEdge(0, 1, 1, 0);
    builder.addEdge(1, 0, 10, 1);
    const auto instance = test::makeInstance(std::move(builder), Machine{});
    Schedule acyclic;
    acyclic.start = {0, 1};
    CHECK(verify(instance.problem(ProblemKind::kLatency), acyclic).ok());
    // With II = 5: a of the next iteration starts at 0 + 5 < 1 + 10.
    const auto report = verify(instance.problem(ProblemKind::kModulo), moduloSchedule({0, 1}, 5));
    CHECK(report.count(ConstraintFamily::kPrecedence) == 1);
    CHECK(verify(instance.problem(ProblemKind::kModulo), moduloSchedule({0, 1}, 11)).ok());
  }
}

TEST_CASE("horizon: an op completing after D is reported", "[core][verify]") {
  const auto chain = test::chainOfFour();
  Schedule schedule;
  schedule.start = {0, 1, 3, 6};  // completes at 7
  CHECK(verify(chain.problem(ProblemKind::kLatencyBounded, 7), schedule).ok());
  const auto report = verify(chain.problem(ProblemKind::kLatencyBounded, 6), schedule);
  REQUIRE(report.count(ConstraintFamily::kHorizon) == 1);
  CHECK_THAT(report.violations[0].message,
             Catch::Contains("d (t=6, duration 1) completes at 7 > D=6"));
}

TEST_CASE("resources: multi-cycle blocks, acyclic and wrapping modulo II", "[core][verify]") {
  Machine machine;
  machine.addResource("MUL", 1);
  GraphBuilder builder;
  const OpId x = builder.addOp("x", 3);
  builder.addReservation(x, {0, 0, 3, 1});  // busy 3 cycles
  const OpId y = builder.addOp("y", 1);
  builder.addReservation(y, {0, 0, 1, 1});
  const auto instance = test::makeInstance(std::move(builder), machine);
  Schedule schedule;
  schedule.start = {0, 2};  // y at cycle 2 overlaps x's third cycle
  auto report = verify(instance.problem(ProblemKind::kLatency), schedule);
  CHECK(report.count(ConstraintFamily::kResource) == 1);
  schedule.start = {0, 3};
  CHECK(verify(instance.problem(ProblemKind::kLatency), schedule).ok());
  // At II = 4, x holds residues 0,1,2 and y at 3 is free; at II = 3 x holds every residue.
  CHECK(verify(instance.problem(ProblemKind::kModulo), moduloSchedule({0, 3}, 4)).ok());
  report = verify(instance.problem(ProblemKind::kModulo), moduloSchedule({0, 3}, 3));
  CHECK(report.count(ConstraintFamily::kResource) == 1);
  // x starting at 2 with II = 4 wraps: residues 2, 3, 0; y at 5 (residue 1) fits.
  CHECK(verify(instance.problem(ProblemKind::kModulo), moduloSchedule({2, 5}, 4)).ok());
  report = verify(instance.problem(ProblemKind::kModulo), moduloSchedule({2, 4}, 4));
  CHECK(report.count(ConstraintFamily::kResource) == 1);
}

TEST_CASE("shape: wrong number of starts and negative starts", "[core][verify]") {
  const auto chain = test::chainOfFour();
  Schedule shortSchedule;
  shortSchedule.start = {0, 1};
  auto report = verify(chain.problem(ProblemKind::kLatency), shortSchedule);
  CHECK(report.count(ConstraintFamily::kShape) == 1);
  Schedule negative;
  negative.start = {-1, 1, 3, 6};
  report = verify(chain.problem(ProblemKind::kLatency), negative);
  CHECK(report.count(ConstraintFamily::kShape) == 1);
  CHECK_THAT(report.summary(), Catch::Contains("negative cycle -1"));
}

namespace {

// load (TMA, variable latency, streaming) -> mma (TC, regs 60, spill 2) -> epi (TC, regs 60).
Instance warpInstance(bool blockingEdge = false) {
  Machine machine = warpMachine();
  GraphBuilder builder("warp_case");
  OpAttributes load;
  load.name = "load";
  load.latency = 4;
  load.reservation = {{1, 0, 1, 1}};
  load.variableLatency = true;
  load.footprints = {{0, 32}};
  const OpId l = builder.addOp(load);
  OpAttributes mma;
  mma.name = "mma";
  mma.latency = 2;
  mma.reservation = {{0, 0, 2, 1}};
  mma.regs = 60;
  mma.spillCost = 2;
  const OpId m = builder.addOp(mma);
  OpAttributes epi;
  epi.name = "epi";
  epi.latency = 1;
  epi.reservation = {{0, 0, 1, 1}};
  epi.regs = 60;
  const OpId e = builder.addOp(epi);
  builder.addEdge(l, m);
  const EdgeId me = builder.addEdge(m, e);
  const OpId extra = builder.addOp("extra", 1);
  builder.addEdge(e, extra, 1, 0);
  if (blockingEdge) builder.setEdgeBlocking(me, true);
  return test::makeInstance(std::move(builder), machine);
}

Schedule warpSchedule(std::vector<Cycle> start, std::vector<WarpSet> warps) {
  Schedule schedule;
  schedule.start = std::move(start);
  schedule.ii = 10;
  schedule.warps = std::move(warps);
  return schedule;
}

}  // namespace

TEST_CASE("warp families: a legal warp-specialized schedule verifies", "[core][verify]") {
  const auto instance = warpInstance();
  // load on warp 0 (the VL warp), the rest on warp 1. mma -> epi on one warp: no spill.
  const auto report = verify(instance.problem(ProblemKind::kModuloWarp),
                             warpSchedule({0, 4, 6, 7}, {0b01, 0b10, 0b10, 0b10}));
  INFO(report.summary());
  CHECK(report.ok());
}

TEST_CASE("warp families: an op on several warps takes an aligned warp group", "[core][verify]") {
  // One op on 4 warps and one on 2, on 8 warps without a variable-latency warp. Aligned groups
  // start at a multiple of their size: {4..7} and {2,3} verify; {2..5} and {1,2} are 4 and 2
  // consecutive warps that start off the multiple, and {0,2} is not consecutive.
  Machine machine;
  machine.name = "eight";
  machine.addResource("TC", 1);
  machine.warps = 8;
  GraphBuilder builder("groups");
  builder.setMinWarps(builder.addOp("quad", 1), 4);
  builder.setMinWarps(builder.addOp("pair", 1), 2);
  const auto instance = test::makeInstance(std::move(builder), machine);
  const auto problem = instance.problem(ProblemKind::kModuloWarp);
  auto placed = [](WarpSet quad, WarpSet pair) {
    Schedule schedule;
    schedule.start = {0, 0};
    schedule.ii = 1;
    schedule.warps = std::vector<WarpSet>{quad, pair};
    return schedule;
  };
  CHECK(verify(problem, placed(0xF0, 0b1100)).ok());
  const auto shifted = verify(problem, placed(0b111100, 0b110));
  CHECK(shifted.count(ConstraintFamily::kWarpAssignment) == 2);
  CHECK_THAT(shifted.summary(), Catch::Contains("op quad is on warps {2,3,4,5}, which are not an "
                                                "aligned warp group (4 consecutive warps, the "
                                                "first a multiple of 4)"));
  CHECK(verify(problem, placed(0xF, 0b101)).count(ConstraintFamily::kWarpAssignment) == 1);
}

TEST_CASE("warp families: one violation per family", "[core][verify]") {
  const auto instance = warpInstance();
  const auto problem = instance.problem(ProblemKind::kModuloWarp);
  SECTION("warp assignment: two warps for an op with min_warps 1, and a warp out of range") {
    const auto report = verify(problem, warpSchedule({0, 4, 6, 7}, {0b01, 0b11, 0b10, 0b100}));
    CHECK(report.count(ConstraintFamily::kWarpAssignment) == 2);
  }
  SECTION("variable latency: the load off the VL warp, and a fixed op on it") {
    const auto report = verify(problem, warpSchedule({0, 4, 6, 7}, {0b10, 0b10, 0b10, 0b01}));
    CHECK(report.count(ConstraintFamily::kVariableLatency) == 2);
  }
  SECTION("register limit: two 60-register values live together on one warp, 120 > 100") {
    // a -> sinkA and b -> sinkB, all on warp 1 (warp 0 is reserved for variable latency).
    Machine machine = warpMachine();
    GraphBuilder builder;
    OpAttributes value;
    value.latency = 1;
    value.regs = 60;
    value.name = "a";
    builder.addOp(value);
    value.name = "b";
    builder.addOp(value);
    builder.addOp("sinkA", 1);
    builder.addOp("sinkB", 1);
    builder.addEdge(0, 2);
    builder.addEdge(1, 3);
    const auto regs = test::makeInstance(std::move(builder), machine);
    const auto problem2 = regs.problem(ProblemKind::kModuloWarp);
    const std::vector<WarpSet> warps{0b10, 0b10, 0b10, 0b10};
    // a lives [0, 5), b lives [1, 5): 120 registers on warp 1 during cycles 1..4.
    const auto report = verify(problem2, warpSchedule({0, 1, 5, 5}, warps));
    CHECK(report.count(ConstraintFamily::kRegisterLimit) == 1);
    CHECK_THAT(report.summary(), Catch::Contains("warp 1 holds 120 registers"));
    // a lives [0, 1), b lives [1, 2): never together.
    CHECK(verify(problem2, warpSchedule({0, 1, 1, 2}, warps)).ok());
  }
  SECTION("memory capacity: load's 32 bytes in a ring of three buffers > 64") {
    // load at 0, its consumer mma at 25: live 25 cycles at II = 10 -> ceil(25 / 10) = 3 buffers
    // of 32 bytes: 96 > 64.
    const auto report = verify(problem, warpSchedule({0, 25, 27, 28}, {0b01, 0b10, 0b10, 0b10}));
    CHECK(report.count(ConstraintFamily::kMemoryCapacity) == 1);
    CHECK_THAT(report.summary(), Catch::Contains("memory smem") &&
                                     Catch::Contains("rings hold 96 > capacity 64") &&
                                     Catch::Contains("load 3 x 32"));
  }
  SECTION("spill delay: mma -> epi across warps needs 2 + 2 cycles") {
    // Two non-VL warps are needed: use a 3-warp machine.
    Machine machine = warpMachine();
    machine.warps = 3;
    const auto rebound = rebindMachine(instance, machine);
    REQUIRE(rebound.ok());
    const auto report = verify(rebound->problem(ProblemKind::kModuloWarp),
                               warpSchedule({0, 4, 7, 8}, {0b001, 0b010, 0b100, 0b100}));
    REQUIRE(report.count(ConstraintFamily::kSpillDelay) == 1);
    CHECK_THAT(report.summary(), Catch::Contains("spill cost 2") && Catch::Contains("after 8"));
    CHECK(verify(rebound->problem(ProblemKind::kModuloWarp),
                 warpSchedule({0, 4, 8, 9}, {0b001, 0b010, 0b100, 0b100}))
              .ok());
  }
}

TEST_CASE("blocking concurrency: a blocking wait while another op executes on its warp",
          "[core][verify]") {
  const auto instance = warpInstance(true);
  const auto problem = instance.problem(ProblemKind::kModuloWarp);
  // epi (blocking in-edge from mma) issues at 6; extra is on the same warp. With II = 10 and
  // mma at 5 busy for 2 cycles (5, 6), epi waiting at 6 overlaps mma -> violation. mma -> epi
  // delay 2 means epi >= 7 anyway; use epi at 7 with extra at 17 = 7 mod 10 -> extra's window
  // (1 cycle, no reservation) covers 7 mod 10.
  const auto report = verify(problem, warpSchedule({0, 5, 7, 17}, {0b01, 0b10, 0b10, 0b10}));
  CHECK(report.count(ConstraintFamily::kBlockingConcurrency) == 1);
  CHECK_THAT(report.summary(), Catch::Contains("epi waits on a blocking synchronization"));
  CHECK(verify(problem, warpSchedule({0, 5, 7, 8}, {0b01, 0b10, 0b10, 0b10})).ok());
}

TEST_CASE("warp issue: a warp executes one op per cycle when the machine says so",
          "[core][verify]") {
  // The legal schedule: on warp 1 mma at 4 (2 cycles of TC: 4, 5), epi at 6, extra at 7 (1
  // cycle each), II 10. Moving extra to 14 = 4 mod 10 puts it on mma's first cycle: two ops
  // executing on warp 1 at cycle 4, one violation with width 1, none without a width (Twill's
  // paper lets them overlap) or with width 2. (epi's value then lives [6, 14), residues 6-3,
  // clear of mma's 4-5, so the registers stay within the limit.)
  const auto instance = warpInstance();
  const Schedule overlapping = warpSchedule({0, 4, 6, 14}, {0b01, 0b10, 0b10, 0b10});
  CHECK(verify(instance.problem(ProblemKind::kModuloWarp), overlapping).ok());
  for (const std::int32_t width : {1, 2}) {
    Machine machine = warpMachine();
    machine.warpIssueWidth = width;
    const auto rebound = rebindMachine(instance, machine);
    REQUIRE(rebound.ok());
    const Problem problem = rebound->problem(ProblemKind::kModuloWarp);
    const auto report = verify(problem, overlapping);
    CHECK(report.count(ConstraintFamily::kWarpIssue) == (width == 1 ? 1 : 0));
    if (width == 1) {
      CHECK_THAT(report.summary(), Catch::Contains("warp 1 executes 2 ops at cycle 4") &&
                                       Catch::Contains("mma (t=4, 2 cycles)"));
    }
    CHECK(verify(problem, warpSchedule({0, 4, 6, 7}, {0b01, 0b10, 0b10, 0b10})).ok());
  }
}

TEST_CASE("stage problems: same stage allowed, one failing case per family", "[core][verify]") {
  // a -> b -> c with delay 3 edges and latency-2 ops as read; posed as a stage problem with
  // D = 2 (Instance::problem rebuilds it with delay-0 edges and latency-1 ops), a stage schedule
  // needs only s_a <= s_b <= s_c and every stage in {0, 1}.
  GraphBuilder builder("chain");
  for (const char* name : {"a", "b", "c"}) builder.addOp(name, 2);
  builder.addEdge(0, 1, 3, 0);
  builder.addEdge(1, 2, 3, 0);
  auto graph = std::move(builder).build();
  REQUIRE(graph.ok());
  Instance instance;
  instance.graph = std::make_shared<const Graph>(std::move(graph).value());
  instance.machine = std::make_shared<const Machine>();
  const Problem problem = instance.problem(ProblemKind::kStages, 2);
  REQUIRE(problem.check().empty());
  const auto stages = [](std::vector<Cycle> start) { return Schedule{std::move(start), {}, {}}; };

  CHECK(verify(problem, stages({0, 0, 0})).ok());  // one stage holds all: same stage allowed
  CHECK(verify(problem, stages({0, 1, 1})).ok());
  // b in stage 0 after a in stage 1: one precedence violation, naming both stages.
  const auto order = verify(problem, stages({1, 0, 1}));
  CHECK(order.count(ConstraintFamily::kPrecedence) == 1);
  REQUIRE_FALSE(order.violations.empty());
  CHECK(order.violations.front().message.find("a (stage 1) -> b (stage 0)") != std::string::npos);
  // Stage 2 of D = 2 (stages 0 and 1): out of range.
  const auto range = verify(problem, stages({0, 1, 2}));
  CHECK(range.count(ConstraintFamily::kHorizon) == 1);
  CHECK(range.count(ConstraintFamily::kPrecedence) == 0);
}

namespace {

// The seed-3884 rings (toy_graphs.hpp) on one warp with `smemBytes` of shared memory.
Instance ringInstance(std::int64_t smemBytes) {
  Machine machine;
  machine.name = "one_warp";
  machine.memories.push_back({"smem", smemBytes});
  return test::ringsOfSeed3884(std::move(machine));
}

}  // namespace

TEST_CASE(
    "memory of a modulo-warp problem: each consumed value holds max(1, ceil(lifetime / II)) "
    "buffers",
    "[core][verify]") {
  // At II 1 with x:0, cx:0, y:0, cy:2, all on warp 0: y's value lives 2 cycles, so two of its
  // iterations are in flight, 2 buffers; x's value is read in the cycle it is made (lifetime
  // 0) and still takes 1 buffer. The rings hold 1 + 2 = 3 bytes.
  Schedule schedule = moduloSchedule({0, 0, 0, 2}, 1);
  schedule.warps = std::vector<WarpSet>{0b1, 0b1, 0b1, 0b1};
  SECTION("capacity 2: the rings do not fit") {
    const auto instance = ringInstance(2);
    const auto report = verify(instance.problem(ProblemKind::kModuloWarp), schedule);
    CHECK(report.count(ConstraintFamily::kMemoryCapacity) == 1);
    CHECK(report.totalViolations == 1);
    CHECK_THAT(report.summary(), Catch::Contains("rings hold 3 > capacity 2") &&
                                     Catch::Contains("x 1 x 1, y 2 x 1") &&
                                     Catch::Contains("II=1"));
  }
  SECTION("capacity 3: they fit") {
    const auto instance = ringInstance(3);
    const auto report = verify(instance.problem(ProblemKind::kModuloWarp), schedule);
    INFO(report.summary());
    CHECK(report.ok());
  }
  SECTION("a plain modulo problem counts the footprints live at each residue: 2 fit in 2") {
    // Folded modulo 1, y's [0, 2) covers residue 0 twice and x's empty interval never: 2 bytes.
    const auto instance = ringInstance(2);
    Schedule plain = moduloSchedule({0, 0, 0, 2}, 1);
    const auto report = verify(instance.problem(ProblemKind::kModulo), plain);
    INFO(report.summary());
    CHECK(report.ok());
    // And 1 byte does not hold y's two live copies.
    const auto smaller = ringInstance(1);
    const auto tight = verify(smaller.problem(ProblemKind::kModulo), plain);
    CHECK(tight.count(ConstraintFamily::kMemoryCapacity) == 1);
    CHECK_THAT(tight.summary(), Catch::Contains("2 live > capacity 1"));
  }
}

TEST_CASE("register file: the warp groups' setmaxnreg counts times 128 threads fit the SM",
          "[core][verify]") {
  // test::registerFileLoop: ops a, ra, b, rb, c, rc; a, b and c hold 200 registers per thread
  // each, 4 warps of 128 threads (a warp group each), a file of 65,536.
  const auto instance = test::registerFileLoop();
  const Problem problem = instance.problem(ProblemKind::kModuloWarp);
  const auto scheduleOf = [](std::vector<Cycle> start, std::int32_t ii,
                             std::vector<WarpSet> warps) {
    Schedule schedule = moduloSchedule(std::move(start), ii);
    schedule.warps = std::move(warps);
    return schedule;
  };
  // The free optimum, II 1: each value with its reader on a warp of its own (one 200-register
  // value per warp is within register_limit 255): 3 x 200 x 128 = 76,800 > 65,536.
  const Schedule free = scheduleOf({0, 1, 0, 1, 0, 1}, 1, {1, 1, 2, 2, 4, 4});
  const auto refused = verify(problem, free);
  CHECK(refused.count(ConstraintFamily::kRegisterFile) == 1);
  CHECK(refused.totalViolations == 1);
  CHECK_THAT(refused.summary(),
             Catch::Contains("the warp groups need (200 + 200 + 200) x 128 threads = 76800 "
                             "registers, more than the register file of machine register_file "
                             "(65536)"));
  // Twill's answer within the file, II 2: a (residue 0) and b (residue 1) on warp 0, c on warp
  // 1: (200 + 200) x 128 = 51,200.
  const Schedule within = scheduleOf({0, 1, 1, 2, 0, 1}, 2, {1, 1, 1, 1, 2, 2});
  CHECK(verify(problem, within).ok());
  // A reader alone on warp 2 takes setmaxnreg's least, 24: (200 + 200 + 24) x 128 = 54,272.
  CHECK(verify(problem, scheduleOf({0, 1, 1, 2, 0, 1}, 2, {1, 1, 1, 1, 2, 4})).ok());
  // Without a register file on the machine nothing is checked: the free optimum verifies.
  Machine unknown = *instance.machine;
  unknown.registerFile.reset();
  const auto rebound = rebindMachine(instance, unknown);
  REQUIRE(rebound.ok());
  CHECK(verify(rebound->problem(ProblemKind::kModuloWarp), free).ok());

  // On warps of 32 threads four warps make a warp group, and the rule counts the values of all
  // its warps together (a bound on the most any role of the group holds): a, b and c on warps
  // 0-2 hold 600 per thread at residue 0, more than the 256 setmaxnreg gives, and 600 x 128 is
  // over the file; on warps 0, 4 and 8, one warp group each, 3 x 200 x 128 = 76,800 is over the
  // file as above.
  Machine warps32 = *instance.machine;
  warps32.warps = 12;
  warps32.threadsPerWarp = 32;
  const auto narrow = rebindMachine(instance, warps32);
  REQUIRE(narrow.ok());
  const Problem narrowProblem = narrow->problem(ProblemKind::kModuloWarp);
  const auto oneGroup = verify(narrowProblem, free);
  CHECK(oneGroup.count(ConstraintFamily::kRegisterFile) == 2);
  CHECK_THAT(oneGroup.summary(),
             Catch::Contains("warp group 0 (warps {0,1,2,3}): the values on its warps hold 600 "
                             "registers per thread at once, more than setmaxnreg gives a warp "
                             "group (256)") &&
                 Catch::Contains("(600) x 128 threads = 76800 registers"));
  const auto threeGroups = verify(
      narrowProblem, scheduleOf({0, 1, 0, 1, 0, 1}, 1, {1, 1, 1 << 4, 1 << 4, 1 << 8, 1 << 8}));
  CHECK(threeGroups.count(ConstraintFamily::kRegisterFile) == 1);
  CHECK_THAT(threeGroups.summary(), Catch::Contains("(200 + 200 + 200) x 128 threads = 76800"));
  CHECK(
      verify(narrowProblem, scheduleOf({0, 1, 1, 2, 0, 1}, 2, {1, 1, 1, 1, 1 << 4, 1 << 4})).ok());
}
