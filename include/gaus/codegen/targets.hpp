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

enum class Target { kText, kCuda, kCpu, kTrace };
inline constexpr auto kTargetNames = makeEnumNames<Target>({
    {Target::kText, "text"},
    {Target::kCuda, "cuda"},
    {Target::kCpu, "cpu"},
    {Target::kTrace, "trace"},
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

// The CUDA skeleton: <id>_pipeline.cu (the kernel) and <id>_ops.cuh (the op functions the user
// provides, with their inputs and outputs). Refuses more warp groups than a block holds.
Expected<std::vector<GeneratedFile>> renderCuda(const Pipeline& pipeline,
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
