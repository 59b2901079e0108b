// The built-in kernels at their Twill schedules: the protocol passes every check of the
// runtime for 1 to 50 trips, in-process and as the compiled CPU program, and both give the same
// per-role trace; the rings hold exactly the memory gaus twill reports; every seeded fault is
// caught; the CUDA skeleton compiles with nvcc (sm_90a, and sm_100a for Blackwell) and reads
// as it should. One test case covers all kernels (in sections), so that each kernel is solved
// once per run of the test program; a second proves the compiled programs catch every fault.
#include <algorithm>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>

#include <gaus/codegen/protocol_executor.hpp>
#include <gaus/codegen/targets.hpp>
#include <gaus/exact/twill.hpp>

#include "codegen_test_support.hpp"
#include "temp_folder.hpp"

using namespace gaus;
using namespace gaus::codegen;

namespace {

bool reports(const std::vector<gaus_protocol::Fault>& faults,
             const std::vector<gaus_protocol::FaultKind>& kinds) {
  return std::any_of(faults.begin(), faults.end(), [&](const gaus_protocol::Fault& fault) {
    return std::find(kinds.begin(), kinds.end(), fault.kind) != kinds.end();
  });
}

// What each seeded fault must produce (docs/codegen.md "Mutation test"): a ring one slot short
// makes a producer wait for a release the schedule places later (stall); a full barrier
// expecting an arrival nobody makes never completes (deadlock); a consumer starting on parity 1
// reads before any fill (unsynchronized wait) or waits for a phase that needs its own release
// (deadlock); a producer without its tail leaves with fills unreleased; a consumer that never
// releases blocks its producer at the first refill or in the tail (deadlock); two rings at one
// base overwrite each other's fills while they are still to be read (overlap).
std::vector<gaus_protocol::FaultKind> expectedFaults(ProtocolFault fault) {
  using Kind = gaus_protocol::FaultKind;
  switch (fault) {
    // A ring one slot short is seen as a wait that observes a later phase, or as a read that
    // finds the next fill in its slot when the overwritten fill's reader is in the producer's
    // own role, which reads the slot in program order with no barrier to wait on (the 32-warp
    // stand-in's mmax1 ring: another role reads it at distance 0, alpha1 beside mmax1 at
    // distance 1).
    case ProtocolFault::kRingSlotMissing:
      return {Kind::kStall, Kind::kData};
    case ProtocolFault::kWrongArrivalCount:
    case ProtocolFault::kSkippedRelease:
      return {Kind::kDeadlock};
    case ProtocolFault::kWrongFirstParity:
      return {Kind::kUnsynchronizedWait, Kind::kDeadlock};
    case ProtocolFault::kMissingProducerTail:
      return {Kind::kProducerTail};
    case ProtocolFault::kAliasedRings:
      return {Kind::kOverlap};
  }
  return {};
}

// Per role, the op instances in program order ("role op iteration"), without the global
// sequence number, which depends on the interleaving.
std::string perRoleTrace(const std::string& traceText) {
  std::istringstream in(traceText);
  std::string line, out;
  while (std::getline(in, line)) out += line.substr(0, line.rfind(' ')) + "\n";
  return out;
}

// A kernel's pipeline at `method`'s schedule (ims: no warps, default roles, deeper rings). The
// FA kernels' ims schedules stage values between their default roles through more shared memory
// than an SM has (refused: "FA at its ims schedule is refused with its real shared-memory
// figure"), and on 32 warps of 32 threads one default role per unit holds more registers than the
// SM's file (the sub-tiled stand-in's TMEM role: 256 per thread), so the protocol tests give the
// kernel's machine 1 MB of shared memory and no register file: the protocol is what they test,
// and its 3 stages and two-slot ring are what makes it worth testing.
Pipeline kernelPipelineOf(const std::string& name, const std::string& method) {
  const Instance kernel = test::loadKernel(name);
  Machine roomy = *kernel.machine;
  for (Memory& memory : roomy.memories) {
    if (memory.name == "smem") memory.capacity = 1 << 20;
  }
  roomy.registerFile.reset();
  auto rebound = rebindMachine(kernel, roomy);
  REQUIRE(rebound);
  const Instance& instance = *rebound;
  const auto schedule = test::methodSchedule(test::heuristicAndExactMethods(), method, instance);
  REQUIRE(schedule);
  auto pipeline = buildPipeline(instance, *schedule);
  INFO(name << " at its " << method
            << " schedule: " << (pipeline ? std::string() : pipeline.error()));
  REQUIRE(pipeline);
  return std::move(pipeline).value();
}

// Seeds each fault that applies and checks the in-process run reports it; returns the faults
// seeded.
std::set<ProtocolFault> checkSeededFaults(const Pipeline& pipeline) {
  std::set<ProtocolFault> seeded;
  for (ProtocolFault fault : kAllProtocolFaults) {
    Pipeline broken = pipeline;
    if (!seedFault(broken, fault)) continue;  // no channel it applies to
    seeded.insert(fault);
    std::int32_t deepest = 0;
    for (const Ring& ring : broken.rings) deepest = std::max(deepest, ring.depth);
    for (std::int64_t trips : {1, 2, 10}) {
      // A ring one slot short only shows once a slot is reused.
      if (fault == ProtocolFault::kRingSlotMissing && trips <= deepest) continue;
      ProtocolRunOptions options;
      options.trips = trips;
      const ProtocolRun run = runProtocol(broken, options);
      INFO(pipeline.name << ", " << toString(fault) << " (" << broken.seededFault << "), trips "
                         << trips << ": " << run.report);
      CHECK_FALSE(run.ok());
      CHECK(reports(run.faults, expectedFaults(fault)));
    }
  }
  return seeded;
}

}  // namespace

TEST_CASE("built-in kernels at their Twill schedules: the protocol is proven, the code compiles",
          "[codegen][protocol]") {
  const std::vector<std::string> kernels = test::builtInKernels();
  // Each kernel of configs/kernels is covered; a new one is covered automatically.
  CHECK(kernels.size() >= 4);

  SECTION("the in-process protocol passes every check for 1 to 50 trips") {
    for (const std::string& name : kernels) {
      const Pipeline& pipeline = test::kernelPipeline(name);
      for (std::int64_t trips = 1; trips <= 50; ++trips) {
        ProtocolRunOptions options;
        options.trips = trips;
        const ProtocolRun run = runProtocol(pipeline, options);
        INFO(name << " trips " << trips << ": " << run.report);
        REQUIRE(run.ok());
        // Every op runs once per trip.
        CHECK(run.trace.size() == static_cast<std::size_t>(pipeline.graph->numOps() * trips));
      }
    }
  }

  SECTION(
      "the compiled CPU programs pass their checks for 1 to 50 trips, with the executor's "
      "per-role trace") {
    std::vector<Pipeline> pipelines;
    for (const std::string& name : kernels) pipelines.push_back(test::kernelPipeline(name));
    test::TempFolder folder;
    const auto programs = test::compileCpuPrograms(folder.path(), pipelines);
    for (std::size_t k = 0; k < kernels.size(); ++k) {
      for (std::int64_t trips = 1; trips <= 50; ++trips) {
        const auto tracePath = folder.file("trace.txt");
        const test::ProgramOutput output =
            test::runProgram(programs[k].string(),
                             {"--trips", std::to_string(trips), "--trace", tracePath.string()});
        INFO(kernels[k] << " trips " << trips << ": " << output.out << output.err);
        REQUIRE(output.exitCode == 0);
        CHECK_THAT(output.out, Catch::StartsWith("ok: " + kernels[k]));
        // Per role the order of op instances is the program's, whatever the interleaving: the
        // generated code and the in-process executor must produce it identically.
        if (trips == 1 || trips == 2 || trips == 7) {
          ProtocolRunOptions options;
          options.trips = trips;
          const ProtocolRun run = runProtocol(pipelines[k], options);
          REQUIRE(run.ok());
          CHECK(perRoleTrace(test::readWholeFile(tracePath)) == perRoleTrace(run.traceText));
        }
      }
    }
  }

  SECTION("the rings hold exactly the memory gaus twill reports") {
    // gaus twill allocates each value max(1, ceil(lifetime / II)) buffers (core ringBuffers, the
    // verifier's memory rule for modulo-warp problems); codegen gives each value one ring of that
    // depth, so the bytes agree.
    for (const std::string& name : kernels) {
      const Pipeline& pipeline = test::kernelPipeline(name);
      const exact::TwillSolution& solution = test::kernelTwillSolution(name);
      for (const Memory& memory : pipeline.machine->memories) {
        std::int64_t twill = 0;
        for (const auto& buffer : solution.twill.assignment.buffers) {
          if (pipeline.machine->memories[buffer.memory].name == memory.name) {
            twill += buffer.total();
          }
        }
        INFO(name << " memory " << memory.name);
        CHECK(ringBytes(pipeline, memory.name) == twill);
      }
    }
    // FA on Blackwell keeps S and O of both sub-tiles in tensor memory, 64 KB each, one
    // buffer each (the kernel's comment): exactly the 256 KB it has.
    CHECK(ringBytes(test::kernelPipeline("fa_fwd_blackwell"), "tmem") == 262144);
  }

  SECTION("every seeded fault that applies is caught, at the Twill and the ims schedule") {
    std::set<ProtocolFault> seeded;
    for (const std::string& name : kernels) {
      const std::set<ProtocolFault> atTwill = checkSeededFaults(test::kernelPipeline(name));
      const std::set<ProtocolFault> atIms = checkSeededFaults(kernelPipelineOf(name, "ims"));
      seeded.insert(atTwill.begin(), atTwill.end());
      seeded.insert(atIms.begin(), atIms.end());
    }
    // The Twill schedules keep every tile one iteration in flight; the ims schedule of FA keeps
    // V for two, so every fault, the missing slot included, finds a channel.
    CHECK(seeded.size() == std::size(kAllProtocolFaults));
  }

  SECTION("FA on Hopper: FA3's register split, named rings and barriers, schedule comments") {
    const Pipeline& pipeline = test::kernelPipeline("fa_fwd_hopper");
    const std::string listing = renderListing(pipeline);
    // Three roles: the TMA producer keeps 24 registers, each consumer gets (512 - 24) / 2 =
    // 244 per thread, capped at the machine's 240 (FA3's split): 504 x 128 = 64512 registers.
    CHECK_THAT(listing, Catch::Contains("setmaxnreg per warp group: wg0 24 (producer_wg0), wg1 "
                                        "240 (consumer_wg1), wg2 240 (consumer_wg2) (from 168 "
                                        "registers at launch); 64512 of 65536 registers of the "
                                        "SM"));
    CHECK_THAT(listing, Catch::Contains("ring load_k: load_k (producer_wg0) -> consumer_wg1, "
                                        "consumer_wg2"));
    CHECK_THAT(listing, Catch::Contains("empty_load_k[1]: 2 arrival(s) per phase (one per consumer "
                                        "role)"));
    CHECK_THAT(listing, Catch::Contains("expect-tx full_load_k[slot(k)], arrive: expects the 32768 "
                                        "bytes of the copy of iteration k"));
    const auto files = renderCuda(pipeline);
    REQUIRE(files);
    const std::string& kernel = (*files)[0].content;
    const std::string& ops = (*files)[1].content;
    // Rings and barriers by name, initialized with the producer's 1 and the 2 consumer roles.
    CHECK_THAT(kernel, Catch::Contains("sync::init(&smem.full_load_k[slot], 1);"));
    CHECK_THAT(kernel, Catch::Contains("sync::init(&smem.empty_load_k[slot], 2);"));
    CHECK_THAT(kernel, Catch::Contains("sync::decrease_registers<24>();"));
    CHECK_THAT(kernel, Catch::Contains("sync::increase_registers<240>();"));
    CHECK_THAT(kernel,
               Catch::Contains("if (warp_group == 0) {\n    producer_wg0(params, smem, trips);"));
    // A comment at each wait saying what it waits for, the schedule beside each op call.
    CHECK_THAT(kernel, Catch::Contains("// waits for load_k of iteration i (producer_wg0) to fill "
                                       "the slot\n"));
    CHECK_THAT(kernel, Catch::Contains("// s0: stage 0, cycle 0 (II 16)"));
    CHECK_THAT(kernel, Catch::Contains("// Producer tail: exit only once every consumer released"));
    CHECK_THAT(kernel, Catch::Contains("for (int k = kStages - 1; k < trips; ++k) {"));
    // Each op is declared with its inputs and output: s0 reads K's slot and writes S; the load
    // writes its slot and completes its bytes on the slot's full barrier.
    CHECK_THAT(ops, Catch::Contains("__device__ void s0(const Params& params, int iteration, "
                                    "const void* load_k, s0_value& s0_out);"));
    CHECK_THAT(ops, Catch::Contains("__device__ void load_k(const Params& params, int iteration, "
                                    "void* load_k_out, std::uint64_t* full_barrier);"));
  }

  SECTION("the CUDA skeletons compile with nvcc, warnings as errors") {
    const auto compiler = test::nvcc();
    if (!compiler) {
      WARN("nvcc not found (GAUS_NVCC='" GAUS_NVCC "'): the generated CUDA is not compiled");
      return;
    }
    // One translation unit per kernel and architecture, compiled two at a time.
    test::TempFolder folder;
    std::vector<std::string> commands, labels;
    std::vector<std::filesystem::path> logs;
    for (const std::string& name : kernels) {
      const Pipeline& pipeline = test::kernelPipeline(name);
      const auto files = renderCuda(pipeline);
      REQUIRE(files);
      const auto place = folder.path() / name;
      REQUIRE(writeFiles(place, *files));
      REQUIRE(
          writeFiles(place, {{"test_unit.cu", test::cudaTestUnit(pipeline, (*files)[1].content)}}));
      std::vector<std::string> architectures = {"sm_90a"};
      if (pipeline.machine->name == "blackwell") architectures.push_back("sm_100a");
      for (const std::string& architecture : architectures) {
        logs.push_back(place / (architecture + ".log"));
        labels.push_back(name + " " + architecture);
        commands.push_back(
            test::cudaCompileCommand(*compiler, architecture, place / "test_unit.cu", logs.back()));
      }
    }
    // The kernel asserts sizeof(SharedStorage) against the memory layout's total: a layout
    // that disagrees with the compiler (here by one mbarrier) does not compile.
    {
      const Pipeline& pipeline = test::kernelPipeline("gemm_hopper");
      auto files = renderCuda(pipeline);
      REQUIRE(files);
      const std::int64_t total = pipeline.layout.use(MemorySpace::kShared)->total;
      std::string& kernel = (*files)[0].content;
      const std::string assertion = fmt::format("sizeof(SharedStorage) == {}", total);
      REQUIRE(kernel.find(assertion) != std::string::npos);
      kernel.replace(kernel.find(assertion), assertion.size(),
                     fmt::format("sizeof(SharedStorage) == {}", total + 8));
      const auto place = folder.path() / "gemm_hopper_wrong_total";
      REQUIRE(writeFiles(place, *files));
      REQUIRE(
          writeFiles(place, {{"test_unit.cu", test::cudaTestUnit(pipeline, (*files)[1].content)}}));
      logs.push_back(place / "sm_90a.log");
      labels.push_back("gemm_hopper with a wrong layout total (must not compile)");
      commands.push_back(
          test::cudaCompileCommand(*compiler, "sm_90a", place / "test_unit.cu", logs.back()));
    }
    const std::vector<int> status = test::runCommands(commands);
    for (std::size_t c = 0; c + 1 < commands.size(); ++c) {
      INFO(labels[c] << ": " << test::readWholeFile(logs[c]));
      CHECK(status[c] == 0);
    }
    INFO(labels.back() << ": " << test::readWholeFile(logs.back()));
    CHECK(status.back() != 0);
    CHECK_THAT(test::readWholeFile(logs.back()),
               Catch::Contains("SharedStorage is not the size of the memory layout"));
  }
}

TEST_CASE(
    "the schedules of configs/schedules: the protocol holds for 1 to 20 trips and every fault "
    "that applies is caught",
    "[codegen][protocol][mutation]") {
  // FA4's five roles on FA on Blackwell, and GEMM with its tiles 3 and 2 iterations in flight
  // (A read 9 cycles after its load at II 4: ceil(9 / 4) = 3 slots; B 8 cycles: 2), the
  // deeper variant on which a ring one slot short applies.
  std::set<ProtocolFault> seeded;
  for (const auto& [kernel, schedule] : test::configSchedules()) {
    const Pipeline pipeline = test::kernelPipelineAt(kernel, schedule);
    for (std::int64_t trips = 1; trips <= 20; ++trips) {
      ProtocolRunOptions options;
      options.trips = trips;
      const ProtocolRun run = runProtocol(pipeline, options);
      INFO(schedule << " trips " << trips << ": " << run.report);
      REQUIRE(run.ok());
    }
    const std::set<ProtocolFault> caught = checkSeededFaults(pipeline);
    seeded.insert(caught.begin(), caught.end());
  }
  CHECK(seeded.size() == std::size(kAllProtocolFaults));
  const Pipeline deep = test::kernelPipelineAt("gemm_hopper", "gemm_hopper.deep.json");
  CHECK(deep.rings[0].depth == 3);
  CHECK(deep.rings[1].depth == 2);
}

TEST_CASE(
    "FA at its ims schedule: trip counts 1 and 2 below its 3 stages, and every seeded "
    "fault, in the compiled program",
    "[codegen][protocol][mutation]") {
  // ims keeps V two iterations in flight (a two-slot ring) and needs 3 stages: trips 1 and 2
  // run only prologue and epilogue, the classic deadlock cases.
  const Pipeline pipeline = kernelPipelineOf("fa_fwd_hopper", "ims");
  REQUIRE(pipeline.stages == 3);
  std::vector<Pipeline> programs{pipeline};
  for (ProtocolFault fault : kAllProtocolFaults) {
    programs.push_back(pipeline);
    REQUIRE(seedFault(programs.back(), fault));
  }
  test::TempFolder folder;
  const auto binaries = test::compileCpuPrograms(folder.path(), programs);
  for (std::int64_t trips : {1, 2, 3, 4, 10}) {
    const test::ProgramOutput output =
        test::runProgram(binaries[0].string(), {"--trips", std::to_string(trips)});
    INFO("trips " << trips << ": " << output.out << output.err);
    CHECK(output.exitCode == 0);
  }
  for (std::size_t f = 0; f < std::size(kAllProtocolFaults); ++f) {
    const ProtocolFault fault = kAllProtocolFaults[f];
    const test::ProgramOutput output =
        test::runProgram(binaries[f + 1].string(), {"--trips", "10"});
    INFO(toString(fault) << ": " << output.out << output.err);
    CHECK(output.exitCode == 1);
    bool named = false;
    for (auto kind : expectedFaults(fault)) {
      named = named || output.err.find(std::string("FAULT ") + gaus_protocol::toString(kind)) !=
                           std::string::npos;
    }
    CHECK(named);
  }
}

namespace {

// One self-test to compile: a pipeline (possibly with a seeded fault) and its architecture.
struct SelfTestBuild {
  std::string label;
  Pipeline pipeline;
  std::string architecture;
};

// Writes each self-test into its own folder and builds it with nvcc into a program, two at a
// time, warnings as errors; fails the test with nvcc's output.
void compileSelfTests(const std::string& compiler, const std::vector<SelfTestBuild>& builds) {
  test::TempFolder folder;
  std::vector<std::string> commands;
  std::vector<std::filesystem::path> logs;
  for (std::size_t b = 0; b < builds.size(); ++b) {
    const SelfTestBuild& build = builds[b];
    const auto files = renderSelfTest(build.pipeline);
    INFO(build.label << ": " << (files ? std::string() : files.error()));
    REQUIRE(files);
    const auto place = folder.path() / fmt::format("selftest{}", b);
    REQUIRE(writeFiles(place, *files));
    logs.push_back(place / "nvcc.log");
    commands.push_back(fmt::format(
        "{} -arch={} -std=c++17 -o {} {} -Xcompiler -Wall,-Wextra -Werror all-warnings >{} 2>&1",
        test::shellQuote(compiler), build.architecture,
        test::shellQuote((place / "selftest").string()),
        test::shellQuote((place / (build.pipeline.identifier + "_selftest.cu")).string()),
        test::shellQuote(logs.back().string())));
  }
  const std::vector<int> status = test::runCommands(commands);
  for (std::size_t c = 0; c < commands.size(); ++c) {
    INFO(builds[c].label << " " << builds[c].architecture << ": " << test::readWholeFile(logs[c]));
    CHECK(status[c] == 0);
  }
}

std::vector<std::string> architecturesOf(const Pipeline& pipeline) {
  std::vector<std::string> architectures = {"sm_90a"};
  if (pipeline.machine->name.find("blackwell") != std::string::npos) {
    architectures.push_back("sm_100a");
  }
  return architectures;
}

}  // namespace

TEST_CASE(
    "the GPU self-test of FA on Blackwell compiles with nvcc for sm_100a, and GEMM's with "
    "two tiles at one base for sm_90a",
    "[codegen][selftest]") {
  const auto compiler = test::nvcc();
  if (!compiler) {
    WARN("nvcc not found (GAUS_NVCC='" GAUS_NVCC "'): the self-test is not compiled");
    return;
  }
  // FA on Blackwell has every kind of value: tiles copied into shared memory, tensor-memory
  // tiles (a global buffer per block stands in), registers staged between roles, register
  // values in a role; GEMM's seeded fault exercises the address checks.
  Pipeline aliased = test::kernelPipeline("gemm_hopper");
  REQUIRE(seedFault(aliased, ProtocolFault::kAliasedRings));
  compileSelfTests(*compiler,
                   {{"fa_fwd_blackwell", test::kernelPipeline("fa_fwd_blackwell"), "sm_100a"},
                    {"gemm_hopper, aliased-rings", aliased, "sm_90a"}});
}

TEST_CASE(
    "every built-in kernel's GPU self-test and each of its seeded faults compile with nvcc "
    "(sm_90a, and sm_100a for Blackwell), and at the schedules of configs/schedules",
    "[codegen][selftest][.slow]") {
  const auto compiler = test::nvcc();
  if (!compiler) {
    WARN("nvcc not found (GAUS_NVCC='" GAUS_NVCC "'): the self-tests are not compiled");
    return;
  }
  std::vector<SelfTestBuild> builds;
  std::vector<std::pair<std::string, Pipeline>> pipelines;
  for (const std::string& name : test::builtInKernels()) {
    pipelines.emplace_back(name, test::kernelPipeline(name));
  }
  for (const auto& [kernel, schedule] : test::configSchedules()) {
    pipelines.emplace_back(schedule, test::kernelPipelineAt(kernel, schedule));
  }
  for (const auto& [name, pipeline] : pipelines) {
    for (const std::string& architecture : architecturesOf(pipeline)) {
      builds.push_back({name, pipeline, architecture});
      for (ProtocolFault fault : kAllProtocolFaults) {
        Pipeline broken = pipeline;
        if (!seedFault(broken, fault)) continue;
        builds.push_back({fmt::format("{}, {}", name, toString(fault)), broken, architecture});
      }
    }
  }
  compileSelfTests(*compiler, builds);
}
