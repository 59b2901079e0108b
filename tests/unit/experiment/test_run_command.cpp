// `gaus run` as a user runs it: the program's output and exit codes, a bad config, the version
// flag under an MPI launcher's environment, and the same config under `mpirun -np 3` against
// one process (the same records, timings aside) with --resume across the two.

#include <cstdlib>
#include <map>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <gaus/report/results.hpp>

#include "cli_test_support.hpp"
#include "experiment_test_support.hpp"

using namespace gaus;

namespace {

namespace fs = std::filesystem;

// HeuriGym graphs with list and the MILP started from list's schedule, MachSuite loops with
// IMS, generated graphs with list: 18 runs of a second or two in all.
const std::string kConfig = R"(name: cli
graphs:
  - set: heurigym
    files:
      - ${shared}/benchmarks/heurigym-operator-scheduling/demo/hal.json
      - ${shared}/benchmarks/heurigym-operator-scheduling/small/ewf.json
      - ${shared}/benchmarks/heurigym-operator-scheduling/small/fir1.json
  - set: loops
    glob: ${shared}/benchmarks/hatschet-machsuite/md_grid/graph*.graphml
  - set: generated
    generate: {ops: 300, degree: 2, types: ["ALU:1-2:1:4", "MUL:2-3:1:2"], seeds: [1, 2]}
methods:
  - method: list
    on: [heurigym, generated]
  - method: ilp
    on: heurigym
    init: {from: list}
  - method: ims
    on: loops
budgets:
  time_limit: 20
)";
constexpr std::size_t kRuns = 3 * 2 + 10 + 2;

// What two runs of one record must agree on: everything but the host and the timings.
std::string comparable(const report::ResultRecord& record) {
  std::string text = report::formatResultRecord(record);
  auto json = nlohmann::json::parse(text);
  for (const char* timing : {"seconds", "peak_rss_bytes", "jobs", "host", "started_at"}) {
    json.erase(timing);
  }
  for (auto& attempt : json["attempts"]) attempt.erase("seconds");
  return json.dump();
}

std::map<std::string, std::string> recordsOf(const fs::path& output) {
  auto results = report::readResults(output / "results.jsonl");
  REQUIRE(results.ok());
  CHECK(results->skipped.empty());
  CHECK(results->replacedRecords == 0);
  std::map<std::string, std::string> records;
  for (const auto& record : results->records) records[record.runId] = comparable(record);
  return records;
}

}  // namespace

TEST_CASE("gaus run writes the results and the report and ends with a summary",
          "[experiment][cli]") {
  const auto folder = test::experimentScratch("cli-run");
  const auto config = test::writeConfig(folder, kConfig);
  const auto output = folder / "out";
  const auto run = test::runGaus({"run", config.string(), "-o", output.string(), "--jobs", "2"});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  CHECK(recordsOf(output).size() == kRuns);
  // Five summary lines, then the report's path, as the last lines of the output.
  const auto lines = test::readLines(test::writeConfig(folder, run.out, "printed.txt"));
  REQUIRE(lines.size() >= 6);
  CHECK(lines[lines.size() - 6].starts_with("runs:      18 recorded (18 by this batch"));
  CHECK(lines.back() == "report: " + (output / "report.html").string());
  CHECK(fs::exists(output / "report.html"));
  // Not a terminal: one line per run.
  CHECK(run.out.find("[18/18] ") != std::string::npos);
}

TEST_CASE(
    "gaus run keeps a GauS run's trace beside its schedule and the report opens with "
    "findings",
    "[experiment][cli]") {
  const auto folder = test::experimentScratch("cli-trace");
  const auto config = test::writeConfig(folder, R"(name: traced
graphs:
  - generate: {ops: 60, degree: 2, types: ["ALU:1-2:1:2", "MUL:2-3:1:1"]}
methods:
  - method: list
  - method: gaus
budgets:
  time_limit: 3
  schedules: true
)");
  const auto output = folder / "out";
  const auto run = test::runGaus({"run", config.string(), "-o", output.string()});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  auto results = report::readResults(output / "results.jsonl");
  REQUIRE(results.ok());
  REQUIRE(results->records.size() == 2);
  for (const auto& record : results->records) {
    INFO(record.runId);
    if (record.method == "list") {
      // list has no trace option: nothing to keep.
      CHECK_FALSE(record.traceFile);
      continue;
    }
    // GauS writes its trace where the runner tells it; the record names the kept copy, and
    // the scratch path the run wrote to is not echoed as an option.
    REQUIRE(record.traceFile);
    CHECK(*record.traceFile == "traces/" + report::fileNameOf(record.runId) + ".trace.csv");
    const std::string trace = test::readWholeFile(output / *record.traceFile);
    CHECK(trace.starts_with("step,horizon,ii,objective,violation,rho,best,elapsed\n"));
    for (const auto& [name, value] : record.options) CHECK(name != "trace");
  }
  // The page opens with the findings section, whatever the results say.
  CHECK_THAT(test::readWholeFile(output / "report.html"), Catch::Contains("<h2>Findings</h2>"));
}

TEST_CASE("gaus run on a bad config exits 1 with one line and writes nothing",
          "[experiment][cli]") {
  const auto folder = test::experimentScratch("cli-bad");
  const auto config =
      test::writeConfig(folder,
                        "graphs:\n  - generate: {ops: 10}\nmethods:\n  - method: list\n"
                        "budgets:\n  jobs: many\n");
  const auto output = folder / "out";
  const auto run = test::runGaus({"run", config.string(), "-o", output.string()});
  CHECK(run.exitCode == 1);
  CHECK(run.err == "gaus: error: " + config.string() +
                       ":6: budgets.jobs: expected a positive count, found \"many\"\n");
  CHECK_FALSE(fs::exists(output));
}

TEST_CASE("gaus --version does not initialize MPI, even under a launcher's environment",
          "[experiment][cli]") {
  // An MPI_Init here would try to reach a launcher that does not exist and fail or hang; the
  // version is printed at once instead.
  ::setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
  ::setenv("PMIX_RANK", "0", 1);
  const auto run = test::runGaus({"--version"});
  ::unsetenv("OMPI_COMM_WORLD_SIZE");
  ::unsetenv("PMIX_RANK");
  CHECK(run.exitCode == 0);
  CHECK(run.out.starts_with("gaus 0.1.0 ("));
}

#ifdef GAUS_MPIEXEC
TEST_CASE("mpirun -np 3 gaus run records what one process records, and resumes across the two",
          "[experiment][cli][mpi]") {
  const auto folder = test::experimentScratch("cli-mpi");
  const auto config = test::writeConfig(folder, kConfig);
  const auto single = folder / "single";
  const auto ranks = folder / "ranks";
  const std::vector<std::string> mpirun = {"--oversubscribe", "--allow-run-as-root", "-np", "3",
                                           GAUS_BINARY};
  const auto underMpi = [&](std::vector<std::string> args) {
    std::vector<std::string> all = mpirun;
    all.insert(all.end(), args.begin(), args.end());
    return test::runProgram(GAUS_MPIEXEC, all);
  };
  const auto one = test::runGaus({"run", config.string(), "-o", single.string()});
  REQUIRE(one.exitCode == 0);
  const auto three = underMpi({"run", config.string(), "-o", ranks.string()});
  INFO(three.out << three.err);
  REQUIRE(three.exitCode == 0);
  const auto expected = recordsOf(single);
  REQUIRE(expected.size() == kRuns);
  CHECK(recordsOf(ranks) == expected);

  // Resume under MPI what one process left half done: five records kept, a sixth cut short.
  const auto lines = test::readLines(single / "results.jsonl");
  {
    std::ofstream out(single / "results.jsonl", std::ios::binary | std::ios::trunc);
    for (int i = 0; i < 5; ++i) out << lines[i] << '\n';
    out << lines[5].substr(0, 40);
  }
  const auto resumed = underMpi({"run", config.string(), "-o", single.string(), "--resume"});
  INFO(resumed.out << resumed.err);
  REQUIRE(resumed.exitCode == 0);
  CHECK(test::readLines(single / "results.jsonl").size() == kRuns);
  CHECK(recordsOf(single) == expected);
  // And one process resumes what the ranks finished: nothing is left to run.
  const auto again = test::runGaus({"run", config.string(), "-o", ranks.string(), "--resume"});
  REQUIRE(again.exitCode == 0);
  CHECK(again.out.find("runs:      18 recorded (0 by this batch") != std::string::npos);
  CHECK(test::readLines(ranks / "results.jsonl").size() == kRuns);
}
#endif
