// The targets on hand-made pipelines: the text listing (header figures and per-role sections
// derived by hand for toy FA), the Chrome trace (parsed, its slices counted), and the refusals
// (a register split over the register file, rings over shared memory, more warp groups than a
// block holds). The built-in kernels' listing and CUDA: test_protocol_kernels.cpp.
#include <set>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <gaus/codegen/protocol_executor.hpp>
#include <gaus/codegen/targets.hpp>

#include "codegen_test_support.hpp"
#include "temp_folder.hpp"

using namespace gaus;
using namespace gaus::codegen;

namespace {

Pipeline toyPipeline() {
  Schedule schedule;
  schedule.start = {0, 2, 3};  // the paper's M = {S:0, P:2, O:3}
  schedule.ii = 2;
  auto pipeline = buildPipeline(test::toyFlashAttention(), schedule);
  REQUIRE(pipeline);
  return std::move(pipeline).value();
}

}  // namespace

TEST_CASE("listing of toy FA: header figures and every wait and arrive of each role",
          "[codegen][targets]") {
  const std::string listing = renderListing(toyPipeline());
  // II 2, MII 2 from two 1-cycle TC ops on one TC; L = 3 + 1; ceil(4 / 2) = 2 stages.
  CHECK_THAT(listing, Catch::Contains("II 2, MII 2 (ResMII (TC) = 2 >= RecMII (cycle O -> O) = "
                                      "1), L 4, stages 2"));
  // S lives 2 cycles (S:0 -> P:2): one slot; P lives 1 (P:2 -> O:3): one slot.
  CHECK_THAT(listing, Catch::Contains("ring S: S (TC) -> EXP\n    depth 1 = max(1, ceil(2 / 2))"));
  CHECK_THAT(listing, Catch::Contains("ring P: P (EXP) -> TC\n    depth 1 = max(1, ceil(1 / 2))"));
  // TC's prologue is S of iteration 0 at cycle 0, after waiting for a free slot of S.
  CHECK_THAT(listing, Catch::Contains("role TC (warp group 0, threads 0..127, units TC)\n"
                                      "  prologue, kernel iteration 0 (cycles 0..1): stages 0..0\n"
                                      "                 0    wait      empty_S[slot(0)] parity "
                                      "phase(0)^1"));
  // In the kernel O of iteration k-1 (stage 1, cycle 3 = residue 1) waits for P of k-1.
  CHECK_THAT(listing, Catch::Contains("              2k+1    wait      full_P[slot(k-1)] parity "
                                      "phase(k-1): waits for P of iteration k-1 (EXP) to fill the "
                                      "slot"));
  // The epilogue runs O of the last iteration; after the loops TC awaits the releases of S.
  CHECK_THAT(listing, Catch::Contains("  epilogue, kernel iteration trips+0: stages 1..1"));
  CHECK_THAT(listing, Catch::Contains("producer tail S: for j in [max(0, trips-1), trips): wait "
                                      "empty_S[slot(j)] parity phase(j)"));
}

TEST_CASE("trace: Chrome trace-event JSON with one slice per op instance and per unit use",
          "[codegen][targets]") {
  const Pipeline pipeline = toyPipeline();
  TargetOptions options;
  options.traceTrips = 5;
  const auto trace = renderTrace(pipeline, options);
  REQUIRE(trace);
  const nlohmann::json json = nlohmann::json::parse(*trace);
  REQUIRE(json.at("traceEvents").is_array());
  // Schedule: 3 ops x 5 iterations on role tracks, and each op holds one unit for one cycle:
  // 15 more on unit tracks; the CPU run: 15 op instances. 45 complete slices.
  std::size_t slices = 0, roleTracks = 0;
  std::set<std::int64_t> iterations;
  for (const auto& event : json["traceEvents"]) {
    REQUIRE(event.contains("ph"));
    if (event["ph"] == "X") {
      ++slices;
      CHECK(event.at("dur").get<double>() > 0);
      CHECK(event.at("ts").get<double>() >= 0);
      iterations.insert(event.at("args").at("iteration").get<std::int64_t>());
    }
    if (event["ph"] == "M" && event["name"] == "thread_name" &&
        event["args"]["name"].get<std::string>().rfind("role ", 0) == 0) {
      ++roleTracks;
    }
  }
  CHECK(slices == 45);
  CHECK(iterations == std::set<std::int64_t>{0, 1, 2, 3, 4});
  // Two roles in the schedule (TC's S and O never overlap: 1-cycle ops) and two in the run.
  CHECK(roleTracks == 4);
}

TEST_CASE(
    "refusals: register split over the register file, rings over shared memory, too "
    "many warp groups",
    "[codegen][targets]") {
  // Three roles each holding 200 registers per thread: 3 x 200 x 128 = 76800 > 65536.
  Machine machine;
  machine.name = "small_sm";
  const ResourceId alu = machine.addResource("ALU", 3);
  machine.warps = 3;
  machine.registerLimit = 256;
  machine.registerFile = 65536;
  GraphBuilder builder("three_heavy_roles");
  for (const char* name : {"a", "b", "c"}) {
    const OpId op = builder.addOp(name, 1);
    builder.addReservation(op, {alu, 0, 1, 1});
    builder.setRegs(op, 200);
  }
  builder.addEdge(0, 1);
  builder.addEdge(1, 2);
  builder.addEdge(2, 0, 1, 1);
  const Instance heavy = test::makeInstance(std::move(builder), machine);
  Schedule schedule;
  schedule.start = {0, 1, 2};
  schedule.ii = 3;
  schedule.warps = std::vector<WarpSet>{1, 2, 4};
  const auto refused = buildPipeline(heavy, schedule);
  REQUIRE_FALSE(refused);
  // The verifier's register-file rule (core register_file.hpp, the split's own) refuses it
  // before the split is tried.
  CHECK_THAT(refused.error(),
             Catch::Contains("the warp groups need (200 + 200 + 200) x 128 threads = 76800 "
                             "registers, more than the register file of machine small_sm "
                             "(65536)"));

  // Two 100 KB tiles at II 2: A loaded at 0 and read at 3 (live 3 cycles: 2 slots), B loaded
  // at 1 and read at 2 (1 slot). Per cycle at most 200 KB are live (the verifier's count: 2 of
  // A at residue 0, A and B at residue 1), within 227 KB; as rings they take 3 x 100 KB.
  Machine hopper = *test::loadKernel("gemm_hopper").machine;
  GraphBuilder tiles("big_tiles");
  for (const char* name : {"load_a", "load_b"}) {
    tiles.addOp(test::streamingLoad(name, hopper, {{*hopper.findMemory("smem"), 100000}}));
  }
  for (OpId load = 0; load < 2; ++load) {
    const OpId use = tiles.addOp(load == 0 ? "use_a" : "use_b", 1);
    tiles.addReservation(use, {*hopper.findResource("TC"), 0, 1, 1});
    tiles.addEdge(load, use);
  }
  const Instance big = test::makeInstance(std::move(tiles), hopper);
  Schedule late;
  late.start = {0, 1, 3, 2};
  late.ii = 2;
  const auto tooDeep = buildPipeline(big, late);
  REQUIRE_FALSE(tooDeep);
  // The layout: load_a's two slots of 100000 bytes, each padded to 100096 (128-byte
  // alignment), at 0; load_b's one at 200192, ending at 300288; then a full and an empty
  // mbarrier per slot, 3 slots x 2 x 8 = 48 bytes, ending at 300336, which sizeof rounds up to
  // the struct's 128-byte alignment: 300416, of which 300416 - 300000 - 48 = 368 padding.
  CHECK_THAT(tooDeep.error(),
             Catch::Contains("needs 300416 bytes of smem (tiles 300000, staged registers 0, "
                             "barriers 48, alignment 368), more than its capacity 232448; largest "
                             "rings (slots x bytes): load_a 2 x 100096, load_b 1 x 100096"));

  // Nine unit kinds give nine default roles: 1152 threads, more than a block's 1024.
  Machine wide;
  wide.name = "wide";
  GraphBuilder nine("nine_units");
  for (int u = 0; u < 9; ++u) {
    const ResourceId unit = wide.addResource(fmt::format("U{}", u), 1);
    const OpId op = nine.addOp(fmt::format("op{}", u), 1);
    nine.addReservation(op, {unit, 0, 1, 1});
    if (u > 0) nine.addEdge(op - 1, op);
  }
  const Instance nineRoles = test::makeInstance(std::move(nine), wide);
  Schedule chain;
  chain.ii = 1;
  for (int u = 0; u < 9; ++u) chain.start.push_back(u);
  const auto pipeline = buildPipeline(nineRoles, chain);
  REQUIRE(pipeline);
  CHECK(pipeline->roles.size() == 9);
  const auto cuda = renderCuda(*pipeline);
  REQUIRE_FALSE(cuda);
  CHECK_THAT(cuda.error(),
             Catch::Contains("needs 1152 threads (9 warp groups), more than the 1024 a thread "
                             "block holds"));
  // The CPU program has no such limit: the protocol still runs.
  CHECK(runProtocol(*pipeline).ok());
}
