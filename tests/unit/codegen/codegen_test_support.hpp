// Shared pieces of the codegen tests: the built-in kernels with their Twill schedules (solved
// once per test program), schedules from a method registry, small random loops, and compiling
// generated CPU programs with the system C++ compiler.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <gaus/codegen/pipeline.hpp>
#include <gaus/codegen/targets.hpp>
#include <gaus/core/random_graph.hpp>
#include <gaus/exact/methods.hpp>
#include <gaus/exact/twill.hpp>
#include <gaus/heuristic/methods.hpp>

#include "kernel_files.hpp"
#include "run_program.hpp"
#include "test_support.hpp"
#include "toy_graphs.hpp"

namespace gaus::test {

// The built-in kernels but two whose Twill solve takes a minute, too slow for the default suite
// (each test case is a process of its own): fa_fwd_blackwell_subtiled, the stand-in for
// measuring the Twill search (docs/benchmarks.md, "Twill on realistic graphs"), whose
// schedule's register split exceeds the SM's file; and fa_fwd_blackwell_fa4, which the tests
// generate at FA4's schedule (configs/schedules) instead (test_warp_roles.cpp). Nor
// gather_attention_32w, the stand-in for Twill's II bound, which tests/unit/exact checks.
inline std::vector<std::string> builtInKernels() {
  std::vector<std::string> names = builtInKernelNames();
  std::erase(names, "fa_fwd_blackwell_subtiled");
  std::erase(names, "fa_fwd_blackwell_fa4");
  std::erase(names, "gather_attention_32w");
  return names;
}

// The schedules of configs/schedules, each with its kernel (the file's stem up to the first
// dot): hand-made or hand-edited schedules of built-in kernels, "fa_fwd_blackwell_fa4.fa4.json".
inline std::vector<std::pair<std::string, std::string>> configSchedules() {
  std::vector<std::pair<std::string, std::string>> schedules;
  for (const auto& entry : std::filesystem::directory_iterator(sourcePath("configs/schedules"))) {
    const std::string file = entry.path().filename().string();
    schedules.emplace_back(file.substr(0, file.find('.')), file);
  }
  std::sort(schedules.begin(), schedules.end());
  return schedules;
}

// The pipeline of a built-in kernel at a schedule of configs/schedules.
inline codegen::Pipeline kernelPipelineAt(const std::string& name, const std::string& schedule) {
  const Instance instance = loadKernel(name);
  const Schedule read = loadSchedule(sourcePath("configs/schedules/" + schedule), *instance.graph);
  auto pipeline = codegen::buildPipeline(instance, read);
  INFO(name << ": " << (pipeline ? std::string() : pipeline.error()));
  REQUIRE(pipeline);
  return std::move(pipeline).value();
}

// A method's verified schedule of `instance` (modulo; with warps for twill), or nullopt when the
// registry lacks the method or it finds none (its message goes to the test log).
inline std::optional<Schedule> methodSchedule(const MethodRegistry& methods,
                                              const std::string& method, const Instance& instance,
                                              MethodOptions options = {}) {
  const MethodInfo* info = methods.find(method);
  if (info == nullptr) return std::nullopt;
  // A minute at most, unless the caller says otherwise (the loops here take far less).
  if (info->declares("time_limit") && options.count("time_limit") == 0) {
    options["time_limit"] = "60";
  }
  const ProblemKind kind = method == "twill" ? ProblemKind::kModuloWarp : ProblemKind::kModulo;
  const Result result = methods.run(method, instance.problem(kind), options, RunContext{});
  if (!result.schedule || !result.verified()) {
    UNSCOPED_INFO(
        fmt::format("{} on {}: {} {}", method, instance.name, result.statusText(), result.message));
    return std::nullopt;
  }
  return result.schedule;
}

// The heuristic and exact methods only: the tests that need no GauS use this registry instead
// of the catalog, whose LibTorch costs about a second at every start of the test program
// (each test case is a process of its own under ctest).
inline const MethodRegistry& heuristicAndExactMethods() {
  static const MethodRegistry registry = [] {
    MethodRegistry methods;
    registerHeuristicMethods(methods);
    registerExactMethods(methods);
    return methods;
  }();
  return registry;
}

// The Twill solution of a built-in kernel (its schedule and the buffers gaus twill reports),
// solved once per test program.
inline const exact::TwillSolution& kernelTwillSolution(const std::string& name) {
  static std::map<std::string, exact::TwillSolution> solved;
  static std::mutex guard;
  std::lock_guard<std::mutex> lock(guard);
  if (const auto found = solved.find(name); found != solved.end()) return found->second;
  const Instance instance = loadKernel(name);
  exact::TwillSolution solution = exact::solveTwill(instance.problem(ProblemKind::kModuloWarp));
  INFO(name << ": " << solution.result.message);
  REQUIRE(solution.result.schedule);
  REQUIRE(solution.result.verification);
  REQUIRE(solution.result.verification->ok());
  return solved.emplace(name, std::move(solution)).first->second;
}

// The pipeline of a built-in kernel at its Twill schedule.
inline const codegen::Pipeline& kernelPipeline(const std::string& name) {
  static std::map<std::string, codegen::Pipeline> built;
  if (const auto found = built.find(name); found != built.end()) return found->second;
  const exact::TwillSolution& solution = kernelTwillSolution(name);
  auto pipeline = codegen::buildPipeline(loadKernel(name), *solution.result.schedule);
  INFO(name << ": " << (pipeline ? std::string() : pipeline.error()));
  REQUIRE(pipeline);
  return built.emplace(name, std::move(pipeline).value()).first->second;
}

// A TMA load of the next tile (streaming, variable latency, one TMA cycle) of `machine` with
// these footprints, as the built-in kernels declare theirs.
inline OpAttributes streamingLoad(const std::string& name, const Machine& machine,
                                  std::vector<MemoryFootprint> footprints,
                                  std::int32_t latency = 1) {
  OpAttributes load;
  load.name = name;
  load.latency = latency;
  load.reservation = {{*machine.findResource("TMA"), 0, 1, 1}};
  load.variableLatency = true;
  load.streaming = true;
  load.footprints = std::move(footprints);
  return load;
}

// A small random loop: 5 to 9 ops on two unit kinds (one of two units), one or two
// loop-carried edges, and a streaming load feeding it, with warp annotations so that Twill has
// a producer to split off (variable-latency warp 0 of three) and footprints in shared memory.
inline Instance randomLoop(std::uint64_t seed) {
  RandomGraphOptions options;
  options.ops = 5 + static_cast<std::int32_t>(seed % 5);
  options.averageDegree = 1.5;
  options.opTypes = {{"ALU", 1, 2, 1, 2, 2.0}, {"MUL", 1, 3, 0, 1, 1.0}};
  options.backEdges = 1 + static_cast<std::int32_t>(seed % 2);
  options.maxDistance = 2;
  options.seed = seed;
  auto generated = generateRandomGraph(options);
  REQUIRE(generated);
  Machine machine = generated->machine;
  machine.name = "random_loop";
  machine.warps = 3;
  machine.variableLatencyWarp = 0;
  machine.registerLimit = 64;
  machine.registerFile = 65536;
  machine.addResource("TMA", 1);
  machine.memories.push_back({"smem", 1 << 20});
  const Graph& graph = generated->graph;
  GraphBuilder builder(fmt::format("random_loop_{}", seed));
  for (OpId op = 0; op < graph.numOps(); ++op) {
    OpAttributes attributes = graph.opAttributes(op);
    attributes.regs =
        8 + static_cast<std::int32_t>((seed + static_cast<std::uint64_t>(op)) % 3) * 8;
    builder.addOp(attributes);
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) builder.addEdge(graph.edgeAttributes(e));
  // A TMA load of a 4 KB tile feeding the first op (id order is random, so this is any op).
  OpAttributes load = streamingLoad("load", machine, {{0, 4096}}, 2);
  load.kind = "tma_load";
  const OpId loadOp = builder.addOp(load);
  builder.addEdge(loadOp, 0);
  return makeInstance(std::move(builder), std::move(machine));
}

// The command that compiles a generated CPU program with the system compiler, warnings as
// errors, its output into `log`.
inline std::string cpuCompileCommand(const std::filesystem::path& source,
                                     const std::filesystem::path& program,
                                     const std::filesystem::path& log) {
  std::string command = shellQuote(GAUS_CXX_COMPILER);
  for (const char* flag :
       {"-std=c++20", "-O1", "-pthread", "-Wall", "-Wextra", "-Wpedantic", "-Wshadow", "-Werror"}) {
    command.append(" ").append(flag);
  }
  command.append(" -o ").append(shellQuote(program.string()));
  command.append(" ").append(shellQuote(source.string()));
  command.append(" >").append(shellQuote(log.string())).append(" 2>&1");
  return command;
}

// Runs shell commands two at a time (the CI machine has two cores); their exit statuses.
inline std::vector<int> runCommands(const std::vector<std::string>& commands) {
  std::vector<int> status(commands.size(), -1);
  constexpr std::size_t kJobs = 2;
  for (std::size_t first = 0; first < commands.size(); first += kJobs) {
    const std::size_t end = std::min(commands.size(), first + kJobs);
    std::vector<std::future<int>> running;
    for (std::size_t c = first; c < end; ++c) {
      running.push_back(std::async(std::launch::async,
                                   [&commands, c] { return std::system(commands[c].c_str()); }));
    }
    for (std::size_t c = first; c < end; ++c) status[c] = running[c - first].get();
  }
  return status;
}

// Writes and compiles the CPU program of each pipeline in its own folder under `folder`, two
// at a time; fails the test with the compiler's output.
inline std::vector<std::filesystem::path> compileCpuPrograms(
    const std::filesystem::path& folder, const std::vector<codegen::Pipeline>& pipelines) {
  std::vector<std::filesystem::path> programs, logs;
  std::vector<std::string> commands;
  for (std::size_t p = 0; p < pipelines.size(); ++p) {
    const auto place = folder / fmt::format("program{}", p);
    REQUIRE(codegen::writeFiles(place, codegen::renderCpuProgram(pipelines[p])));
    programs.push_back(place / "pipeline_program");
    logs.push_back(place / "compile.log");
    commands.push_back(cpuCompileCommand(place / (pipelines[p].identifier + "_pipeline.cpp"),
                                         programs.back(), logs.back()));
  }
  const std::vector<int> status = runCommands(commands);
  for (std::size_t c = 0; c < commands.size(); ++c) {
    INFO(pipelines[c].name << ": " << readWholeFile(logs[c]));
    REQUIRE(status[c] == 0);
  }
  return programs;
}

// nvcc's path when it is there; the CUDA checks say so and pass when it is not.
inline std::optional<std::string> nvcc() {
  const std::string path = GAUS_NVCC;
  if (path.empty() || !std::filesystem::exists(path)) return std::nullopt;
  return path;
}

// Trivial definitions of the ops a generated <id>_ops.cuh declares (parameter names dropped,
// bodies empty), the kernel, and a host function that instantiates it through its launcher.
inline std::string cudaTestUnit(const codegen::Pipeline& pipeline, const std::string& opsHeader) {
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

// The nvcc command that compiles the test unit `source` of a CUDA skeleton for `architecture`,
// warnings as errors, its output into `log`.
inline std::string cudaCompileCommand(const std::string& compiler, const std::string& architecture,
                                      const std::filesystem::path& source,
                                      const std::filesystem::path& log) {
  return fmt::format(
      "{} -arch={} -std=c++17 -c {} -o {} -Xcompiler -Wall,-Wextra -Werror all-warnings >{} 2>&1",
      shellQuote(compiler), architecture, shellQuote(source.string()),
      shellQuote((source.parent_path() / (architecture + ".o")).string()),
      shellQuote(log.string()));
}

inline std::filesystem::path compileCpuProgram(const std::filesystem::path& folder,
                                               const codegen::Pipeline& pipeline) {
  return compileCpuPrograms(folder, {pipeline}).front();
}

}  // namespace gaus::test
