// GauS trace files and their convergence picture: both formats the engine writes, a last line
// cut short, bad lines named by file and line, and what the picture marks.

#include <fstream>

#include <catch2/catch.hpp>

#include <gaus/report/pictures.hpp>

#include "report_test_support.hpp"
#include "test_support.hpp"

using gaus::test::countOccurrences;

namespace {

std::filesystem::path writeTrace(const std::string& name, const std::string& content) {
  const auto path = gaus::test::scratchFolder("trace-" + name) / name;
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

// Four multiplier updates: two at horizon 20, two at 19 (a second attempt); no legal schedule
// after the first update, then 21, 21 and 19; the violation reaches 0 at the last.
constexpr const char* kCsvTrace =
    "step,horizon,ii,objective,violation,rho,best,elapsed\n"
    "50,20,,0.9,0.5,0.0001,,0.0100\n"
    "100,20,,0.7,0.01,0.0002,21,0.0200\n"
    "150,19,,0.8,0.2,0.0001,21,0.0300\n"
    "200,19,,0.6,0,0.0002,19,0.0400\n";

}  // namespace

TEST_CASE("a CSV trace: four updates, two horizon attempts, each marked", "[report]") {
  const auto trace = gaus::report::readConvergenceTrace(writeTrace("run.csv", kCsvTrace));
  REQUIRE(trace.ok());
  REQUIRE(trace->points.size() == 4);
  CHECK(trace->points[1].best == 21.0);
  CHECK_FALSE(trace->points[0].best);
  CHECK(trace->points[3].violation == 0.0);
  CHECK(trace->name == "run");

  const std::string svg = gaus::report::renderConvergence(*trace);
  REQUIRE(gaus::test::wellFormedSvg(svg));
  CHECK_THAT(svg, Catch::Contains("4 multiplier updates (dots) over 200 Adam steps, 0.04 s; 2 "
                                  "horizon/II attempts"));
  // Two attempt lines (D=20 from step 0, D=19 from step 100) and the legend's sample.
  CHECK(countOccurrences(svg, "class=\"attempt\"") == 3);
  CHECK_THAT(svg, Catch::Contains(">D=20</text>") && Catch::Contains(">D=19</text>"));
  // A dot per update: 4 objectives, 4 violations, 3 best values (none before the first legal).
  CHECK(countOccurrences(svg, "class=\"dot\"") == 11);
  CHECK_THAT(svg, Catch::Contains("A violation of 0 is drawn on the lowest grid line"));
}

TEST_CASE("a JSON-lines trace reads the same as the CSV one", "[report]") {
  const std::string json =
      "{\"step\": 50, \"horizon\": 20, \"ii\": null, \"objective\": 0.9, \"violation\": 0.5, "
      "\"rho\": 0.0001, \"best\": null, \"elapsed\": 0.01}\n"
      "{\"step\": 100, \"horizon\": 20, \"ii\": 3, \"objective\": 0.7, \"violation\": 0.01, "
      "\"rho\": 0.0002, \"best\": 21, \"elapsed\": 0.02}\n";
  const auto trace = gaus::report::readConvergenceTrace(writeTrace("run.jsonl", json));
  REQUIRE(trace.ok());
  REQUIRE(trace->points.size() == 2);
  CHECK(trace->points[1].ii == 3);
  CHECK(trace->points[1].best == 21.0);
  // The II appears in the second record: a new attempt, labelled with both.
  const std::string svg = gaus::report::renderConvergence(*trace);
  CHECK_THAT(svg, Catch::Contains(">II=3 D=20</text>"));
}

TEST_CASE("a trace whose last line was cut short: left out and named", "[report]") {
  const auto trace = gaus::report::readConvergenceTrace(
      writeTrace("cut.csv", std::string(kCsvTrace) + "250,19,,0.5"));
  REQUIRE(trace.ok());
  CHECK(trace->points.size() == 4);
  CHECK(trace->truncatedLine == 6);
  CHECK_THAT(gaus::report::renderConvergence(*trace), Catch::Contains("Line 6 was cut short"));
}

TEST_CASE("bad trace files fail with the file, the line and what was expected", "[report]") {
  SECTION("a short line in the middle") {
    const auto path = writeTrace("short.csv",
                                 "step,horizon,ii,objective,violation,rho,best,elapsed\n"
                                 "50,20\n100,20,,0.7,0.01,0.0002,21,0.02\n");
    const auto trace = gaus::report::readConvergenceTrace(path);
    REQUIRE_FALSE(trace.ok());
    CHECK(trace.error() == path.string() + ":2: expected 8 comma-separated fields, found 2");
  }
  SECTION("a value that is no number") {
    const auto path = writeTrace("word.csv",
                                 "step,horizon,ii,objective,violation,rho,best,elapsed\n"
                                 "50,20,,high,0.5,0.0001,,0.01\n");
    const auto trace = gaus::report::readConvergenceTrace(path);
    REQUIRE_FALSE(trace.ok());
    CHECK(trace.error() == path.string() + ":2: expected a number for objective, found \"high\"");
  }
  SECTION("a header without the required columns") {
    const auto path = writeTrace("header.csv", "a,b\n1,2\n");
    const auto trace = gaus::report::readConvergenceTrace(path);
    REQUIRE_FALSE(trace.ok());
    CHECK_THAT(trace.error(), Catch::StartsWith(path.string() + ":1: expected a CSV header"));
  }
  SECTION("an empty file and a missing one") {
    const auto empty = writeTrace("empty.csv", "");
    CHECK_THAT(gaus::report::readConvergenceTrace(empty).error(), Catch::Contains("empty file"));
    CHECK_THAT(gaus::report::readConvergenceTrace(empty.parent_path() / "none.csv").error(),
               Catch::Contains("none.csv: no such file (expected a GauS trace"));
  }
}

TEST_CASE("the trace of a real GauS run (tests/data/report) reads and draws", "[report]") {
  // Written by gaus schedule h2v2.json --method gaus --seed 1 -O trace=h2v2.gaus_trace.csv
  // (tests/data/report/README.md): one record per multiplier update, steps increasing.
  const auto trace =
      gaus::report::readConvergenceTrace(gaus::test::dataPath("report/h2v2.gaus_trace.csv"));
  REQUIRE(trace.ok());
  REQUIRE(trace->points.size() >= 2);
  for (std::size_t i = 1; i < trace->points.size(); ++i) {
    CHECK(trace->points[i].step > trace->points[i - 1].step);
  }
  // Its horizons are 24 (one update), 23 and 22: three attempts.
  const std::string svg = gaus::report::renderConvergence(*trace);
  CHECK(gaus::test::wellFormedSvg(svg));
  CHECK_THAT(svg, Catch::Contains("3 horizon/II attempts"));
}

TEST_CASE("a trace of 100,000 updates draws under the size limit", "[report]") {
  // Three series of 100,000 points with a tooltip per dot would be about 40 MB; lines keep every
  // 50th record (100,000 / 2,000) and dots every 84th (ceil(100,000 / 1,200)), so the picture
  // stays well under the 4 MiB limit.
  gaus::report::ConvergenceTrace trace;
  trace.name = "long";
  for (std::int64_t i = 0; i < 100'000; ++i) {
    gaus::report::TracePoint point;
    point.step = 50 * (i + 1);
    point.horizon = 100 - i / 20'000;  // 100, 99, 98, 97, 96: five attempts
    point.objective = 1.0 / static_cast<double>(i + 1);
    point.violation = 1.0 / static_cast<double>((i + 1) * (i + 1));
    point.best = static_cast<double>(200 - i / 1'000);
    trace.points.push_back(point);
  }
  gaus::report::PictureOptions options;
  const std::string svg = gaus::report::renderConvergence(trace, options);
  CHECK(svg.size() <= options.maxBytes);
  CHECK_THAT(svg, Catch::Contains("5 horizon/II attempts") && Catch::Contains("Every 84th"));
  CHECK(gaus::test::wellFormedSvg(svg));
}
