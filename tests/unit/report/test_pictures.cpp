// The schedule and graph pictures: what each view draws for the toy Flash-Attention loop (every
// expected box, cell and label derived by hand below), the verifier's verdict in the picture,
// row assignment, and the aggregation and size limit on a 10,000-op graph.

#include <catch2/catch.hpp>

#include <gaus/report/pictures.hpp>

#include "gantt_chart.hpp"
#include "report_test_support.hpp"

using gaus::test::countOccurrences;
using gaus::test::wellFormedSvg;

namespace {

gaus::Problem toyProblem() {
  static const gaus::Instance instance = gaus::test::toyFlashAttention();
  return instance.problem(gaus::ProblemKind::kModulo);
}

}  // namespace

TEST_CASE("units view of the toy FA loop: 3 iterations of S, P, O on TC and EXP", "[report]") {
  // L = 4 at II = 2 gives 2 stages, so the default is 2 + 1 = 3 iterations, iteration k shifted
  // by 2k: O of iteration 2 starts at 3 + 4 = 7 and holds TC in cycle 7.
  const std::string svg =
      gaus::report::renderUnits(toyProblem(), gaus::test::toyFlashAttentionSchedule());
  REQUIRE(wellFormedSvg(svg));
  CHECK_THAT(svg, Catch::Contains("verified: the schedule passes every check"));
  CHECK_THAT(svg, Catch::Contains("II = 2, latency 4 cycles, 2 stages; 3 iterations drawn"));
  CHECK_THAT(svg,
             Catch::Contains("O, iteration 2, stage 1: start 7; holds 1 unit of TC in cycles 7-7"));
  CHECK_THAT(
      svg, Catch::Contains("P, iteration 0, stage 1: start 2; holds 1 unit of EXP in cycles 2-2"));
  // One box per op instance: 3 ops x 3 iterations, each a group with its tooltip.
  CHECK(countOccurrences(svg, "<g><title>") == 9);
  // TC and EXP have one unit each, and no row is over capacity.
  CHECK(countOccurrences(svg, ">TC</text>") == 1);
  CHECK(countOccurrences(svg, ">EXP</text>") == 1);
  CHECK(countOccurrences(svg, "(over)") == 0);
  // II lines at cycles 0, 2, 4, 6, 8 (the axis ends at 4 + 2 x 2 = 8), labelled 0, II, 2·II, ...
  CHECK(countOccurrences(svg, "class=\"iiline\"") == 5 + 1);  // + the legend's sample
  CHECK_THAT(svg, Catch::Contains(">4\u00b7II</text>"));
  CHECK_THAT(svg, Catch::Contains(">stage 1</text>"));
  CHECK_THAT(svg, Catch::Contains("steady state: 2 iterations overlap"));
}

TEST_CASE("units view of the TC clash says NOT VERIFIED and shows the unit over capacity",
          "[report]") {
  // S:0 and O:2 at II = 2 both want TC at cycle 0 mod 2: iteration 0's O and iteration 1's S
  // meet at cycle 2 and need a second TC row, beyond the capacity of 1.
  const std::string svg =
      gaus::report::renderUnits(toyProblem(), gaus::test::toyFlashAttentionClash());
  REQUIRE(wellFormedSvg(svg));
  CHECK_THAT(svg, Catch::Contains("NOT VERIFIED: ") &&
                      Catch::Contains("resource TC over capacity at cycle 0 (mod II=2)"));
  CHECK_THAT(svg, Catch::Contains(">TC 1 (over)</text>"));
}

TEST_CASE("a schedule without a start per op is not drawn, and the picture says why", "[report]") {
  gaus::Schedule missing;
  missing.start = {0, 2};  // three ops
  missing.ii = 2;
  const std::string svg = gaus::report::renderUnits(toyProblem(), missing);
  REQUIRE(wellFormedSvg(svg));
  CHECK_THAT(svg, Catch::Contains("NOT VERIFIED") && Catch::Contains("cannot be drawn"));
}

TEST_CASE("rows: first fit in order of start uses as many rows as bars overlap", "[report]") {
  // [0,2) and [1,3) overlap, so two rows; [2,4) starts when row 0 is free again; the marker at
  // cycle 5 (length 0) fits row 0; the two-unit bar [3,5) needs two rows: row 1 is free from 3,
  // row 0 is busy until 4, so it opens row 2.
  std::vector<gaus::report::GanttBar> bars = {{0, 2, 1, 0, "a", ""},
                                              {1, 3, 1, 0, "b", ""},
                                              {2, 4, 1, 0, "c", ""},
                                              {5, 5, 1, 0, "d", ""},
                                              {3, 5, 2, 0, "e", ""}};
  const auto rows = gaus::report::assignRows(bars);
  CHECK(rows.rowsOfBar[0] == std::vector<std::int32_t>{0});
  CHECK(rows.rowsOfBar[1] == std::vector<std::int32_t>{1});
  CHECK(rows.rowsOfBar[2] == std::vector<std::int32_t>{0});
  CHECK(rows.rowsOfBar[4] == std::vector<std::int32_t>{1, 2});
  CHECK(rows.rowsOfBar[3] == std::vector<std::int32_t>{0});
  CHECK(rows.rowsUsed == 3);
}

TEST_CASE("warps view: one row group per warp, or one group when no warps are assigned",
          "[report]") {
  const gaus::Instance instance = gaus::test::toyFlashAttention();
  gaus::Schedule schedule = gaus::test::toyFlashAttentionSchedule();
  SECTION("without warps") {
    const std::string svg =
        gaus::report::renderWarps(instance.problem(gaus::ProblemKind::kModulo), schedule);
    REQUIRE(wellFormedSvg(svg));
    CHECK_THAT(svg, Catch::Contains("assigns no warps") && Catch::Contains(">all ops</text>"));
  }
  SECTION("with warps") {
    // Two warps on a machine that has them: S and O on warp 0, P on warp 1.
    gaus::Machine machine = *instance.machine;
    machine.warps = 2;
    gaus::Instance warped = instance;
    warped.machine = std::make_shared<const gaus::Machine>(machine);
    schedule.warps = std::vector<gaus::WarpSet>{1, 2, 1};
    const std::string svg =
        gaus::report::renderWarps(warped.problem(gaus::ProblemKind::kModuloWarp), schedule);
    REQUIRE(wellFormedSvg(svg));
    CHECK_THAT(svg, Catch::Contains("verified: the schedule passes"));
    CHECK_THAT(svg,
               Catch::Contains(">warp 0: O, S</text>") && Catch::Contains(">warp 1: P</text>"));
    CHECK_THAT(svg, Catch::Contains("P, iteration 1, stage 1: start 4, done at 5, on warps {1}"));
  }
}

TEST_CASE("mrt view of the toy FA loop: II = 2 columns, cells name the op and its stage",
          "[report]") {
  // Columns are cycles mod 2: TC holds S (start 0, stage 0) in column 0 and O (start 3, stage
  // 1) in column 3 mod 2 = 1; EXP holds P (start 2, stage 1) in column 0.
  const std::string svg =
      gaus::report::renderMrt(toyProblem(), gaus::test::toyFlashAttentionSchedule());
  REQUIRE(wellFormedSvg(svg));
  CHECK_THAT(svg,
             Catch::Contains("S, iteration 0, stage 0: start 0, holds TC at cycle 0-0 (mod II)"));
  CHECK_THAT(svg,
             Catch::Contains("O, iteration 0, stage 1: start 3, holds TC at cycle 1-1 (mod II)"));
  CHECK_THAT(svg,
             Catch::Contains("P, iteration 0, stage 1: start 2, holds EXP at cycle 0-0 (mod II)"));
  // 2 columns x 2 resource rows of empty cells under the op boxes.
  CHECK(countOccurrences(svg, "class=\"cell\"") == 4);
  // "stage 1" under O and P, and once in the legend.
  CHECK(countOccurrences(svg, ">stage 1</text>") == 3);
}

TEST_CASE("graph view of the toy FA loop: three levels, the loop-carried O -> O dashed",
          "[report]") {
  // S -> P -> O with delays 1 puts S, P, O on levels 0, 1, 2; O -> O has distance 1.
  const gaus::Instance instance = gaus::test::toyFlashAttention();
  const std::string svg = gaus::report::renderGraph(*instance.graph);
  REQUIRE(wellFormedSvg(svg));
  CHECK_THAT(svg, Catch::Contains(">level 2</text>"));
  CHECK_THAT(svg, !Catch::Contains(">level 3</text>"));
  CHECK(countOccurrences(svg, "class=\"carried\"") == 1 + 1);  // the edge and the legend sample
  CHECK(countOccurrences(svg, "class=\"edge\"") == 2 + 1);
  CHECK_THAT(svg, Catch::Contains(">d=1 \u03b4=1</text>"));
  CHECK_THAT(svg, Catch::Contains("O: latency 1, ASAP start 2, level 2"));
}

TEST_CASE("10,000 ops: every view aggregates with a note and stays under the size limit",
          "[report]") {
  const auto large = gaus::test::largeScheduledGraph();
  const gaus::Problem problem = large.instance.problem(gaus::ProblemKind::kLatency);
  gaus::report::PictureOptions options;
  for (const auto view : {gaus::report::ScheduleView::kUnits, gaus::report::ScheduleView::kWarps,
                          gaus::report::ScheduleView::kMrt, gaus::report::ScheduleView::kGraph}) {
    INFO(gaus::report::toString(view));
    const std::string svg = gaus::report::renderSchedule(view, problem, large.schedule, options);
    REQUIRE(wellFormedSvg(svg));
    CHECK(svg.size() <= options.maxBytes);
    CHECK_THAT(svg, Catch::Contains("Aggregated"));
  }
}

TEST_CASE("the size limit holds even when the box limit would allow a detailed picture",
          "[report]") {
  // With no box limit the detailed chart of 10,000 boxes with tooltips is about 3 MB; with a
  // 400 kB limit the picture must fall back to bands of that size or less.
  const auto large = gaus::test::largeScheduledGraph();
  gaus::report::PictureOptions options;
  options.maxBoxes = 1'000'000'000;
  options.maxBytes = 400'000;
  const std::string svg = gaus::report::renderUnits(
      large.instance.problem(gaus::ProblemKind::kLatency), large.schedule, options);
  CHECK(svg.size() <= options.maxBytes);
  CHECK_THAT(svg,
             Catch::Contains("Aggregated") && Catch::Contains("verified: the schedule passes"));
}

TEST_CASE("view names round-trip", "[report]") {
  for (const auto view : {gaus::report::ScheduleView::kUnits, gaus::report::ScheduleView::kWarps,
                          gaus::report::ScheduleView::kMrt, gaus::report::ScheduleView::kGraph}) {
    CHECK(gaus::report::parseScheduleView(gaus::report::toString(view)) == view);
  }
  CHECK_FALSE(gaus::report::parseScheduleView("gantt"));
}
