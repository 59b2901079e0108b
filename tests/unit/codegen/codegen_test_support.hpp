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
#include <gaus/io/io.hpp>

#include "kernel_files.hpp"
#include "run_program.hpp"
#include "test_support.hpp"
#include "toy_graphs.hpp"

namespace gaus::test {

// The built-in kernels but fa_fwd_blackwell_subtiled, the stand-in for measuring the Twill
// search (a minute per solve: docs/benchmarks.md, "Twill on realistic graphs"), which is too
// slow for the default suite and whose schedule's register split exceeds the SM's file.
inline std::vector<std::string> builtInKernels() {
  std::vector<std::string> names = io::builtInKernelNames(sourcePath("."));
  std::erase(names, "fa_fwd_blackwell_subtiled");
  return names;
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
  const ResourceId tma = machine.addResource("TMA", 1);
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
  OpAttributes load;
  load.name = "load";
  load.kind = "tma_load";
  load.latency = 2;
  load.reservation = {{tma, 0, 1, 1}};
  load.variableLatency = true;
  load.streaming = true;
  load.footprints = {{0, 4096}};
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

inline std::filesystem::path compileCpuProgram(const std::filesystem::path& folder,
                                               const codegen::Pipeline& pipeline) {
  return compileCpuPrograms(folder, {pipeline}).front();
}

}  // namespace gaus::test
