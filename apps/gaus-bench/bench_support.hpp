// Measurement helpers of the benchmark program: wall-clock phases, peak resident memory, and a
// report that prints as a table and as JSON (for docs/benchmarks.md and for scripts).
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <gaus/core/random_graph.hpp>

namespace gaus::bench {

// The 1-minute load average (getloadavg); nullopt where it cannot be read. Timings on a shared
// machine are only as good as its load lets them be, so the suites that time report it.
std::optional<double> loadAverage();

// Peak resident set size of this process so far, in bytes (getrusage ru_maxrss).
std::int64_t peakRssBytes();

// Lowers the kernel's peak-RSS mark (VmHWM) to the current resident size after handing freed
// heap pages back to the system, so that peakRssSinceResetBytes() covers only what runs next
// (memory still held, such as an input built before, counts in full). False where
// /proc/self/clear_refs cannot be written; ru_maxrss (peakRssBytes) is never reset.
bool resetPeakRss();
// VmHWM of /proc/self/status in bytes: the peak since the last resetPeakRss(), or since the
// start. Nullopt when it cannot be read.
std::optional<std::int64_t> peakRssSinceResetBytes();

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

// ARGV (ARGV[0] a path) run as a child process, its stdout written to `stdoutFile` and its
// stderr discarded: the wall seconds around it and its exit status (128 + the signal when a
// signal ended it; 127 when it could not be started).
struct ProgramRun {
  double seconds = 0;
  int exitStatus = 0;
};
ProgramRun runProgram(std::vector<std::string> argv,
                      const std::filesystem::path& stdoutFile = "/dev/null");

// One measured figure, with the target it is held to (when it has one). A figure without a
// target is informative; with one it passes or fails.
struct Figure {
  std::string name;
  double value = 0;
  std::string unit;
  std::optional<double> atMost;   // target: value <= atMost
  std::optional<double> atLeast;  // target: value >= atLeast
  bool passes() const { return (!atMost || value <= *atMost) && (!atLeast || value >= *atLeast); }
};

class Report {
 public:
  explicit Report(std::string title) : title_(std::move(title)) {}
  void note(std::string key, std::string value) {
    notes_.emplace_back(std::move(key), std::move(value));
  }
  void add(Figure figure) { figures_.push_back(std::move(figure)); }
  // A figure without a target (informative).
  void add(std::string name, double value, std::string unit = {}) {
    add(Figure{std::move(name), value, std::move(unit), std::nullopt, std::nullopt});
  }
  void addTable(std::string heading, std::vector<std::string> columns,
                std::vector<std::vector<std::string>> rows);
  // A section of the JSON form under its own key (details a table would not hold, such as the
  // cross-method check's list of disagreements); the markdown form leaves it out.
  void addJsonSection(std::string key, nlohmann::json value) {
    sections_.emplace_back(std::move(key), std::move(value));
  }
  bool allPass() const;
  std::string markdown() const;
  nlohmann::json json() const;

 private:
  struct Table {
    std::string heading;
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
  };
  std::string title_;
  std::vector<std::pair<std::string, std::string>> notes_;
  std::vector<Figure> figures_;
  std::vector<Table> tables_;
  std::vector<std::pair<std::string, nlohmann::json>> sections_;
};

// Options every suite shares.
struct BenchOptions {
  bool json = false;  // print JSON instead of markdown
  int exitCode = 0;
};

// Prints the report (markdown, or JSON with --json) and records whether every figure met its
// target: what every suite's callback ends with.
void emitReport(const Report& report, BenchOptions& options);

// "ALU (latency 1-2, busy 1, 8 units), ...": the op types of a generated graph, for a note.
std::string describeOpTypes(const std::vector<RandomOpType>& types);

// Machine and build facts printed with every report: host name, CPU model, cores, date.
std::vector<std::pair<std::string, std::string>> environmentNotes();

}  // namespace gaus::bench
