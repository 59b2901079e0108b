// The runner end to end through its library entry point, with the catalog's list method and the
// misbehaving test methods (misbehaving_methods.hpp): records, starts, horizon policies, crash
// isolation, resume after a cut line, and an interrupt (SIGINT to a batch in another process)
// followed by a resume.

#include <array>
#include <cstring>
#include <set>
#include <signal.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/experiment/experiment_config.hpp>
#include <gaus/experiment/experiment_runner.hpp>
#include <gaus/report/results.hpp>

#include "experiment_test_support.hpp"
#include "graph_survey.hpp"
#include "kernel_files.hpp"
#include "misbehaving_methods.hpp"
#include "summary_text.hpp"

using namespace gaus;
using namespace gaus::experiment;

namespace {

namespace fs = std::filesystem;

struct BatchRun {
  Expected<BatchOutcome> outcome = Error{"not run"};
  std::string printed;
  fs::path output;
};

BatchRun runConfig(const fs::path& folder, const std::string& text, RunnerOptions options = {}) {
  const auto path = test::writeConfig(folder, text);
  const auto config = readExperimentConfig(path, test::testRegistry());
  INFO((config ? std::string() : config.error()));
  REQUIRE(config.ok());
  std::ostringstream printed;
  options.out = &printed;
  options.progress = ProgressStyle::kLines;
  BatchRun batch;
  batch.output = folder / "out";
  if (!options.output) options.output = batch.output;
  batch.outcome = runExperiment(*config, test::testRegistry(), options);
  batch.printed = printed.str();
  return batch;
}

report::ResultsFile readBack(const fs::path& output) {
  auto results = report::readResults(output / "results.jsonl");
  REQUIRE(results.ok());
  return std::move(results).value();
}

const report::ResultRecord& recordOf(const report::ResultsFile& results, const std::string& id) {
  for (const auto& record : results.records) {
    if (record.runId == id) return record;
  }
  FAIL("no record of run " << id);
  return results.records.front();
}

// Three generated 12-op graphs of unlimited ALU ops; list and sleepy (0.1 s) on each.
const std::string kSmallBatch = R"(name: small
graphs:
  - set: tiny
    generate: {ops: 12, degree: 2, seeds: [1, 2, 3]}
methods:
  - method: list
  - method: sleepy
    options: {seconds: 0.1}
budgets:
  time_limit: 5
)";

}  // namespace

TEST_CASE("a batch records every run once with what the method echoed and the verifier said",
          "[experiment][runner]") {
  const auto folder = test::experimentScratch("records");
  const BatchRun batch = runConfig(folder, kSmallBatch);
  REQUIRE(batch.outcome.ok());
  // 3 graphs x (list + sleepy); sleepy declares a seed, so it runs once per budget seed (one).
  CHECK(batch.outcome->runs == 6);
  CHECK(batch.outcome->recorded == 6);
  CHECK(batch.outcome->failed == 0);
  const auto results = readBack(batch.output);
  REQUIRE(results.records.size() == 6);
  CHECK(results.skipped.empty());
  const auto& list = recordOf(results, "tiny/ops12-seed1~list~r0");
  // On unlimited units list meets its lower bound, the critical path: proven optimal.
  CHECK(list.status == report::RunStatus::kOptimal);
  CHECK(list.provenOptimal());
  CHECK(list.verified);
  CHECK(list.graph.ops == 12);
  CHECK_FALSE(list.seed.has_value());  // list takes no seed
  CHECK(list.jobs == 1);
  CHECK(list.peakRssBytes.value_or(0) > 0);
  CHECK(list.graph.hash.starts_with("sha256:"));
  // The generated graph is written beside the results, and its hash is the hash of that file.
  REQUIRE(fs::exists(batch.output / list.graph.path));
  CHECK(list.graph.hash == *fileHash(batch.output / list.graph.path));
  // The options are the method's own echo: both of list's, with their defaults.
  CHECK(list.options ==
        std::vector<std::pair<std::string, std::string>>{{"priority", "height"},
                                                         {"refine", "false"},
                                                         {"tie_break", "successors"},
                                                         {"time_limit", "5"}});
  // On unlimited units list scheduling meets the critical path, so its latency is the
  // critical path of the graph read back.
  const Instance graph = test::loadInstance(batch.output / list.graph.path);
  const auto order = topologicalOrder(*graph.graph);
  CHECK(list.objective->value ==
        static_cast<double>(criticalPathLength(*graph.graph, asapTimes(*graph.graph, *order))));
  // The record carries the method's declared figures: list's critical path is that same length,
  // and its resource bound is 0 on unlimited units (heuristic_figures.hpp).
  const auto figure = [&list](std::string_view name) -> std::optional<double> {
    for (const auto& [declared, value] : list.figures) {
      if (declared == name) return value;
    }
    return std::nullopt;
  };
  CHECK(figure("critical_path") == list.objective->value);
  CHECK(figure("resource_bound") == 0.0);
  const auto& sleepy = recordOf(results, "tiny/ops12-seed1~sleepy~s1~r0");
  CHECK(sleepy.seed == 1);
  CHECK(sleepy.seconds.value_or(0) >= 0.1);
  CHECK(fs::exists(batch.output / "report.html"));
  CHECK(fs::exists(batch.output / "summary.csv"));
  CHECK(fs::exists(batch.output / "summary.md"));
  CHECK(batch.printed.find("report: ") != std::string::npos);
  // The config is kept beside its results.
  CHECK(test::readWholeFile(batch.output / "experiment.yaml") == kSmallBatch);
}

TEST_CASE("a dry run prints the matrix and writes nothing", "[experiment][runner]") {
  const auto folder = test::experimentScratch("dry-run");
  RunnerOptions options;
  options.dryRun = true;
  const BatchRun batch = runConfig(folder, kSmallBatch, options);
  REQUIRE(batch.outcome.ok());
  CHECK(batch.outcome->runs == 6);
  CHECK_FALSE(fs::exists(batch.output));
  CHECK(batch.printed.find("small (") == 0);
  CHECK(batch.printed.find("6 runs on 3 graphs") != std::string::npos);
  // The row of set tiny: 3 graphs, 3 runs of each method.
  CHECK(batch.printed.find("tiny (3)       3       3") != std::string::npos);
  // Each of the 6 runs counts its 5 s limit (list's too: it declares time_limit for its
  // refinement).
  CHECK(batch.printed.find("at most 30s of run time") != std::string::npos);
  CHECK(batch.printed.find("without a time limit") == std::string::npos);
}

TEST_CASE("a run started from another gets its schedule, and a horizon policy runs its method",
          "[experiment][runner]") {
  const auto folder = test::experimentScratch("starts");
  const BatchRun batch = runConfig(folder, R"(graphs:
  - generate: {ops: 15, degree: 2}
problem:
  horizon: list_latency * 2
methods:
  - method: sleepy
    label: later
    options: {seconds: 0}
    init: {from: first}
  - method: sleepy
    label: first
    options: {seconds: 0}
  - method: sleepy
    label: alone
    options: {seconds: 0}
    init: list
budgets:
  time_limit: 5
)");
  REQUIRE(batch.outcome.ok());
  const auto results = readBack(batch.output);
  const auto& first = recordOf(results, "graphs/ops15-seed1~first~s1~r0");
  const auto& later = recordOf(results, "graphs/ops15-seed1~later~s1~r0");
  const auto& alone = recordOf(results, "graphs/ops15-seed1~alone~s1~r0");
  // `later` is listed first but waits for `first`, whose schedule it is handed: the source's
  // schedule is written although the config does not ask for schedules.
  REQUIRE(first.scheduleFile);
  CHECK(fs::exists(batch.output / *first.scheduleFile));
  CHECK(later.line > first.line);
  REQUIRE(later.attempts.size() >= 2);
  CHECK(later.attempts[1].phase == "init");
  CHECK(later.attempts[1].detail == "the schedule of run graphs/ops15-seed1~first~s1~r0");
  // `alone` starts from list, which is no entry: list runs first in the same process.
  CHECK(alone.attempts[1].phase == "init");
  CHECK(alone.attempts[1].detail.starts_with("method list run first: latency "));
  // The horizon: twice list's latency, which on unlimited units is the ASAP objective sleepy
  // reports, found by the policy's own run of list (the first attempt).
  REQUIRE(first.problem.horizon);
  CHECK(*first.problem.horizon == 2 * static_cast<std::int64_t>(first.objective->value));
  CHECK(first.problem.kind == "latency-bounded");
  CHECK(first.attempts.front().phase == "horizon-policy");
}

TEST_CASE(
    "runs that crash or allocate without bound or hang are recorded as such and the batch goes on",
    "[experiment][runner]") {
  const auto folder = test::experimentScratch("isolation");
  // The test process's own address space plus 512 MB: the runs start, and `allocate` runs out
  // long before it troubles the machine.
  std::int64_t ownBytes = 0;
  {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);) {
      if (line.starts_with("VmSize:")) ownBytes = std::stoll(line.substr(7)) * 1024;
    }
  }
  RunnerOptions options;
  options.memoryLimitBytes = ownBytes + (std::int64_t{512} << 20);
  options.jobs = 2;
  const BatchRun batch = runConfig(folder, R"(graphs:
  - generate: {ops: 10}
methods:
  - method: abort
  - method: allocate
    options: {time_limit: 60}  # its own limit: a loaded machine pages slowly
  - method: throw
  - method: hang
  - method: list
budgets:
  time_limit: 0.5
  grace: 0.5
)",
                                   options);
  REQUIRE(batch.outcome.ok());
  CHECK(batch.outcome->recorded == 5);
  CHECK(batch.outcome->failed == 4);
  const auto results = readBack(batch.output);
  const auto& aborted = recordOf(results, "graphs/ops10-seed1~abort~s1~r0");
  CHECK(aborted.status == report::RunStatus::kCrashed);
  CHECK(aborted.message.starts_with("killed by signal 6 (Aborted)"));
  CHECK_FALSE(aborted.verified);
  // The record still names the problem the run's process had posed before it died.
  CHECK(aborted.problem.kind == "latency");
  const auto& allocated = recordOf(results, "graphs/ops10-seed1~allocate~s1~r0");
  CHECK(allocated.status == report::RunStatus::kOutOfMemory);
  CHECK(allocated.message.find("under the memory limit") != std::string::npos);
  // An exception out of the method is its error; this one reports ENOMEM, so it is recorded as
  // running out of memory, with the first line of its message.
  const auto& threw = recordOf(results, "graphs/ops10-seed1~throw~s1~r0");
  CHECK(threw.status == report::RunStatus::kOutOfMemory);
  CHECK(threw.message ==
        std::string("the method threw: can't allocate memory: ") + std::strerror(ENOMEM));
  // The hang is stopped once its limit (0.5 s) and the grace (0.5 s) have passed.
  const auto& hung = recordOf(results, "graphs/ops10-seed1~hang~s1~r0");
  CHECK(hung.status == report::RunStatus::kTimeout);
  CHECK(hung.seconds.value_or(0) >= 1.0);
  CHECK(hung.seconds.value_or(0) < 5.0);
  // The batch went on: list ran and verified.
  const auto& list = recordOf(results, "graphs/ops10-seed1~list~r0");
  CHECK(list.status == report::RunStatus::kOptimal);
  CHECK(list.verified);
  CHECK(list.jobs == 2);
}

TEST_CASE("resume skips recorded runs and cuts off a half-written last line",
          "[experiment][runner]") {
  const auto folder = test::experimentScratch("resume");
  const BatchRun first = runConfig(folder, kSmallBatch);
  REQUIRE(first.outcome.ok());
  const auto lines = test::readLines(first.output / "results.jsonl");
  REQUIRE(lines.size() == 6);
  // Keep four records, then half of the fifth, as a machine stopped mid-write leaves it.
  {
    std::ofstream out(first.output / "results.jsonl", std::ios::binary | std::ios::trunc);
    for (int i = 0; i < 4; ++i) out << lines[i] << '\n';
    out << lines[4].substr(0, lines[4].size() / 2);
  }
  // Without --resume, the runner refuses to append to a file with records.
  const BatchRun refused = runConfig(folder, kSmallBatch);
  REQUIRE_FALSE(refused.outcome.ok());
  CHECK(refused.outcome.error().find("pass --resume") != std::string::npos);

  RunnerOptions options;
  options.resume = true;
  const BatchRun resumed = runConfig(folder, kSmallBatch, options);
  REQUIRE(resumed.outcome.ok());
  CHECK(resumed.outcome->alreadyRecorded == 4);
  CHECK(resumed.outcome->recorded == 2);
  CHECK(resumed.printed.find("cut off a half-written last line") != std::string::npos);
  const auto after = test::readLines(first.output / "results.jsonl");
  REQUIRE(after.size() == 6);
  for (int i = 0; i < 4; ++i) CHECK(after[i] == lines[i]);  // nothing recorded is lost
  const auto results = readBack(first.output);
  CHECK(results.skipped.empty());
  CHECK(results.replacedRecords == 0);  // nothing is run twice
  std::set<std::string> ids;
  for (const auto& record : results.records) ids.insert(record.runId);
  CHECK(ids.size() == 6);

  // Resuming a complete batch runs nothing.
  const BatchRun again = runConfig(folder, kSmallBatch, options);
  REQUIRE(again.outcome.ok());
  CHECK(again.outcome->recorded == 0);
}

TEST_CASE("SIGINT stops a batch and keeps its records: resume runs the rest once",
          "[experiment][runner]") {
  const auto folder = test::experimentScratch("interrupt");
  // 8 graphs x sleepy at 0.4 s, one at a time: about 3 s in all.
  const std::string text = R"(graphs:
  - generate: {ops: 10, seeds: [1, 2, 3, 4, 5, 6, 7, 8]}
methods:
  - method: sleepy
    options: {seconds: 0.4}
)";
  const auto path = test::writeConfig(folder, text);
  const auto results = folder / "out" / "results.jsonl";
  const pid_t batch = ::fork();
  REQUIRE(batch >= 0);
  if (batch == 0) {
    const auto config = readExperimentConfig(path, test::testRegistry());
    std::ostringstream quiet;
    RunnerOptions options;
    options.out = &quiet;
    options.output = folder / "out";
    options.report = false;
    const auto outcome = runExperiment(*config, test::testRegistry(), options);
    ::_exit(!outcome ? 1 : outcome->interrupted ? 130 : 0);
  }
  // Interrupt once two runs are recorded (each takes 0.4 s; the survey takes well under 1 s).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline && test::readLines(results).size() < 2) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(batch, SIGINT);
  int status = 0;
  ::waitpid(batch, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
  const auto before = test::readLines(results);
  CHECK(before.size() >= 2);
  CHECK(before.size() < 8);
  for (const auto& line : before) CHECK(report::parseResultRecord(line).ok());

  RunnerOptions options;
  options.resume = true;
  options.report = false;
  const BatchRun resumed = runConfig(folder, text, options);
  REQUIRE(resumed.outcome.ok());
  CHECK(resumed.outcome->alreadyRecorded == static_cast<std::int64_t>(before.size()));
  const auto after = test::readLines(results);
  REQUIRE(after.size() == 8);
  for (std::size_t i = 0; i < before.size(); ++i) CHECK(after[i] == before[i]);
  std::set<std::string> ids;
  for (const auto& line : after) ids.insert(report::parseResultRecord(line)->runId);
  CHECK(ids.size() == 8);  // each run recorded once
}

TEST_CASE("content hashes are SHA-256", "[experiment][runner]") {
  // FIPS 180-2, appendix B.1: the digest of "abc".
  CHECK(textHash("abc") ==
        "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("methods with other objectives are compared on the figure the problem names",
          "[experiment][runner]") {
  const auto folder = test::experimentScratch("objective");
  // At list's own latency as the horizon, the experiment compares peak live memory (as
  // epfl.yaml does with GauS B).
  const BatchRun batch = runConfig(folder, R"(graphs:
  - generate: {ops: 30, degree: 2, weighted: 1, min_weight: 1, max_weight: 4}
problem:
  kind: latency-bounded
  horizon: list_latency
  objective: peak_memory
methods:
  - method: list
budgets:
  schedules: true
)");
  REQUIRE(batch.outcome.ok());
  const auto results = readBack(batch.output);
  const auto& list = recordOf(results, "graphs/ops30-seed1~list~r0");
  REQUIRE(list.objective);
  CHECK(list.objective->name == "peak_memory");
  CHECK(list.objective->value > 0);  // every op holds 1 to 4 units of memory
  // The figure is the verifier's peak live memory of the schedule the run wrote.
  const Instance graph = test::loadInstance(batch.output / list.graph.path);
  const Schedule schedule = test::loadSchedule(batch.output / *list.scheduleFile, *graph.graph);
  CHECK(list.objective->value ==
        computeMetrics(*graph.graph, *graph.machine, schedule).peakLiveMemory);
  // Within D on a graph with mems, list reports the peak live memory itself, with B's min-cut
  // bound (core/live_memory_bound.hpp): carried over, never above the value.
  REQUIRE(list.lowerBound.has_value());
  CHECK(*list.lowerBound <= list.objective->value);
  CHECK(list.provenOptimal() == (list.status == report::RunStatus::kOptimal));

  // The experiment's objective is the problem's (every method is asked to minimize it), so
  // latency, which a latency-bounded problem has not, fails each run with a message naming the
  // objective and the kinds it fits.
  const auto latencyFolder = test::experimentScratch("objective-latency");
  const BatchRun byLatency = runConfig(latencyFolder, R"(graphs:
  - generate: {ops: 30, degree: 2, weighted: 1, min_weight: 1, max_weight: 4}
problem:
  kind: latency-bounded
  horizon: list_latency
  objective: latency
methods:
  - method: list
)");
  REQUIRE(byLatency.outcome.ok());
  const auto latencyResults = readBack(byLatency.output);
  const auto& latencyRecord = recordOf(latencyResults, "graphs/ops30-seed1~list~r0");
  CHECK(latencyRecord.status == report::RunStatus::kError);
  CHECK_THAT(latencyRecord.message,
             Catch::Contains("objective latency does not fit a latency-bounded problem"));
  CHECK_FALSE(latencyRecord.objective);
}

TEST_CASE("best on: wins and ties told apart, and all ties said as such", "[experiment]") {
  // Two methods on three problems. Equal values everywhere: no method is better anywhere, so
  // "gaus 3 of 3, list 3 of 3" would mislead.
  const auto summaryOf = [](const std::vector<std::array<double, 2>>& values) {
    report::ResultsFile file;
    for (std::size_t p = 0; p < values.size(); ++p) {
      for (std::size_t m = 0; m < 2; ++m) {
        report::ResultRecord record;
        record.label = m == 0 ? "gaus" : "list";
        record.method = record.label;
        record.runId = fmt::format("g{}/{}", p, record.label);
        record.graph.id = fmt::format("g{}", p);
        record.problem.kind = "latency";
        record.status = report::RunStatus::kFeasible;
        record.verified = true;
        record.objective = report::ResultObjective{"latency", values[p][m]};
        file.records.push_back(std::move(record));
      }
    }
    return report::summarizeResults(file);
  };
  CHECK(describeBestOn(summaryOf({{5, 5}, {7, 7}, {9, 9}}), true) ==
        "all tied: every method has the same value on each of the 3 problems");
  // gaus lower on two problems, equal on the third: 3 of 3 (2 alone, 1 tied); list 1 of 3.
  CHECK(describeBestOn(summaryOf({{4, 5}, {6, 7}, {9, 9}}), false) ==
        "gaus 3 of 3 (2 alone, 1 tied), list 1 of 3 (tied)");
  CHECK_THAT(describeBestOn(summaryOf({{4, 5}, {6, 7}, {8, 9}}), true),
             Catch::StartsWith("gaus 3 of 3 (alone), list 0 of 3 (problems it shares"));
}
