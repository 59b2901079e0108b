// The report of tests/data/report/results.jsonl: every number of its tables derived by hand
// from the records (listed below), the files writeReport writes, and what the page may not hold
// (anything loaded from a network, external scripts).
//
// The records, best verified latency per method (HeuriGym baseline in brackets):
//   ewf [21]        list 21, ilp 21, gaus 21
//   h2v2 [23]       list 25, ilp 23, gaus 23
//   idctcol [22]    list 23, ilp 22 (re-run after out_of_memory), gaus 22
//   jpeg_idct [26]  list 27, ilp 27 (timeout), gaus 26 (seed 1; seed 2 crashed)
//   invert [23]     list 25, ilp 25 (timeout), gaus 23, "gaus t=0.3s" 24 (timeout)
//   matmul [16]     list 16, gaus error
//   write [11]      list 13, "gaus t=0.3s" 12 (timeout): the reference is the best known
//   toy_fa modulo   ilp II 2, ims II 2 (no reference)

#include <cmath>
#include <fstream>

#include <catch2/catch.hpp>

#include <gaus/report/report.hpp>

#include "report_tables.hpp"
#include "report_test_support.hpp"
#include "test_support.hpp"

namespace {

const gaus::report::ReportSummary& sampleSummary() {
  static const gaus::report::ReportSummary summary = [] {
    const auto results = gaus::report::readResults(gaus::test::dataPath("report/results.jsonl"));
    if (!results) throw std::runtime_error(results.error());
    return gaus::report::summarizeResults(*results);
  }();
  return summary;
}

const gaus::report::MethodSummary& method(const std::string& label) {
  for (const auto& entry : sampleSummary().methods) {
    if (entry.label == label) return entry;
  }
  throw std::runtime_error("no method " + label);
}

const gaus::report::ProblemSummary& problem(const std::string& graph) {
  for (const auto& entry : sampleSummary().problems) {
    if (entry.graph == graph) return entry;
  }
  throw std::runtime_error("no problem " + graph);
}

// An optional figure that is there and equal to `expected` up to rounding.
bool near(std::optional<double> value, double expected) {
  return value && std::abs(*value - expected) <= 1e-9 * std::max(1.0, std::abs(expected));
}

double geometricMean(const std::vector<double>& ratios) {
  double logs = 0.0;
  for (const double ratio : ratios) logs += std::log(ratio);
  return std::exp(logs / static_cast<double>(ratios.size()));
}

std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("method table of the sample: runs, verified, ratios, wins, ties, losses, medians",
          "[report]") {
  const auto& summary = sampleSummary();
  REQUIRE(summary.methods.size() == 5);  // gaus, "gaus t=0.3s", ilp, ims, list (sorted)
  CHECK(summary.methods[0].label == "gaus");
  CHECK(summary.methods[1].label == "gaus t=0.3s");

  // gaus: 7 runs (jpeg_idct twice), 5 verified (not the crash, not the error); it matches the
  // best known value on all five problems it solved. Wins where it alone is best (jpeg_idct,
  // invert), ties on ewf, h2v2, idctcol, a loss on matmul (error). Seconds 0.002, 1.9, 3.35,
  // 3.532, 3.61, 5.24, 8.148: median 3.532.
  const auto& gaus = method("gaus");
  CHECK(gaus.runs == 7);
  CHECK(gaus.verified == 5);
  CHECK(near(gaus.geomeanRatio, 1.0));
  CHECK(gaus.ratioProblems == 5);
  CHECK(gaus.referenceProblems == 0);
  CHECK((gaus.wins == 2 && gaus.ties == 3 && gaus.losses == 1));
  CHECK(near(gaus.medianSeconds, 3.532));

  // ilp: the out_of_memory line was replaced by its re-run, so 6 runs, all verified (its two
  // timeouts kept a verified schedule). Ratios 27/26 and 25/23, else 1.
  const auto& ilp = method("ilp");
  CHECK(ilp.runs == 6);
  CHECK(ilp.verified == 6);
  CHECK(near(ilp.geomeanRatio, geometricMean({1, 1, 1, 27.0 / 26, 25.0 / 23, 1})));
  CHECK((ilp.wins == 0 && ilp.ties == 4 && ilp.losses == 2));
  CHECK(near(ilp.medianSeconds, (0.922 + 2.472) / 2));

  // list: best only on matmul (gaus failed there), tied on ewf. On write the best known is the
  // reference 11, so its ratio is 13/11 and that problem counts as "by reference".
  const auto& list = method("list");
  CHECK(list.runs == 7);
  CHECK(near(list.geomeanRatio,
             geometricMean({1, 25.0 / 23, 23.0 / 22, 27.0 / 26, 25.0 / 23, 1, 13.0 / 11})));
  CHECK(list.referenceProblems == 1);
  CHECK((list.wins == 1 && list.ties == 1 && list.losses == 5));
  CHECK(near(list.medianSeconds, 0.0006));

  // "gaus t=0.3s": 24/23 on invert (a loss to gaus's 23), 12/11 on write (a win over list's 13).
  const auto& fast = method("gaus t=0.3s");
  CHECK(near(fast.geomeanRatio, std::sqrt(24.0 / 23 * 12.0 / 11)));
  CHECK((fast.wins == 1 && fast.ties == 0 && fast.losses == 1));
  CHECK(fast.referenceProblems == 1);
  CHECK(near(fast.medianSeconds, 0.302));

  // ims ran on toy_fa only, where it ties with ilp.
  CHECK((method("ims").ties == 1 && method("ims").wins == 0 && method("ims").losses == 0));
}

TEST_CASE("problem table of the sample: best known value and where it comes from", "[report]") {
  CHECK(sampleSummary().problems.size() == 8);
  CHECK(sampleSummary().records == 23);
  CHECK(sampleSummary().skippedLines == 1);
  CHECK(sampleSummary().replacedRecords == 1);

  const auto& write = problem("heurigym/medium/write");
  CHECK(write.bestKnown == 11.0);
  CHECK(write.bestSource == gaus::report::BestKnownSource::kReference);
  const auto& jpeg = problem("heurigym/medium/jpeg_idct");
  CHECK(jpeg.bestKnown == 26.0);
  CHECK(jpeg.bestSource == gaus::report::BestKnownSource::kRuns);  // gaus reached the baseline
  const auto& toy = problem("toy/toy_fa");
  CHECK(toy.problem == "modulo");
  CHECK(toy.objectiveName == "ii");
  CHECK(toy.bestKnown == 2.0);
  CHECK_FALSE(toy.reference);

  // matmul: gaus has a run but no verified result; its cell says why.
  const auto& matmul = problem("heurigym/medium/matmul");
  REQUIRE(matmul.cells.size() == 2);
  CHECK(matmul.cells[0].label == "gaus");
  CHECK_FALSE(matmul.cells[0].value);
  CHECK(matmul.cells[0].status == "error");
  CHECK_FALSE(matmul.cells[0].best);
  CHECK(matmul.cells[1].best);
  // jpeg_idct: gaus's value comes from seed 1 (26); the crash of seed 2 does not hide it.
  CHECK(jpeg.cells[0].label == "gaus");
  CHECK(jpeg.cells[0].runs == 2);
  CHECK(jpeg.cells[0].verified == 1);
  CHECK(jpeg.cells[0].value == 26.0);
  CHECK(jpeg.cells[0].status == "feasible");
}

TEST_CASE("problem table of the sample: the best bound and each method's gap to it", "[report]") {
  // h2v2: bounds 17 (list, gaus) and 23 (ilp, optimal): the best bound is ilp's 23. gaus's 23
  // meets it (proven optimal by another method's bound); list's 25 is (25 - 23) / 25 = 8 % off.
  const auto& h2v2 = problem("heurigym/small/h2v2");
  CHECK(h2v2.bestBound == 23.0);
  for (const auto& cell : h2v2.cells) {
    if (cell.label == "gaus" || cell.label == "ilp") CHECK(cell.gap == 0.0);
    if (cell.label == "list") CHECK(near(cell.gap, 2.0 / 25.0));
  }
  // jpeg_idct: ilp's timeout proved 21; gaus's 26 is 5 / 26 off.
  const auto& jpeg = problem("heurigym/medium/jpeg_idct");
  CHECK(jpeg.bestBound == 21.0);
  CHECK(near(jpeg.cells[0].gap, 5.0 / 26.0));
  // write: no run has a bound, so no gap.
  const auto& write = problem("heurigym/medium/write");
  CHECK_FALSE(write.bestBound);
  for (const auto& cell : write.cells) CHECK_FALSE(cell.gap);
}

TEST_CASE("a graph's problems stay together whatever order its runs finished in", "[report]") {
  // Runs finish in any order: kernel K's twill run (modulo-warp) comes after graph H's run.
  // Expected rows: K modulo, K modulo-warp, H latency (graphs in order of first appearance).
  gaus::report::ResultsFile results;
  const auto addRecord = [&results](std::string graph, std::string kind, std::string method) {
    gaus::report::ResultRecord record;
    record.runId = graph + "/" + method;
    record.label = method;
    record.method = method;
    record.graph.id = std::move(graph);
    record.problem.kind = std::move(kind);
    results.records.push_back(std::move(record));
  };
  addRecord("kernels/K", "modulo", "ilp");
  addRecord("heurigym/H", "latency", "list");
  addRecord("kernels/K", "modulo-warp", "twill");
  const auto summary = gaus::report::summarizeResults(results);
  REQUIRE(summary.problems.size() == 3);
  CHECK(summary.problems[0].graph == "kernels/K");
  CHECK(summary.problems[0].problem == "modulo");
  CHECK(summary.problems[1].graph == "kernels/K");
  CHECK(summary.problems[1].problem == "modulo-warp");
  CHECK(summary.problems[2].graph == "heurigym/H");
}

TEST_CASE("writeReport writes the page, summary.csv and three pictures", "[report]") {
  const auto folder = gaus::test::scratchFolder("report-sample");
  gaus::report::ReportOptions options;
  options.output = folder / "report.html";
  // The folder form: gaus report tests/data/report reads results.jsonl in it.
  const auto written = gaus::report::writeReport(gaus::test::dataPath("report"), options);
  REQUIRE(written.ok());
  CHECK(written->reportPath == folder / "report.html");

  // Three records name a schedule file: ewf list, h2v2 gaus and toy_fa ilp; each is verified.
  CHECK(written->pictures == 3);
  for (const char* name :
       {"heurigym_small_ewf_list_s1_r0.units.svg", "heurigym_small_h2v2_gaus_s1_r0.units.svg",
        "toy_toy_fa_ilp_s1_r0.units.svg"}) {
    INFO(name);
    const std::string svg = readText(folder / "pictures" / name);
    CHECK(gaus::test::wellFormedSvg(svg));
    CHECK_THAT(svg, Catch::Contains("verified: the schedule passes every check"));
  }

  // summary.csv: a header, 5 method rows, and one row per method and problem: 3 (ewf) + 3
  // (h2v2) + 3 (idctcol) + 3 (jpeg_idct) + 4 (invert) + 2 (matmul) + 2 (toy_fa) + 2 (write).
  const std::string csv = readText(folder / "summary.csv");
  CHECK(gaus::test::countOccurrences(csv, "\n") == 1 + 5 + 22);
  CHECK_THAT(csv, Catch::Contains("method,list,,,,7,7,,,,,,"));
  CHECK_THAT(csv,
             Catch::Contains(
                 "problem,list,heurigym/medium/write,latency,latency,1,1,13,11,reference,11,"));

  const std::string html = readText(folder / "report.html");
  CHECK_THAT(html, Catch::StartsWith("<!DOCTYPE html>"));
  // Self-contained: no external script, stylesheet or image; the only URL is the SVG namespace.
  CHECK(gaus::test::countOccurrences(html, "<script") == 1);
  CHECK_THAT(html, !Catch::Contains("<script src") && !Catch::Contains("<link") &&
                       !Catch::Contains("https:"));
  CHECK(gaus::test::countOccurrences(html, "http:") ==
        gaus::test::countOccurrences(html, "http://www.w3.org/2000/svg"));
  // The failures: the crash and the error; and the unreadable line. The 2 ilp timeouts and the
  // 2 "gaus t=0.3s" timeouts returned verified schedules: results, listed apart as such.
  CHECK_THAT(html, Catch::Contains("<h2>Failures (2)</h2>"));
  CHECK_THAT(html, Catch::Contains("<h2>Time limits reached and infeasible problems (4)</h2>"));
  CHECK_THAT(html, Catch::Contains("killed by signal 11 (SIGSEGV)") &&
                       Catch::Contains("unknown option &#39;lrr&#39;"));
  CHECK_THAT(html, Catch::Contains("<li>line 25: "));
  CHECK_THAT(html, Catch::Contains("src=\"pictures/toy_toy_fa_ilp_s1_r0.units.svg\""));
  CHECK_THAT(html, Catch::Contains("<title>gaus report: heurigym-quick</title>"));
  // Value, bound and gap per problem and method: h2v2's gaus meets ilp's bound 23, list's 25 is
  // 8 % above it.
  CHECK_THAT(html, Catch::Contains("<th>best bound</th>"));
  CHECK_THAT(html, Catch::Contains("23 (1.000)<br><span class=\"proven\">proven optimal</span>"));
  CHECK_THAT(html, Catch::Contains("25 (1.087)<br><span class=\"gap\">gap 8.0 %</span>"));
}

TEST_CASE("bad results: one error with file and line, and nothing written", "[report]") {
  const auto folder = gaus::test::scratchFolder("report-bad");
  const auto results = folder / "results.jsonl";
  std::ofstream(results) << "{\"run_id\": \"a\"\n";
  gaus::report::ReportOptions options;
  options.output = folder / "out" / "report.html";
  const auto written = gaus::report::writeReport(results, options);
  REQUIRE_FALSE(written.ok());
  CHECK_THAT(written.error(), Catch::StartsWith(results.string() + ":1: "));
  CHECK_FALSE(std::filesystem::exists(folder / "out"));
}

TEST_CASE("a run whose graph cannot be read gets a note instead of a picture", "[report]") {
  const auto folder = gaus::test::scratchFolder("report-missing-graph");
  std::ofstream(folder / "results.jsonl")
      << R"({"run_id": "r1", "method": "list", "graph": {"id": "g", "path": "gone.json"}, )"
      << R"("status": "feasible", "verified": true, "objective": {"name": "latency", "value": 3}, )"
      << R"("schedule_file": "s.json"})"
      << "\n";
  const auto written = gaus::report::writeReport(folder, {});
  REQUIRE(written.ok());
  CHECK(written->pictures == 0);
  const std::string html = readText(folder / "report.html");
  CHECK_THAT(html, Catch::Contains("no picture: ") && Catch::Contains("gone.json"));
}

TEST_CASE("quality versus time: every run is named, runs on the same spot are counted",
          "[report]") {
  // 21 verified runs of the sample have an objective, seconds and a best known value (23 runs
  // but the crash and the error). list's ewf (21, ratio 1, 0.0004 s) and matmul (16, ratio 1,
  // 0.0005 s) are both drawn at 1 ms and ratio 1: one dot, "2" beside it, both in its tooltip.
  // gaus's idctcol (3.61 s) and jpeg_idct (3.53 s), both at ratio 1, are 1.4 px apart: one dot.
  const auto results = gaus::report::readResults(gaus::test::dataPath("report/results.jsonl"));
  REQUIRE(results.ok());
  const std::string svg =
      gaus::report::renderQualityTimePlot(*results, gaus::report::summarizeResults(*results));
  CHECK_THAT(svg, Catch::Contains("21 verified runs"));
  CHECK(gaus::test::countOccurrences(svg, "<circle") == 19);
  // Each run's id is in exactly one tooltip.
  CHECK(gaus::test::countOccurrences(svg, "~r0 (") == 21);
  CHECK_THAT(svg, Catch::Contains("<title>2 runs here:\nheurigym/small/ewf~list~s1~r0 (list, "
                                  "heurigym/small/ewf): latency = 21, ratio 1, 0.0004 s\n"
                                  "heurigym/medium/matmul~list~s1~r0"));
  CHECK_THAT(svg, Catch::Contains("hover a dot for its run"));
}
