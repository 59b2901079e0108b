// The targets: the text listing (header figures and per-role sections derived by hand for toy
// FA), the Chrome trace (parsed, its slices counted), the CUDA skeleton of every built-in
// kernel compiled with nvcc for sm_90a (and sm_100a for Blackwell), and the refusals (a
// register split over the register file, rings over shared memory, more warp groups than a
// block holds).
#include <regex>
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

// nvcc's path when it is there; the CUDA tests say so and pass when it is not.
std::optional<std::string> nvcc() {
  const std::string path = GAUS_NVCC;
  if (path.empty() || !std::filesystem::exists(path)) return std::nullopt;
  return path;
}

// Trivial definitions of the ops a generated <id>_ops.cuh declares (parameter names dropped,
// bodies empty), the kernel included, and a host function that instantiates it.
std::string cudaTestUnit(const Pipeline& pipeline, const std::string& opsHeader) {
  const std::regex declaration(R"(template <class Params>\n__device__ void (\w+)\(([^;]*)\);)");
  std::string unit = fmt::format("#include \"{}_ops.cuh\"\nnamespace {} {{\nnamespace ops {{\n",
                                 pipeline.identifier, pipeline.identifier);
  for (auto it = std::sregex_iterator(opsHeader.begin(), opsHeader.end(), declaration);
       it != std::sregex_iterator(); ++it) {
    std::string parameters = (*it)[2];
    // "const Params& params, int iteration, const void* load_k" -> the types only.
    parameters = std::regex_replace(parameters, std::regex(R"(\s*\w+\s*(,|$))"), "$1");
    unit += fmt::format("template <class Params>\n__device__ void {}({}) {{}}\n", (*it)[1].str(),
                        parameters);
  }
  unit += fmt::format(
      "}}  // namespace ops\n}}  // namespace {}\n#include \"{}_pipeline.cu\"\n"
      "struct TestParams {{\n  int unused;\n}};\n"
      "cudaError_t launchForTest(int trips) {{\n"
      "  return {}::launch_{}(TestParams{{0}}, trips, dim3(1));\n}}\n",
      pipeline.identifier, pipeline.identifier, pipeline.identifier, pipeline.identifier);
  return unit;
}

}  // namespace

TEST_CASE("listing of toy FA: header figures and every wait and arrive of each role",
          "[codegen][targets]") {
  const std::string listing = renderListing(toyPipeline());
  // II 2, MII 2 from two 1-cycle TC ops on one TC; L = 3 + 1; ceil(4 / 2) = 2 stages.
  CHECK_THAT(listing, Catch::Contains("II 2, MII 2 (bound by ResMII 2 (TC); RecMII 1 (O)), L 4, "
                                      "stages 2"));
  // S lives 2 cycles (S:0 -> P:2): one slot; P lives 1 (P:2 -> O:3): one slot.
  CHECK_THAT(listing, Catch::Contains("ring S: S (TC) -> EXP; depth 1 = max(1, ceil(2 / 2))"));
  CHECK_THAT(listing, Catch::Contains("ring P: P (EXP) -> TC; depth 1 = max(1, ceil(1 / 2))"));
  // TC's prologue is S of iteration 0 at cycle 0, after waiting for a free slot of S.
  CHECK_THAT(listing, Catch::Contains("role TC (warp group {0}, units TC)\n"
                                      "  prologue, kernel iteration 0 (cycles 0..1): stages 0..0\n"
                                      "                 0    wait      empty_S[slot(0)] parity "
                                      "phase(0)^1"));
  // In the kernel O of iteration k-1 (stage 1, cycle 3 = residue 1) waits for P of k-1.
  CHECK_THAT(listing, Catch::Contains("              2k+1    wait      full_P[slot(k-1)] parity "
                                      "phase(k-1): until P of iteration k-1 (role EXP) has filled "
                                      "its slot"));
  // The epilogue runs O of the last iteration; after the loops TC awaits the releases of S.
  CHECK_THAT(listing, Catch::Contains("  epilogue, kernel iteration trips+0: stages 1..1"));
  CHECK_THAT(listing, Catch::Contains("producer tail S: for j in [max(0, trips-1), trips): wait "
                                      "empty_S[slot(j)] parity phase(j)"));
}

TEST_CASE("listing of FA on Hopper: FA3's register split and the K and V rings",
          "[codegen][targets]") {
  const std::string listing = renderListing(test::kernelPipeline("fa_fwd_hopper"));
  // Three roles: the TMA producer keeps 24 registers, each consumer gets (512 - 24) / 2 = 244,
  // capped at the machine's 240 per thread (FA3's split), 24 + 240 + 240 = 504 x 128 = 64512.
  CHECK_THAT(listing, Catch::Contains("setmaxnreg per thread: producer_wg0 24, consumer_wg1 240, "
                                      "consumer_wg2 240 (from 168 registers at launch); 64512 of "
                                      "65536 registers of the SM"));
  CHECK_THAT(listing, Catch::Contains("ring load_k: load_k (producer_wg0) -> consumer_wg1, "
                                      "consumer_wg2"));
  CHECK_THAT(listing, Catch::Contains("empty_load_k[1]: 2 per phase (one per consumer role)"));
  CHECK_THAT(listing, Catch::Contains("expect-tx full_load_k[slot(k)] 32768 B, arrive"));
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

TEST_CASE("CUDA: every built-in kernel's skeleton compiles with nvcc, warnings as errors",
          "[codegen][targets][cuda]") {
  const auto compiler = nvcc();
  if (!compiler) {
    WARN("nvcc not found (GAUS_NVCC='" GAUS_NVCC "'): the generated CUDA is not compiled");
    return;
  }
  for (const std::string& name : test::builtInKernels()) {
    const Pipeline& pipeline = test::kernelPipeline(name);
    const auto files = renderCuda(pipeline);
    REQUIRE(files);
    test::TempFolder folder;
    REQUIRE(writeFiles(folder.path(), *files));
    const auto unit = folder.write("test_unit.cu", cudaTestUnit(pipeline, (*files)[1].content));
    std::vector<std::string> architectures = {"sm_90a"};
    if (name == "fa_fwd_blackwell") architectures.push_back("sm_100a");
    for (const std::string& architecture : architectures) {
      const test::ProgramOutput output =
          test::runProgram(*compiler, {"-arch=" + architecture, "-std=c++17", "-c", unit.string(),
                                       "-o", folder.file("test_unit.o").string(), "-Xcompiler",
                                       "-Wall,-Wextra", "-Werror", "all-warnings"});
      INFO(name << " " << architecture << ": " << output.out << output.err);
      CHECK(output.exitCode == 0);
    }
  }
}

TEST_CASE("CUDA: names, barriers and schedule comments read like hand-written code",
          "[codegen][targets][cuda]") {
  const auto files = renderCuda(test::kernelPipeline("fa_fwd_hopper"));
  REQUIRE(files);
  const std::string& kernel = (*files)[0].content;
  const std::string& ops = (*files)[1].content;
  // Named rings and barriers, initialized with the producer's 1 and the 2 consumer roles.
  CHECK_THAT(kernel, Catch::Contains("sync::init(&smem.full_load_k[slot], 1);"));
  CHECK_THAT(kernel, Catch::Contains("sync::init(&smem.empty_load_k[slot], 2);"));
  // FA3's register split and the warp-group dispatch.
  CHECK_THAT(kernel, Catch::Contains("sync::decrease_registers<24>();"));
  CHECK_THAT(kernel, Catch::Contains("sync::increase_registers<240>();"));
  CHECK_THAT(kernel,
             Catch::Contains("if (warp_group == 0) {\n    producer_wg0(params, smem, trips);"));
  // A comment at each wait saying what it waits for, the schedule beside each op call.
  CHECK_THAT(kernel, Catch::Contains("// until load_k of iteration i (role producer_wg0) has "
                                     "filled its slot\n"));
  CHECK_THAT(kernel, Catch::Contains("// s0: stage 0, cycle 0 (II 16)"));
  // The producer tail and the three loops.
  CHECK_THAT(kernel, Catch::Contains("// Producer tail: exit only once every consumer released"));
  CHECK_THAT(kernel, Catch::Contains("for (int k = kStages - 1; k < trips; ++k) {"));
  // The ops header declares each op with its inputs and output: s0 reads K's slot, writes S.
  CHECK_THAT(ops, Catch::Contains("__device__ void s0(const Params& params, int iteration, const "
                                  "void* load_k, s0_value& s0_out);"));
  CHECK_THAT(ops, Catch::Contains("__device__ void load_k(const Params& params, int iteration, "
                                  "void* load_k_out, std::uint64_t* full_barrier);"));
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
  CHECK_THAT(refused.error(), Catch::Contains("over-subscribes the SM") &&
                                  Catch::Contains("76800 registers") &&
                                  Catch::Contains("has 65536"));

  // Two 100 KB tiles at II 2: A loaded at 0 and read at 3 (live 3 cycles: 2 slots), B loaded
  // at 1 and read at 2 (1 slot). Per cycle at most 200 KB are live (the verifier's count: 2 of
  // A at residue 0, A and B at residue 1), within 227 KB; as rings they take 3 x 100 KB.
  Machine hopper = *test::loadKernel("gemm_hopper").machine;
  GraphBuilder tiles("big_tiles");
  for (const char* name : {"load_a", "load_b"}) {
    OpAttributes load;
    load.name = name;
    load.latency = 1;
    load.reservation = {{*hopper.findResource("TMA"), 0, 1, 1}};
    load.variableLatency = true;
    load.streaming = true;
    load.footprints = {{*hopper.findMemory("smem"), 100000}};
    tiles.addOp(load);
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
  CHECK_THAT(tooDeep.error(),
             Catch::Contains("need 300000 bytes of smem (load_a 2 x 100000, load_b 1 x 100000)"));

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
  CHECK_THAT(cuda.error(), Catch::Contains("needs 9 warp groups of 128 threads, more than the 8"));
  // The CPU program has no such limit: the protocol still runs.
  CHECK(runProtocol(*pipeline).ok());
}
