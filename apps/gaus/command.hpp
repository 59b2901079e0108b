// Shared pieces of the gaus subcommands: loading inputs with the common flags, printing, and
// turning failures into a one-line error and a non-zero exit.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <gaus/core/instance.hpp>
#include <gaus/core/options.hpp>
#include <gaus/core/result.hpp>
#include <gaus/io/io.hpp>
#include <gaus/methods/registry.hpp>

namespace gaus::cli {

// Exit codes of every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // bad input, method error, failed verification
inline constexpr int kExitUsage = 2;    // wrong command line (CLI11)

// A failure to report as "gaus: error: MESSAGE" with exit code kExitFailure.
class CommandError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The exit code main() returns when the command's callback finishes without throwing (a
// verification that finds violations sets kExitFailure but still prints its report).
int& exitCode();

// Flags shared by the subcommands that read a graph.
struct InputFlags {
  std::string format;                   // --format: override sniffing
  std::string resourceModel;            // --resources: HatScheT resource model
  std::string machine;                  // --machine: YAML file or name in configs/machines
  std::vector<std::string> capacities;  // --capacity NAME=N (repeatable), N or "inf"
  bool rawComm = false;                 // --raw-comm: keep GML edge parameters unbinarized

  void addTo(CLI::App& command);
  io::ReadOptions readOptions() const;
};

// Flags of the subcommands that run one method (schedule, and twill, which fixes the method):
// the problem, the settings every method may declare, the method's own options, the outputs.
struct MethodRunFlags {
  std::string graph;
  std::string method;
  InputFlags input;
  std::string kind;
  std::optional<std::int32_t> ii;
  std::optional<Cycle> horizon;
  std::optional<double> ratio;  // --kind stages: weight of the peak stage weight
  std::string objective;        // --objective: what the method minimizes (empty: its default)
  // Settings: each becomes the option of the same name for a method that declares it, unless
  // -O already sets it (a method's own option wins).
  std::optional<double> timeLimit;
  std::string memoryLimit;  // --memory-limit: bytes, with an optional K, M, G or T suffix
  std::optional<std::uint64_t> seed;
  std::optional<std::string> device;
  std::optional<std::string> formulation;
  std::optional<std::int32_t> warps;
  std::optional<std::int32_t> maxIi;
  bool explain = false;
  std::vector<std::string> options;  // -O KEY=VALUE
  std::string init;                  // --init: a schedule to start from
  std::string strategy;              // --strategy (gaus twill): a warp strategy to solve under
  std::string output;
  bool json = false;
  bool progress = false;
  bool quiet = false;

  // Adds the flags; `withMethod` adds --method (twill fixes it).
  void addTo(CLI::App& command, bool withMethod);
  Settings settings() const;  // typed: the flags read once, here
  MethodOptions methodOptions() const;
};

// One method run as the subcommands show it.
struct MethodRun {
  Instance instance;
  ProblemKind kind = ProblemKind::kLatency;
  Result result;
  const MethodInfo* method = nullptr;            // as the run found it: its figures by name
  std::shared_ptr<const WarpStrategy> strategy;  // --strategy, placed on the machine
};

// Loads the input, poses the problem (--kind, or inferred from the graph and the flags), runs
// the method through the catalog (which verifies the schedule), writes the verified schedule to
// --output and sets the exit code (failure for an error, an infeasible problem or a schedule
// that fails verification).
MethodRun runMethodCommand(const MethodRunFlags& flags);

// Reads every instance of a file (or one, with "#SELECTOR"), applying --machine and --capacity.
std::vector<Instance> loadInstances(const std::string& spec, const InputFlags& flags);
// Reads exactly one instance; several without a selector is an error listing them.
Instance loadInstance(const std::string& spec, const InputFlags& flags);
// --machine accepts a path or a name in configs/machines ("hopper").
Machine loadMachine(const std::string& nameOrPath);

// Writes text to a file atomically, or to stdout for "-".
void writeOutput(const std::string& path, const std::string& text);

// Human-readable lines for the same.
std::string describeMetrics(const Machine& machine, const ScheduleMetrics& metrics);
std::string describeResult(const Instance& instance, const Result& result);
// One line per op of `ops`, by start time: "  m1    t=1    residue 1    stage 0" (residue and
// stage with an II; "stage N" alone for a stage problem), the first `limit` of them and a line
// saying how many more there are.
std::string describeStartTimes(const Graph& graph, const Schedule& schedule, std::vector<OpId> ops,
                               std::size_t limit, bool stages = false);

// Subcommand registration: each adds itself to `app` and sets its callback.
void addInfoCommand(CLI::App& app);
void addBoundCommand(CLI::App& app);
void addVerifyCommand(CLI::App& app);
void addGenerateCommand(CLI::App& app);
void addConvertCommand(CLI::App& app);
void addScheduleCommand(CLI::App& app);
void addTwillCommand(CLI::App& app);
void addRenderCommand(CLI::App& app);
void addReportCommand(CLI::App& app);
void addCodegenCommand(CLI::App& app);
void addRunCommand(CLI::App& app);

}  // namespace gaus::cli
