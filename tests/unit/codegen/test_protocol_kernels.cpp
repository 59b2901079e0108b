// The built-in kernels at their Twill schedules: the protocol passes every check of the
// runtime for 1 to 50 trips, in-process and as the compiled CPU program, and both give the same
// per-role trace; the rings hold exactly the memory gaus twill reports; every seeded fault is
// caught; the CUDA skeleton compiles with nvcc (sm_90a, and sm_100a for Blackwell) and reads
// as it should. One test case covers all kernels (in sections), so that each kernel is solved
// once per run of the test program; a second proves the compiled programs catch every fault.
#include <algorithm>
#include <regex>
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
// releases blocks its producer at the first refill or in the tail (deadlock).
std::vector<gaus_protocol::FaultKind> expectedFaults(ProtocolFault fault) {
  using Kind = gaus_protocol::FaultKind;
  switch (fault) {
    case ProtocolFault::kRingSlotMissing:
      return {Kind::kStall};
    case ProtocolFault::kWrongArrivalCount:
    case ProtocolFault::kSkippedRelease:
      return {Kind::kDeadlock};
    case ProtocolFault::kWrongFirstParity:
      return {Kind::kUnsynchronizedWait, Kind::kDeadlock};
    case ProtocolFault::kMissingProducerTail:
      return {Kind::kProducerTail};
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

// A kernel's pipeline at `method`'s schedule (ims: no warps, default roles, deeper rings).
Pipeline kernelPipelineOf(const std::string& name, const std::string& method) {
  const Instance instance = test::loadKernel(name);
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

// nvcc's path when it is there; the CUDA checks say so and pass when it is not.
std::optional<std::string> nvcc() {
  const std::string path = GAUS_NVCC;
  if (path.empty() || !std::filesystem::exists(path)) return std::nullopt;
  return path;
}

// Trivial definitions of the ops a generated <id>_ops.cuh declares (parameter names dropped,
// bodies empty), the kernel, and a host function that instantiates it through its launcher.
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
    CHECK_THAT(listing, Catch::Contains("setmaxnreg per thread: producer_wg0 24, consumer_wg1 "
                                        "240, consumer_wg2 240 (from 168 registers at launch); "
                                        "64512 of 65536 registers of the SM"));
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
    const auto compiler = nvcc();
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
      REQUIRE(writeFiles(place, {{"test_unit.cu", cudaTestUnit(pipeline, (*files)[1].content)}}));
      std::vector<std::string> architectures = {"sm_90a"};
      if (pipeline.machine->name == "blackwell") architectures.push_back("sm_100a");
      for (const std::string& architecture : architectures) {
        logs.push_back(place / (architecture + ".log"));
        labels.push_back(name + " " + architecture);
        commands.push_back(fmt::format(
            "{} -arch={} -std=c++17 -c {} -o {} -Xcompiler -Wall,-Wextra -Werror all-warnings "
            ">{} 2>&1",
            test::shellQuote(*compiler), architecture,
            test::shellQuote((place / "test_unit.cu").string()),
            test::shellQuote((place / (architecture + ".o")).string()),
            test::shellQuote(logs.back().string())));
      }
    }
    const std::vector<int> status = test::runCommands(commands);
    for (std::size_t c = 0; c < commands.size(); ++c) {
      INFO(labels[c] << ": " << test::readWholeFile(logs[c]));
      CHECK(status[c] == 0);
    }
  }
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
