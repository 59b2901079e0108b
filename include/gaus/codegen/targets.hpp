// The targets of `gaus codegen` (docs/codegen.md): a software-pipelining listing per warp role,
// a warp-specialized CUDA kernel skeleton (sm_90a, sm_100a), the same protocol as a portable
// C++20 program that checks itself, and a Chrome trace-event file of the schedule and of a CPU
// run. Every target renders one Pipeline (pipeline.hpp) and its protocol steps.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/codegen/pipeline.hpp>
#include <gaus/core/enum_names.hpp>
#include <gaus/core/expected.hpp>

namespace gaus::codegen {

enum class Target { kText, kLayout, kCuda, kCpu, kTrace, kSelfTest };
inline constexpr auto kTargetNames = makeEnumNames<Target>({
    {Target::kText, "text"},
    {Target::kLayout, "layout"},
    {Target::kCuda, "cuda"},
    {Target::kCpu, "cpu"},
    {Target::kTrace, "trace"},
    {Target::kSelfTest, "selftest"},
});

struct GeneratedFile {
  std::string name;  // file name within the output folder
  std::string content;
};

struct TargetOptions {
  std::string scheduleSource;    // where the schedule came from, for the headers
  std::int64_t traceTrips = 10;  // trace: iterations of the schedule drawn and of the CPU run
};

// The text listing: a header (II, MII and what bounds it, stages, roles with registers, rings
// with depth and bytes) and, per role, the prologue, the kernel and the epilogue cycle by cycle
// with every wait and arrive.
std::string renderListing(const Pipeline& pipeline, const TargetOptions& options = {});

// The memory layout as JSON (<id>.layout.json): every ring's memory, base, bytes per slot,
// stride and slots, the barriers, and each memory's total against its capacity.
std::string renderLayoutJson(const Pipeline& pipeline);

// The CUDA skeleton: <id>_pipeline.cu (the kernel) and <id>_ops.cuh (the op functions the user
// provides, with their inputs and outputs). Refuses more warp groups than a block holds.
Expected<std::vector<GeneratedFile>> renderCuda(const Pipeline& pipeline,
                                                const TargetOptions& options = {});

// The GPU self-test (docs/codegen.md "Self-test"): the CUDA skeleton's <id>_pipeline.cu and
// <id>_ops.cuh, and <id>_selftest.cu, a program with op bodies that stamp every value and check
// every stamp they read, which runs the pipeline for the trip counts and grids it is given and
// exits 0 (passed), 1 (data error), 3 (deadlock) or 4 (CUDA error).
Expected<std::vector<GeneratedFile>> renderSelfTest(const Pipeline& pipeline,
                                                    const TargetOptions& options = {});

// The CPU program: <id>_pipeline.cpp and the runtime header it includes,
// gaus_protocol_runtime.hpp (the text of protocol_runtime.hpp).
std::vector<GeneratedFile> renderCpuProgram(const Pipeline& pipeline,
                                            const TargetOptions& options = {});
inline constexpr std::string_view kRuntimeHeaderName = "gaus_protocol_runtime.hpp";

// The trace: <id>.trace.json, Chrome trace-event JSON (Perfetto, chrome://tracing). Runs the
// protocol in-process for options.traceTrips iterations and fails naming the faults if a
// check fails.
Expected<std::string> renderTrace(const Pipeline& pipeline, const TargetOptions& options = {});

// The files of a target.
Expected<std::vector<GeneratedFile>> generate(const Pipeline& pipeline, Target target,
                                              const TargetOptions& options = {});

// Writes every file into `folder` (created when missing), each atomically; nothing is written
// unless the folder can be created.
Status writeFiles(const std::filesystem::path& folder, const std::vector<GeneratedFile>& files);

}  // namespace gaus::codegen
