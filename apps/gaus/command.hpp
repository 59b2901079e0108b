// Shared pieces of the gaus subcommands: loading inputs with the common flags, printing, and
// turning failures into a one-line error and a non-zero exit.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <gaus/core/instance.hpp>
#include <gaus/core/result.hpp>
#include <gaus/io/io.hpp>

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

// Reads every instance of a file (or one, with "#SELECTOR"), applying --machine and --capacity.
std::vector<Instance> loadInstances(const std::string& spec, const InputFlags& flags);
// Reads exactly one instance; several without a selector is an error listing them.
Instance loadInstance(const std::string& spec, const InputFlags& flags);
// --machine accepts a path or a name in configs/machines ("hopper").
Machine loadMachine(const std::string& nameOrPath);
// A graph argument that may name a built-in kernel: an existing path (with an optional
// "#SELECTOR") is kept, a kernel name ("toy_fa") becomes configs/kernels/toy_fa.yaml, anything
// else is an error listing the built-in kernels.
std::string resolveGraphOrKernel(const std::string& input);

// Writes text to a file atomically, or to stdout for "-".
void writeOutput(const std::string& path, const std::string& text);

// JSON views shared by several subcommands.
nlohmann::json metricsToJson(const Machine& machine, const ScheduleMetrics& metrics);
nlohmann::json verificationToJson(const Machine& machine, const VerificationReport& report);
nlohmann::json resultToJson(const Instance& instance, const Result& result);

// Human-readable lines for the same.
std::string describeMetrics(const Machine& machine, const ScheduleMetrics& metrics);
std::string describeResult(const Instance& instance, const Result& result);

// Subcommand registration: each adds itself to `app` and sets its callback.
void addInfoCommand(CLI::App& app);
void addVerifyCommand(CLI::App& app);
void addGenerateCommand(CLI::App& app);
void addConvertCommand(CLI::App& app);
void addScheduleCommand(CLI::App& app);
void addTwillCommand(CLI::App& app);  // only in builds with the exact engine
void addCodegenCommand(CLI::App& app);

}  // namespace gaus::cli
