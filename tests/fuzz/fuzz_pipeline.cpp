// The pipeline every reader harness shares (fuzz_pipeline.hpp).

#include "fuzz_pipeline.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <system_error>
#include <unistd.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/heuristic/list_scheduler.hpp>

namespace gaus::fuzz {

namespace {

// Graphs above this size are read (the readers are what is fuzzed) but not scheduled: a few
// hundred bytes of AIGER header may declare a million inputs, and scheduling them on every
// such input would slow the search without reaching new code.
constexpr OpId kLargestScheduledGraph = 20000;

struct ScratchFolder {
  std::filesystem::path path;
  ScratchFolder() {
    std::error_code error;
    const std::filesystem::path base = std::filesystem::is_directory("/dev/shm", error)
                                           ? std::filesystem::path("/dev/shm")
                                           : std::filesystem::temp_directory_path();
    path = base / ("gaus-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(path, error);
    require(!error, "cannot create the scratch folder");
  }
  ~ScratchFolder() {
    std::error_code error;
    std::filesystem::remove_all(path, error);
  }
};

void exerciseAnalyses(const Graph& graph, const Machine& machine) {
  const auto order = topologicalOrder(graph);
  require(order.ok(), "a graph that loaded has a topological order (readers refuse 0-cycles)");
  const std::vector<Cycle> asap = asapTimes(graph, *order);
  const Cycle criticalPathCycles = criticalPathLength(graph, asap);
  require(criticalPathCycles >= 0, "the critical path is not negative");
  const std::vector<OpId> path = criticalPath(graph, *order, asap);
  require(!path.empty(), "a graph with ops has a critical path");
  require(alapTimes(graph, *order, criticalPathCycles).ok(),
          "ALAP at the critical path length exists");
  const Components components = stronglyConnectedComponents(graph);
  require(components.count >= 1 && components.count <= graph.numOps(),
          "between one and |V| strongly connected components");
  require(countWeaklyConnectedComponents(graph) <= components.count,
          "no more weak components than strong ones");
  const ResMii resMii = computeResMii(graph, machine);
  const RecMii recMii = computeRecMii(graph);
  require(summarizeGraph(graph, machine).ok(), "a graph that loaded can be summarized");
  if (!recMii.infeasible && recMii.value > 0) {
    require(recurrencesAllowIi(graph, recMii.value), "RecMII itself is allowed");
    // RecMII is at least 1 (an II is), so RecMII - 1 is refused only above that floor: a
    // recurrence of delay 0 allows II 0 (fuzzing found the harness assuming otherwise).
    require(recMii.value == 1 || !recurrencesAllowIi(graph, recMii.value - 1), "RecMII - 1 is not");
    require(moduloAsapTimes(graph, std::max<std::int64_t>(recMii.value, resMii.value)).ok(),
            "modulo ASAP times exist at the MII");
  }
}

void exerciseListSchedule(const Problem& latencyProblem, Cycle criticalPathCycles) {
  const auto schedule = heuristic::listSchedule(latencyProblem);
  // The list scheduler may refuse (a schedule spanning more cycles than its table holds); it
  // must not return an illegal schedule.
  if (!schedule) return;
  const VerificationReport report = verify(latencyProblem, *schedule);
  require(report.ok(), "the list schedule of a well-formed problem verifies");
  require(report.metrics.latency >= criticalPathCycles,
          "a legal schedule is no shorter than the critical path");
}

}  // namespace

void require(bool holds, std::string_view what) {
  if (holds) return;
  std::fprintf(stderr, "fuzz check failed: %.*s\n", static_cast<int>(what.size()), what.data());
  std::abort();
}

const std::filesystem::path& scratchFolder() {
  static const ScratchFolder folder;
  return folder.path;
}

std::filesystem::path writeScratchFile(std::string_view name, std::string_view bytes) {
  const std::filesystem::path path = scratchFolder() / std::string(name);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  file.close();
  require(file.good(), "cannot write the scratch input");
  return path;
}

const Instance& toyFlashAttention() {
  static const Instance instance = [] {
    auto read = io::readInstance(GAUS_TEST_DATA_DIR "/native/toy_fa.json");
    require(read.ok(), "tests/data/native/toy_fa.json loads");
    return std::move(read).value();
  }();
  return instance;
}

void exerciseInstance(const Instance& instance) {
  require(instance.graph != nullptr && instance.machine != nullptr,
          "a loaded instance has a graph and a machine");
  const Graph& graph = *instance.graph;
  const Machine& machine = *instance.machine;
  // The writers must take whatever a reader accepted.
  for (const io::Format format : {io::Format::kNativeJson, io::Format::kNativeYaml}) {
    require(io::formatInstance(instance, format).ok(), "an instance that loaded can be written");
  }
  const Problem latencyProblem = instance.problem(ProblemKind::kLatency);
  // check() says what no method can use; such an input goes no further (the registry refuses
  // it the same way).
  if (!latencyProblem.check().empty() || graph.numOps() > kLargestScheduledGraph) return;
  exerciseAnalyses(graph, machine);
  const auto order = topologicalOrder(graph);
  exerciseListSchedule(latencyProblem, criticalPathLength(graph, asapTimes(graph, *order)));
  if (instance.schedule) {
    // A schedule from the file: any verdict is fine, as long as the verifier gives one.
    Problem problem = instance.problem(
        instance.schedule->warps
            ? ProblemKind::kModuloWarp
            : (instance.schedule->ii ? ProblemKind::kModulo : ProblemKind::kLatency));
    if (problem.kind == ProblemKind::kModuloWarp && !problem.check().empty()) {
      problem.kind = ProblemKind::kModulo;
    }
    (void)verify(problem, *instance.schedule);
  }
}

void readAndExercise(std::string_view bytes, std::string_view fileName, io::Format format,
                     const io::ReadOptions& options) {
  const std::filesystem::path path = writeScratchFile(fileName, bytes);
  io::ReadOptions read = options;
  read.format = format;
  const auto instances = io::readInstances(path, read);
  if (!instances) {
    require(!instances.error().empty() && instances.error().find('\n') == std::string::npos,
            "bad input is reported in one line");
    return;
  }
  for (const Instance& instance : *instances) exerciseInstance(instance);
}

}  // namespace gaus::fuzz
