// The results file (docs/formats.md "Results"): what readResults keeps from tests/data/report/
// results.jsonl (24 complete lines and a half-written 25th, in the earlier format
// gaus-result-1, which stays readable), a round trip through formatResultRecord, and one
// skipped line or error per kind of bad input.

#include <fstream>

#include <catch2/catch.hpp>

#include <gaus/core/verify.hpp>
#include <gaus/report/result_json.hpp>
#include <gaus/report/results.hpp>

#include "report_test_support.hpp"
#include "test_support.hpp"

namespace {

std::filesystem::path writeResults(const std::string& name, const std::string& content) {
  const auto path = gaus::test::scratchFolder("results-" + name) / "results.jsonl";
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

const gaus::report::ResultRecord* findRun(const gaus::report::ResultsFile& file,
                                          const std::string& runId) {
  for (const auto& record : file.records) {
    if (record.runId == runId) return &record;
  }
  return nullptr;
}

// A usable record with only the fields the reader needs.
std::string minimalLine(const std::string& runId, const std::string& status) {
  return R"({"run_id": ")" + runId + R"(", "method": "list", "graph": {"id": "g"}, "status": ")" +
         status + R"("})";
}

}  // namespace

TEST_CASE("the sample results file: 23 records, line 25 skipped, one re-run replaced", "[report]") {
  // 24 complete lines; idctcol~ilp appears on line 7 (out_of_memory) and again on line 24
  // (optimal, the resumed run): the later one stands, so 24 - 1 = 23 records.
  const auto results = gaus::report::readResults(gaus::test::dataPath("report/results.jsonl"));
  REQUIRE(results.ok());
  CHECK(results->records.size() == 23);
  CHECK(results->replacedRecords == 1);
  REQUIRE(results->skipped.size() == 1);
  CHECK(results->skipped[0].line == 25);
  CHECK_THAT(results->skipped[0].reason, Catch::Contains("does not parse"));

  const auto* rerun = findRun(*results, "heurigym/medium/idctcol~ilp~s1~r0");
  REQUIRE(rerun);
  CHECK(rerun->status == gaus::report::RunStatus::kOptimal);
  CHECK(rerun->line == 24);
  REQUIRE(rerun->objective);
  CHECK(rerun->objective->name == "latency");
  CHECK(rerun->objective->value == 22.0);
  CHECK(rerun->provenOptimal());
  CHECK(rerun->reference == 22.0);  // HeuriGym's baseline.json for idctcol

  // Line 14 carries a field the format does not define: read all the same.
  const auto* extra = findRun(*results, "heurigym/medium/invert~list~s1~r0");
  REQUIRE(extra);
  CHECK(extra->objective->value == 25.0);
  // Line 18 lacks peak_rss_bytes and host; line 13 lacks attempts.
  const auto* error = findRun(*results, "heurigym/medium/matmul~gaus~s1~r0");
  REQUIRE(error);
  CHECK(error->status == gaus::report::RunStatus::kError);
  CHECK_FALSE(error->peakRssBytes);
  CHECK(error->host.empty());
  CHECK(error->options == std::vector<std::pair<std::string, std::string>>{{"lrr", "0.05"}});
  const auto* crashed = findRun(*results, "heurigym/medium/jpeg_idct~gaus~s2~r0");
  REQUIRE(crashed);
  CHECK(crashed->status == gaus::report::RunStatus::kCrashed);
  CHECK(crashed->attempts.empty());
  CHECK(crashed->message == "killed by signal 11 (SIGSEGV)");
  // Line 6: GauS's three horizon attempts, 24 and 23 feasible, 22 out of time.
  const auto* attempts = findRun(*results, "heurigym/small/h2v2~gaus~s1~r0");
  REQUIRE(attempts);
  REQUIRE(attempts->attempts.size() == 3);
  CHECK(attempts->attempts[2].horizon == 22);
  CHECK(attempts->attempts[2].status == gaus::report::RunStatus::kTimeout);
  CHECK(attempts->scheduleFile == "schedules/h2v2~gaus.schedule.json");
}

TEST_CASE("a record written by formatResultRecord reads back field for field", "[report]") {
  gaus::report::ResultRecord record;
  record.runId = "heurigym/small/ewf~gaus lr=0.05~s3~r1";
  record.experiment = "quick";
  record.label = "gaus lr=0.05";
  record.graph = {"heurigym/small/ewf", "graphs/ewf.json", "sha256:00ff", 34, 47};
  record.problem = {"latency-bounded", "hls_small", 30, std::nullopt};
  record.method = "gaus";
  record.options = {{"lr", "0.05"}, {"seed", "3"}};
  record.status = gaus::report::RunStatus::kTimeout;
  record.message = "time limit 10 s";
  record.objective = gaus::report::ResultObjective{"peak_memory", 12.5};
  record.lowerBound = 10.0;
  record.gap = 0.2;
  record.lowerBoundArgument = "Lagrangian over cycles 0-30";
  record.iterations = 812;
  record.solverCalls = 2;
  record.reference = 11.0;
  record.verified = true;
  record.seconds = 10.02;
  record.peakRssBytes = 123456789;
  record.jobs = 4;
  record.attempts = {{"horizon", std::nullopt, 31, 30, gaus::report::RunStatus::kFeasible, 9.5,
                      std::nullopt, "D=30"}};
  record.figures = {{"adam_steps", 812}, {"first_legal_seconds", 0.25}};
  record.scheduleFile = "schedules/ewf.json";
  record.seed = 3;
  record.repeat = 1;
  record.version = "gaus 0.1.0 (abc1234)";
  record.host = "node7";
  record.startedAt = "2025-01-14T09:00:00Z";

  const std::string line = gaus::report::formatResultRecord(record);
  CHECK(line.find('\n') == std::string::npos);
  const auto results = gaus::report::readResults(writeResults("round-trip", line + "\n"));
  REQUIRE(results.ok());
  REQUIRE(results->records.size() == 1);
  gaus::report::ResultRecord back = results->records[0];
  CHECK(back.line == 1);
  back.line = 0;  // the only field the writer does not write
  CHECK(back.runId == record.runId);
  CHECK(back.label == record.label);
  CHECK(back.graph.ops == 34);
  CHECK(back.problem.horizon == 30);
  CHECK_FALSE(back.problem.ii);
  CHECK(back.options == record.options);
  CHECK(back.status == record.status);
  CHECK(back.objective->name == "peak_memory");
  CHECK(back.objective->value == 12.5);
  CHECK(back.lowerBound == 10.0);
  CHECK(back.gap == 0.2);
  CHECK(back.lowerBoundArgument == record.lowerBoundArgument);
  CHECK(back.iterations == 812);
  CHECK(back.solverCalls == 2);
  CHECK_FALSE(back.provenOptimal());  // a time-out
  CHECK(back.reference == 11.0);
  CHECK(back.seconds == 10.02);
  CHECK(back.peakRssBytes == 123456789);
  REQUIRE(back.attempts.size() == 1);
  CHECK(back.attempts[0].latency == 31);
  CHECK(back.attempts[0].status == gaus::report::RunStatus::kFeasible);
  CHECK(back.attempts[0].detail == "D=30");
  CHECK(back.figures == record.figures);  // by name, in the order written
  CHECK(back.scheduleFile == record.scheduleFile);
  CHECK(back.repeat == 1);
  CHECK(back.startedAt == record.startedAt);
}

TEST_CASE("defaults: label from method, run id from the line number", "[report]") {
  const auto results = gaus::report::readResults(writeResults(
      "defaults", R"({"method": "ims", "graph": {"path": "loops/a.json"}, "status": "feasible"})"
                  "\n"));
  REQUIRE(results.ok());
  const auto& record = results->records.at(0);
  CHECK(record.label == "ims");
  CHECK(record.runId == "line 1");
  CHECK(record.graph.id == "loops/a.json");  // the path stands in for a missing id
  CHECK_FALSE(record.verified);
  CHECK_FALSE(record.objective);
}

TEST_CASE("bad lines are skipped with their number and the reason", "[report]") {
  // Line 1 is good; each later line breaks one rule; line 9 is good again.
  const std::string content =
      minimalLine("a", "feasible") + "\n" +  // 1
      R"({"run_id": "b", "method": "list", "graph": {"id": "g"}, "status": "done"})"
      "\n"  // 2
      R"({"run_id": "c", "method": "list", "graph": {"id": "g"}, "status": "feasible", "seconds": "fast"})"
      "\n"  // 3
      R"({"run_id": "d", "method": "list", "status": "feasible"})"
      "\n"  // 4
      R"({"format": "gaus-result-3", "run_id": "e", "method": "list", "graph": {"id": "g"}, "status": "feasible"})"
      "\n"  // 5
      R"([1, 2, 3])"
      "\n"  // 6
      R"({"run_id": "f", "graph": {"id": "g"}, "status": "feasible"})"
      "\n"  // 7
      R"({"run_id": "g", "method": "list", "graph": {"id": "g"}, "status": "feasible", "objective": {"name": "latency"}})"
      "\n"    // 8
      "\n" +  // blank, ignored
      minimalLine("h", "optimal") +
      "\n";  // 10
  const auto results = gaus::report::readResults(writeResults("bad-lines", content));
  REQUIRE(results.ok());
  CHECK(results->records.size() == 2);
  REQUIRE(results->skipped.size() == 7);
  const std::vector<std::pair<std::int64_t, std::string>> expected = {
      {2,
       "expected status to be optimal, feasible, infeasible, timeout, unknown, error, crashed "
       "or out_of_memory, found \"done\""},
      {3, "expected a number for seconds, found \"fast\""},
      {4, "expected graph.id (or graph.path), found none"},
      {5, "expected format \"gaus-result-2\" (or \"gaus-result-1\"), found \"gaus-result-3\""},
      {6, "expected a JSON object, found [1,2,3]"},
      {7, "expected a method or a label, found neither"},
      {8, "expected a number for objective.value, found none"}};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CHECK(results->skipped[i].line == expected[i].first);
    CHECK(results->skipped[i].reason == expected[i].second);
  }
}

TEST_CASE("a file with no readable record fails with the file and the line", "[report]") {
  SECTION("only bad lines: the first one is named") {
    const auto path = writeResults("garbage", "\nnot json\n{\"status\": 3}\n");
    const auto results = gaus::report::readResults(path);
    REQUIRE_FALSE(results.ok());
    CHECK_THAT(results.error(), Catch::StartsWith(path.string() + ":2: expected one JSON object"));
  }
  SECTION("an empty file") {
    const auto path = writeResults("empty", "");
    CHECK(gaus::report::readResults(path).error() ==
          path.string() +
              ": expected at least one result record (one JSON object per line), found none");
  }
  SECTION("a missing file is said to be missing, not to be in another format") {
    const auto path = writeResults("missing", "").parent_path() / "none.jsonl";
    CHECK(gaus::report::readResults(path).error() ==
          path.string() +
              ": no such file (expected a results file: JSON lines, one \"gaus-result-2\" record "
              "per run)");
  }
}

TEST_CASE("status names round-trip", "[report]") {
  for (const auto* name : {"optimal", "feasible", "infeasible", "timeout", "unknown", "error",
                           "crashed", "out_of_memory"}) {
    const auto status = gaus::report::parseRunStatus(name);
    REQUIRE(status);
    CHECK(gaus::report::toString(*status) == name);
  }
  CHECK_FALSE(gaus::report::parseRunStatus("done"));
}

TEST_CASE("a record's result is the result's fields of --json, read back the same", "[report]") {
  // One Result written twice: as `gaus twill --json` prints it (methodRunToJson) and as a
  // results record. Both carry the same result fields with the same values, so a reader of one
  // reads the other; the record reads back to what resultFields made of the Result.
  const gaus::Instance instance = gaus::test::toyFlashAttention();
  gaus::Result result;
  result.status = gaus::ModelStatus::kOptimal;
  result.schedule = gaus::test::toyFlashAttentionSchedule();
  result.objectiveName = "ii";
  result.objective = 2.0;
  result.bounds.lowerBound = 2.0;
  result.bounds.iiProvenOptimal = true;
  result.bounds.mii = gaus::MiiBound{2, 2, 1, "ResMII (TC) = 2 >= RecMII = 1"};
  result.stats = {0.25, 7, 3};
  result.options = {{"time_limit", "10"}};
  constexpr gaus::Figure kEveryLength{"ii_proven_every_length", gaus::FigureUnit::kFlag, "test"};
  result.figures.set(kEveryLength, 1.0);
  result.attempts.push_back({"smt", 2, 4, std::nullopt, gaus::CallStatus::kOk,
                             gaus::ModelStatus::kFeasible, 0.1, 2.0, "II=2"});
  result.verification =
      gaus::verify(instance.problem(gaus::ProblemKind::kModulo), *result.schedule);
  REQUIRE(result.verified());

  const nlohmann::json printed = gaus::report::methodRunToJson(
      instance, result, {"twill", gaus::ProblemKind::kModuloWarp, {}, true});
  gaus::report::ResultRecord record;
  static_cast<gaus::report::ResultFields&>(record) = gaus::report::resultFields(result, "twill");
  record.runId = "toy_fa~twill";
  record.graph.id = "toy_fa";
  const nlohmann::json line = nlohmann::json::parse(gaus::report::formatResultRecord(record));
  for (const char* field : {"method", "status", "message", "objective", "seconds", "iterations",
                            "solver_calls", "bounds", "options", "extra", "attempts", "verified"}) {
    INFO(field);
    CHECK(line.at(field) == printed.at(field));
  }
  CHECK(printed.at("bounds").at("mii") == 2);
  CHECK(printed.at("ii_proof") == "every_length");  // Twill's proof, in every --json view

  const auto back = gaus::report::parseResultRecord(line.dump());
  REQUIRE(back.ok());
  CHECK(back->status == gaus::report::RunStatus::kOptimal);
  CHECK(back->provenOptimal());
  CHECK(back->iiProvenOptimal);
  REQUIRE(back->mii);
  CHECK(back->mii->recMii == 1);
  CHECK(back->figures == record.figures);
  REQUIRE(back->attempts.size() == 1);
  CHECK(back->attempts[0].bound == 2.0);
  CHECK(back->solverCalls == 3);
}
