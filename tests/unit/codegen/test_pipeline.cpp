// Pipeline expansion on hand-made schedules, every figure derived in the comments: stages,
// roles, rings and their depth, the steady-state order, the instances of prologue, kernel and
// epilogue, and the refusals (no II, a schedule that does not verify, a register split that
// over-subscribes the SM).
#include <algorithm>

#include <catch2/catch.hpp>

#include <gaus/codegen/pipeline.hpp>

#include "codegen_test_support.hpp"
#include "toy_graphs.hpp"

using namespace gaus;
using namespace gaus::codegen;

namespace {

// Toy FA (TWILL.md): S -> P -> O on TC, EXP, TC at the paper's M = {S:0, P:2, O:3}, II 2.
Schedule toyPaperSchedule() {
  Schedule schedule;
  schedule.start = {0, 2, 3};
  schedule.ii = 2;
  return schedule;
}

}  // namespace

TEST_CASE("toy FA without warps: two stages, a TC and an EXP role, two one-slot channels",
          "[codegen][pipeline]") {
  const Instance instance = test::toyFlashAttention();
  const auto pipeline = buildPipeline(instance, toyPaperSchedule());
  INFO((pipeline ? std::string() : pipeline.error()));
  REQUIRE(pipeline);
  // L = O's start 3 + duration 1 = 4; ceil(4 / 2) = 2 stages. MII = max(ResMII 2, RecMII 1).
  CHECK(pipeline->latency == 4);
  CHECK(pipeline->stages == 2);
  CHECK(pipeline->mii == 2);
  CHECK_THAT(pipeline->miiBound, Catch::Contains("ResMII (TC) = 2 >= RecMII"));
  // Default assignment: one role per unit kind, in resource order: TC {S, O}, EXP {P}.
  CHECK(pipeline->roleSource == RoleSource::kDefaultAssignment);
  REQUIRE(pipeline->roles.size() == 2);
  CHECK(pipeline->roles[0].name == "TC");
  CHECK(pipeline->roles[0].ops == std::vector<OpId>{0, 2});
  CHECK(pipeline->roles[1].name == "EXP");
  CHECK(pipeline->roles[1].ops == std::vector<OpId>{1});
  // S -> P and P -> O cross roles: two channels. S lives 2 - 0 = 2 cycles = 1 II; P lives 3 - 2
  // = 1 cycle: one slot each. O -> O stays on TC in registers: no ring.
  REQUIRE(pipeline->rings.size() == 2);
  CHECK(pipeline->rings[0].name == "S");
  CHECK(pipeline->rings[0].lifetime == 2);
  CHECK(pipeline->rings[0].depth == 1);
  CHECK(pipeline->rings[0].consumerRoles == std::vector<std::int32_t>{1});
  CHECK(pipeline->rings[1].name == "P");
  CHECK(pipeline->rings[1].lifetime == 1);
  CHECK(pipeline->rings[1].depth == 1);
  CHECK(pipeline->ringOf == std::vector<std::int32_t>{0, 1, -1});
  // TC issues S (residue 0, stage 0) then O (residue 1, stage 1); EXP issues P (stage 1).
  const auto& tc = pipeline->programs[0];
  REQUIRE(tc.blocks.size() == 2);
  CHECK(tc.blocks[0].op == 0);
  CHECK(tc.blocks[0].stage == 0);
  CHECK(tc.blocks[1].op == 2);
  CHECK(tc.blocks[1].stage == 1);
  CHECK(tc.blocks[1].residue == 1);
  // TC produces S for EXP (a tail), EXP produces P for TC (a tail); nothing is drained since
  // every read has distance 0.
  CHECK(tc.tails == std::vector<std::int32_t>{0});
  CHECK(pipeline->programs[1].tails == std::vector<std::int32_t>{1});
  CHECK(tc.drains.empty());
  // No regs in the graph: no register split.
  CHECK_FALSE(pipeline->roles[0].maxRegisters.has_value());
}

TEST_CASE("toy FA instances: prologue S(0), kernel iterations, epilogue P and O of the last",
          "[codegen][pipeline]") {
  const auto pipeline = buildPipeline(test::toyFlashAttention(), toyPaperSchedule());
  REQUIRE(pipeline);
  // 3 trips, 2 stages: kernel iterations 0..3. k=0 is the prologue (S(0) only, stage 0), k=1,2
  // the kernel, k=3 the epilogue (stage-1 ops of iteration 2). Per role in program order:
  // TC: S0 (k0) | S1, O0 (k1) | S2, O1 (k2) | O2 (k3); EXP: P0 (k1), P1 (k2), P2 (k3).
  const auto instances = expandInstances(*pipeline, 3);
  std::vector<std::string> seen;
  for (const auto& instance : instances) {
    seen.push_back(fmt::format("{}{}{}@{}", instance.role == 0 ? "TC." : "EXP.",
                               instance.op == 0   ? "S"
                               : instance.op == 1 ? "P"
                                                  : "O",
                               instance.iteration, toString(instance.section)));
  }
  CHECK(seen == std::vector<std::string>{"TC.S0@prologue", "TC.S1@kernel", "TC.O0@kernel",
                                         "TC.S2@kernel", "TC.O1@kernel", "TC.O2@epilogue",
                                         "EXP.P0@kernel", "EXP.P1@kernel", "EXP.P2@epilogue"});
  // Cycles: start + iteration * II; O of iteration 2 starts at 3 + 2 * 2 = 7.
  CHECK(instances[5].cycle == 7);
}

TEST_CASE("a ring gets one slot more when its last read and the refill share a cycle",
          "[codegen][pipeline]") {
  // a -> b with distance 1 and delay 0, and a -> b with distance 0; II 2, a:0, b:2 (b's read
  // through the loop-carried edge lives 2 + 2 - 0 = 4 cycles = 2 II). Both on one unit kind but
  // a streaming op goes to the producer role, so a -> b is a channel. b reads fill j - 1 at
  // cycle 2 + 2j; the refill of fill j's slot (depth 2: fill j + 2... ) comes at 2(j + 2) = 2j +
  // 4 > 2j + 2: no tie at depth 2. A tie needs the read at the refill's very cycle: b at 0
  // reading through distance 2 (lifetime 0 + 4 - 0 = 4 = 2 II, depth 2) reads fill j - 2 at
  // cycle 2j, when fill j is written into the same slot; b comes after a in topological order
  // (the distance-0 edge a -> b), so the ring needs 3 slots.
  Machine machine;
  machine.name = "m";
  const ResourceId alu = machine.addResource("ALU", 2);
  machine.addResource("TMA", 1);
  GraphBuilder builder("tie");
  OpAttributes a;
  a.name = "a";
  a.latency = 0;
  a.reservation = {{1, 0, 1, 1}};
  a.variableLatency = true;
  a.streaming = true;
  builder.addOp(a);
  const OpId b = builder.addOp("b", 1);
  builder.addReservation(b, {alu, 0, 1, 1});
  builder.addEdge(0, b, 0, 0);
  builder.addEdge(0, b, 0, 2);
  const Instance instance = test::makeInstance(std::move(builder), machine);
  Schedule schedule;
  schedule.start = {0, 0};
  schedule.ii = 2;
  const auto pipeline = buildPipeline(instance, schedule);
  INFO((pipeline ? std::string() : pipeline.error()));
  REQUIRE(pipeline);
  REQUIRE(pipeline->rings.size() == 1);
  CHECK(pipeline->rings[0].lifetime == 4);
  CHECK(pipeline->rings[0].liveBuffers == 2);
  CHECK(pipeline->rings[0].depth == 3);
  CHECK_THAT(pipeline->rings[0].depthNote, Catch::Contains("b reads fill j-2"));
  // The role reads fill j through distance 0 (first, key cycle 0) and distance 2 (key cycle 4):
  // the distance-0 read waits, always; it releases only when the distance-2 read is absent
  // (fill + 2 >= trips); the distance-2 read never waits and always releases.
  const auto& block = pipeline->programs[1].blocks[0];
  REQUIRE(block.reads.size() == 2);
  const auto readOf = [&](std::int32_t distance) {
    return *std::find_if(block.reads.begin(), block.reads.end(),
                         [&](const RingRead& read) { return read.distance == distance; });
  };
  CHECK(readOf(0).wait.kind == FillSync::Kind::kAlways);
  CHECK(readOf(0).release.kind == FillSync::Kind::kUnlessCovered);
  CHECK(readOf(0).release.coveringDistance == 2);
  CHECK(readOf(2).wait.kind == FillSync::Kind::kNever);
  CHECK(readOf(2).release.kind == FillSync::Kind::kAlways);
}

TEST_CASE("buildPipeline refuses a schedule without II and one that does not verify",
          "[codegen][pipeline]") {
  const Instance instance = test::toyFlashAttention();
  Schedule noIi = toyPaperSchedule();
  noIi.ii.reset();
  const auto refused = buildPipeline(instance, noIi);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error(), Catch::Contains("has no II"));
  // {S:0, P:1, O:2} puts O and S on TC at residue 0 (TWILL.md): the verifier rejects it.
  Schedule clash = toyPaperSchedule();
  clash.start = {0, 1, 2};
  const auto rejected = buildPipeline(instance, clash);
  REQUIRE_FALSE(rejected);
  CHECK_THAT(rejected.error(), Catch::Contains("does not verify"));
}

TEST_CASE("op names become unique C++ identifiers that clash with nothing generated",
          "[codegen][pipeline]") {
  // "int" is a keyword, "1" starts with a digit, "a-b" and "a_b" both sanitize to a_b, "sync"
  // is a namespace of the CUDA skeleton: int_, op_1, a_b, a_b_2, sync_. The unit named "sync"
  // names its default role likewise.
  Machine machine;
  machine.name = "m";
  const ResourceId unit = machine.addResource("sync", 5);
  GraphBuilder builder("names");
  for (const char* name : {"int", "1", "a-b", "a_b", "sync"}) {
    builder.addReservation(builder.addOp(name, 1), {unit, 0, 1, 1});
  }
  Schedule schedule;
  schedule.start = {0, 0, 0, 0, 0};
  schedule.ii = 1;
  const auto pipeline = buildPipeline(test::makeInstance(std::move(builder), machine), schedule);
  REQUIRE(pipeline);
  CHECK(pipeline->opIdentifiers ==
        std::vector<std::string>{"int_", "op_1", "a_b", "a_b_2", "sync_"});
  REQUIRE(pipeline->roles.size() == 1);
  CHECK(pipeline->roles[0].name == "sync_");
}
