// gaus render and gaus report end to end: every view of a schedule written by the program
// itself, the 10,000-op case under the size limit, the trace picture, the report of the sample
// results, and one-line errors on bad input.

#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "cli_test_support.hpp"
#include "test_support.hpp"

using gaus::test::dataPath;
using gaus::test::readWholeFile;

namespace {

const auto gaus_ = gaus::test::runGaus;
using gaus::test::lineCount;

// The report tests' own folder inside the CLI tests' scratch folder.
std::filesystem::path scratch(const std::string& name) {
  return gaus::test::cliScratch("report-" + name);
}

}  // namespace

TEST_CASE("render and report have --help", "[cli][report]") {
  for (const char* command : {"render", "report"}) {
    INFO(command);
    const auto run = gaus_({command, "--help"});
    CHECK(run.exitCode == 0);
    CHECK_THAT(run.out, Catch::Contains("Usage"));
  }
}

TEST_CASE("render draws every view of the toy FA schedule S:0 P:2 O:3 at II 2", "[cli][report]") {
  // tests/data/cli/toy_fa.good.schedule.json is the hand-checked optimum (II 2, latency 4).
  for (const char* view : {"units", "warps", "mrt", "graph"}) {
    INFO(view);
    const auto output = scratch(std::string("toy_fa.") + view + ".svg");
    std::filesystem::remove(output);
    const auto run = gaus_({"render", dataPath("cli/toy_fa.json").string(),
                            dataPath("cli/toy_fa.good.schedule.json").string(), "--view", view,
                            "-o", output.string()});
    REQUIRE(run.exitCode == 0);
    const std::string svg = readWholeFile(output);
    CHECK_THAT(svg, Catch::StartsWith("<?xml") && Catch::Contains("</svg>"));
    if (std::string(view) != "graph") {
      CHECK_THAT(run.out, Catch::Contains("verified: true"));
      CHECK_THAT(svg, Catch::Contains("II = 2"));
    }
  }
}

TEST_CASE("render marks the TC clash S:0 P:1 O:2 as not verified but still draws it",
          "[cli][report]") {
  const auto output = scratch("toy_fa.clash.svg");
  const auto run =
      gaus_({"render", dataPath("cli/toy_fa.json").string(),
             dataPath("cli/toy_fa.clash.schedule.json").string(), "-o", output.string()});
  CHECK(run.exitCode == 0);
  CHECK_THAT(run.out, Catch::Contains("verified: false"));
  CHECK_THAT(run.err, Catch::Contains("fails verification"));
  CHECK_THAT(readWholeFile(output), Catch::Contains("NOT VERIFIED"));
}

TEST_CASE("render of a twill schedule shows its warp roles", "[cli][report]") {
  if (gaus_({"twill", "--help"}).exitCode != 0) return;  // a build without the exact engine
  const auto schedule = scratch("toy_fa.twill.json");
  REQUIRE(gaus_({"twill", "toy_fa", "-o", schedule.string()}).exitCode == 0);
  const auto output = scratch("toy_fa.twill.warps.svg");
  const auto run = gaus_({"render", gaus::test::sourcePath("configs/kernels/toy_fa.yaml").string(),
                          schedule.string(), "--view", "warps", "-o", output.string()});
  REQUIRE(run.exitCode == 0);
  CHECK_THAT(run.out, Catch::Contains("verified: true"));
  CHECK_THAT(readWholeFile(output),
             Catch::Contains(">warp 0") && !Catch::Contains("assigns no warps"));
}

TEST_CASE("render of a 10,000-op list schedule aggregates and stays under 4 MiB", "[cli][report]") {
  const auto graph = scratch("big.json");
  const auto schedule = scratch("big.schedule.json");
  REQUIRE(gaus_({"generate", "--ops", "10000", "--degree", "3", "--type", "ALU:1-1:1:8", "--type",
                 "MUL:2-4:1:2", "-o", graph.string()})
              .exitCode == 0);
  REQUIRE(
      gaus_({"schedule", graph.string(), "--method", "list", "-o", schedule.string()}).exitCode ==
      0);
  for (const char* view : {"units", "warps", "mrt", "graph"}) {
    INFO(view);
    const auto output = scratch(std::string("big.") + view + ".svg");
    REQUIRE(
        gaus_({"render", graph.string(), schedule.string(), "--view", view, "-o", output.string()})
            .exitCode == 0);
    CHECK(std::filesystem::file_size(output) <= std::size_t{4} << 20);
    CHECK_THAT(readWholeFile(output), Catch::Contains("Aggregated"));
  }
}

TEST_CASE("render --trace draws the convergence of a GauS run", "[cli][report]") {
  const auto output = scratch("convergence.svg");
  const auto run = gaus_({"render", "--trace", dataPath("report/h2v2.gaus_trace.csv").string(),
                          "-o", output.string(), "--json"});
  REQUIRE(run.exitCode == 0);
  CHECK_THAT(run.out, Catch::Contains("\"picture\": \"convergence\""));
  CHECK_THAT(readWholeFile(output), Catch::Contains("88 multiplier updates"));
}

TEST_CASE("render on bad input: one line, non-zero exit, no picture", "[cli][report]") {
  const auto output = scratch("never.svg");
  std::filesystem::remove(output);
  SECTION("a schedule view without a schedule") {
    const auto run = gaus_({"render", dataPath("cli/toy_fa.json").string(), "-o", output.string()});
    CHECK(run.exitCode == 1);
    CHECK(lineCount(run.err) == 1);
    CHECK_THAT(run.err, Catch::Contains("needs a SCHEDULE"));
  }
  SECTION("an unknown view") {
    const auto run = gaus_({"render", dataPath("cli/toy_fa.json").string(),
                            dataPath("cli/toy_fa.good.schedule.json").string(), "--view", "gantt",
                            "-o", output.string()});
    CHECK(run.exitCode == 1);
    CHECK_THAT(run.err, Catch::Contains("--view 'gantt': expected units, warps, mrt or graph"));
  }
  SECTION("a trace with a bad line") {
    const auto trace = scratch("bad.trace.csv");
    std::ofstream(trace) << "step,horizon,ii,objective,violation,rho,best,elapsed\n"
                            "50,20,,x,1,1,,0\n";
    const auto run = gaus_({"render", "--trace", trace.string(), "-o", output.string()});
    CHECK(run.exitCode == 1);
    CHECK(lineCount(run.err) == 1);
    CHECK_THAT(run.err, Catch::Contains(trace.string() + ":2: expected a number for objective"));
  }
  CHECK_FALSE(std::filesystem::exists(output));
}

TEST_CASE("report on the sample results: the summary lines and the files", "[cli][report]") {
  const auto folder = scratch("report");
  std::filesystem::remove_all(folder);
  const auto run = gaus_({"report", dataPath("report/results.jsonl").string(), "-o",
                          (folder / "report.html").string()});
  REQUIRE(run.exitCode == 0);
  // 23 records on 8 problems, line 25 unreadable (tests/unit/report/test_report.cpp derives
  // every figure).
  CHECK_THAT(run.out, Catch::Contains("23 runs on 8 problems (1 unreadable lines left out)"));
  CHECK_THAT(run.out, Catch::Contains("list: 7 runs, 7 verified") &&
                          Catch::Contains("wins/ties/losses 2/3/1"));
  CHECK(std::filesystem::exists(folder / "report.html"));
  CHECK(std::filesystem::exists(folder / "summary.csv"));
  CHECK(std::filesystem::exists(folder / "pictures" / "toy_toy_fa_ilp_s1_r0.units.svg"));
}

TEST_CASE("report on a file with nothing readable: one line naming file and line",
          "[cli][report]") {
  const auto folder = scratch("report-bad");
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const auto results = folder / "results.jsonl";
  std::ofstream(results) << "not json\n";
  const auto run = gaus_({"report", folder.string()});
  CHECK(run.exitCode == 1);
  CHECK(lineCount(run.err) == 1);
  CHECK_THAT(run.err, Catch::Contains(results.string() + ":1: expected one JSON object"));
  CHECK_FALSE(std::filesystem::exists(folder / "report.html"));
}
