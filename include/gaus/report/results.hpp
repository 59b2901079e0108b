// The results file of an experiment: JSON lines, one record per run ("gaus-result-2",
// docs/formats.md "Results"). A record is what `gaus schedule --json` prints of the run's result
// (its status, objective, bounds, options, figures and attempts: ResultFields, written and read
// here for both), beside the run's metadata (its id, graph, problem, seed, host, ...) and
// without the schedule, which has its own file. The experiment runner appends records with
// formatResultRecord; the report reads them back with readResults, which tolerates unknown
// fields, missing optional ones, "gaus-result-1" lines of earlier versions, and lines a crash
// left half-written (skipped, counted and named by line number).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <gaus/core/analysis.hpp>
#include <gaus/core/expected.hpp>

namespace gaus::report {

inline constexpr std::string_view kResultFormat = "gaus-result-2";
// The format before the result's fields took the shape of `--json` (top-level lower_bound,
// bound_argument, proven_optimal and figures): still read.
inline constexpr std::string_view kResultFormatV1 = "gaus-result-1";

// How a run ended. A superset of the methods' ModelStatus (and a failed call, "error"): the runner
// adds what only it can see from outside the method (a crash, running out of memory, a result it
// could not classify).
enum class RunStatus {
  kOptimal,
  kFeasible,
  kInfeasible,
  kTimeout,
  kUnknown,
  kError,
  kCrashed,
  kOutOfMemory,
};
std::string_view toString(RunStatus status);  // "optimal", ..., "out_of_memory"
std::optional<RunStatus> parseRunStatus(std::string_view text);

// True for optimal and feasible: the method says it returned a schedule it stands by.
bool isSuccess(RunStatus status);

struct ResultGraph {
  std::string id;    // "heurigym/small/ewf": what runs on the same graph share
  std::string path;  // the graph file (optionally "FILE#SELECTOR"); may be empty
  std::string hash;  // "sha256:<hex>"; may be empty
  std::optional<std::int64_t> ops;
  std::optional<std::int64_t> edges;
};

struct ResultProblem {
  std::string kind;  // "latency", "latency-bounded", "modulo", "modulo-warp", "stages"
  std::string machine;
  std::optional<std::int64_t> horizon;
  std::optional<std::int64_t> ii;
};

struct ResultObjective {
  std::string name;  // "latency", "ii", "peak_memory", ...: always minimized
  double value = 0.0;
};

// One step of a method's search (an II tried, a horizon tried, one MILP or SMT call).
struct ResultAttempt {
  std::string phase;  // "milp", "smt", "horizon", "ii", ...
  std::optional<std::int64_t> ii;
  std::optional<std::int64_t> latency;
  std::optional<std::int64_t> horizon;
  std::optional<RunStatus> status;
  std::optional<double> seconds;
  std::optional<double> bound;
  std::string detail;
};

// What a method run returned, in the one shape `--json`, Python and a results record share
// (result_json.hpp writes the rest of `--json` around it): {"method", "status", "message",
// "objective": {"name", "value"}, "seconds", "iterations", "solver_calls", "bounds":
// {"lower_bound", "gap", "ii_proven_optimal", "latency_proven_optimal", "ii_bound", "mii",
// "res_mii", "rec_mii", "argument"}, "options", "extra": {figure: value}, "attempts", "verified"}.
struct ResultFields {
  std::string method;
  RunStatus status = RunStatus::kUnknown;
  std::string message;
  std::optional<ResultObjective> objective;
  std::optional<double> seconds;
  std::int64_t iterations = 0;
  std::int64_t solverCalls = 0;
  std::optional<double> lowerBound;
  std::optional<double> gap;       // (objective - lower bound) / objective
  std::string lowerBoundArgument;  // what gave it (Bounds::lowerBoundArgument), when said
  bool iiProvenOptimal = false;
  bool latencyProvenOptimal = false;
  std::optional<MiiBound> mii;  // loops: MII, ResMII, RecMII and the reason
  std::vector<std::pair<std::string, std::string>> options;
  // The figures the method declares (core/figures.hpp; `gaus methods --json` gives each its unit
  // and doc), by name, in the order the method reported them: what a run cost and did beyond
  // its objective (GauS's Adam steps, first legal seconds, optimizer wait; ilp's variables).
  std::vector<std::pair<std::string, double>> figures;
  std::vector<ResultAttempt> attempts;
  bool verified = false;

  // The objective is proven best: the status says so (a run scored by another objective than
  // its method's is at best feasible).
  bool provenOptimal() const { return status == RunStatus::kOptimal; }
};

// The one writer and the one reader of ResultFields' JSON. The reader throws nothing: it fails
// with the first field that does not hold what the format says ("expected a number for
// bounds.lower_bound, found \"x\"").
void writeResultFields(const ResultFields& fields, nlohmann::ordered_json& json);
void writeResultFields(const ResultFields& fields, nlohmann::json& json);  // sorted by key
Expected<ResultFields> readResultFields(const nlohmann::json& json);

// A run of an experiment: its result and its metadata.
struct ResultRecord : ResultFields {
  std::string runId;
  std::string experiment;
  std::string label;  // the method entry's display name; readResults defaults it to `method`
  ResultGraph graph;
  ResultProblem problem;
  std::optional<double> reference;  // best-known value from outside (e.g. HeuriGym baseline)
  std::optional<std::int64_t> peakRssBytes;
  std::optional<std::int64_t> jobs;
  std::optional<std::string> scheduleFile;  // relative to the results file's folder
  // A GauS run's convergence trace (`-O trace=`, docs/gaus.md), relative to the same folder.
  std::optional<std::string> traceFile;
  std::optional<std::int64_t> seed;
  std::optional<std::int64_t> repeat;
  std::string version;
  std::string host;
  std::string startedAt;  // ISO-8601 UTC

  std::int64_t line = 0;  // where readResults found it (not written)
};

// A run that failed: it ended in an error, a crash or out of memory, or without a verified
// schedule for a reason other than a proof that none exists. A run stopped by its time limit
// with a verified schedule is a result, not a failure (its value is not proven best); an
// infeasible run is a proof. The one rule of the report, the progress lines and the summary.
bool isFailure(const ResultRecord& record);

// A line readResults could not use, and why ("expected a string status, found 3").
struct SkippedLine {
  std::int64_t line = 0;
  std::string reason;
};

struct ResultsFile {
  std::filesystem::path path;
  std::vector<ResultRecord> records;  // in file order; a repeated run_id keeps the last line
  std::vector<SkippedLine> skipped;
  std::int64_t replacedRecords = 0;  // earlier lines of a run_id that appeared again (a re-run)
};

// Reads a results file. Lines that are not a usable record are skipped and listed; blank lines
// are ignored. Fails (naming the file, and the line of the first bad one) only when no record
// is readable.
Expected<ResultsFile> readResults(const std::filesystem::path& path);

// One line of a results file as a record, or why it is not one (the reason readResults gives
// for a skipped line). The experiment runner reads back what a run's process wrote with it.
Expected<ResultRecord> parseResultRecord(std::string_view line);

// A run id (or a graph id) as a file name: characters other than letters, digits, '.', '-' and
// '_' become '_' ("heurigym/small/ewf~list~r0" -> "heurigym_small_ewf_list_r0"); never empty.
std::string fileNameOf(std::string_view runId);

// One record as one line of JSON (no newline): what the experiment runner appends.
std::string formatResultRecord(const ResultRecord& record);

}  // namespace gaus::report
