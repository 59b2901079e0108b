// The report's opening sentences (src/report/headlines.hpp) on hand-made results, each number of
// each sentence worked out by hand below from the records.

#include <catch2/catch.hpp>

#include <gaus/report/report.hpp>

#include "headlines.hpp"
#include "report_tables.hpp"

namespace {

using gaus::report::Headline;
using gaus::report::HeadlineKind;
using gaus::report::ResultRecord;
using gaus::report::ResultsFile;

// A verified run of `label` on `graph` with `value` of `objective`, and the lower bound it
// proved, if any.
ResultRecord run(const std::string& graph, const std::string& label, double value,
                 std::optional<double> bound = std::nullopt,
                 const std::string& objective = "peak_memory",
                 const std::string& kind = "latency-bounded") {
  ResultRecord record;
  record.runId = graph + "~" + label;
  record.label = label;
  record.method = label;
  record.graph.id = graph;
  record.problem.kind = kind;
  record.status = gaus::report::RunStatus::kFeasible;
  record.objective = gaus::report::ResultObjective{objective, value};
  record.lowerBound = bound;
  record.verified = true;
  return record;
}

std::vector<Headline> headlinesOf(std::vector<ResultRecord> records,
                                  const gaus::report::HeadlineOptions& options = {}) {
  ResultsFile results;
  results.records = std::move(records);
  return gaus::report::writeHeadlines(results, gaus::report::summarizeResults(results), options);
}

}  // namespace

TEST_CASE("headlines: the widest win first, each loser with its factor or percentage",
          "[report][headlines]") {
  // adder: gaus 7, list + refinement 257 (257 / 7 = 36.7, "37x"), list 382 (382 / 7 = 54.6,
  // "55x"). cavlc: gaus 133, list 204 (1 - 133 / 204 = 34.8%, "35%"), runner-up ratio 1.53.
  // max: gaus 533, list 560: 560 / 533 = 1.05 is below the 1.2 a win needs.
  const auto headlines = headlinesOf({
      run("epfl/cavlc", "list", 204),
      run("epfl/cavlc", "gaus", 133),
      run("epfl/adder", "list", 382),
      run("epfl/adder", "list + refinement", 257),
      run("epfl/adder", "gaus", 7),
      run("epfl/max", "list", 560),
      run("epfl/max", "gaus", 533),
  });
  REQUIRE(headlines.size() == 2);
  CHECK(headlines[0].kind == HeadlineKind::kWin);
  CHECK(headlines[0].graph == "epfl/adder");
  CHECK(headlines[0].label == "gaus");
  CHECK(headlines[0].text ==
        "On epfl/adder, gaus's peak memory of 7 is 37x below list + refinement's 257 and 55x "
        "below list's 382.");
  CHECK(headlines[1].text == "On epfl/cavlc, gaus's peak memory of 133 is 35% below list's 204.");
}

TEST_CASE("headlines: a tie for the best value is no win", "[report][headlines]") {
  // list and gaus share 31; a problem with one method has no one to beat. No bound: nothing to
  // say at all.
  CHECK(headlinesOf({run("ctrl", "list", 31), run("ctrl", "gaus", 31), run("solo", "gaus", 5)})
            .empty());
}

TEST_CASE("headlines: a proven optimum names who reaches it, who proved it and the worst",
          "[report][headlines]") {
  // ctrl: ilp's bound 31 meets gaus's and ilp's 31; list's 47 is 47 / 31 - 1 = 51.6% above.
  // graph9 (II): ims 9 with its own bound 7 (MinII), ilp 9 with bound 9: ilp proves ims's 9.
  // Ranking: ctrl's spread 47 / 31 = 1.52 against graph9's bound rise 9 / 7 = 1.29.
  const auto headlines = headlinesOf({
      run("epfl/ctrl", "list", 47),
      run("epfl/ctrl", "gaus", 31),
      run("epfl/ctrl", "ilp", 31, 31.0),
      run("graph9", "ims", 9, 7.0, "ii", "modulo"),
      run("graph9", "ilp", 9, 9.0, "ii", "modulo"),
  });
  REQUIRE(headlines.size() == 2);
  CHECK(headlines[0].kind == HeadlineKind::kProvenOptimal);
  CHECK(headlines[0].text ==
        "On epfl/ctrl, the peak memory of 31 that gaus and ilp reach is proven optimal by ilp's "
        "lower bound; list's 47 is 52% above it.");
  CHECK(headlines[0].label == "gaus");
  CHECK(headlines[1].text ==
        "On graph9, the II of 9 that ilp and ims reach is proven optimal by ilp's lower bound "
        "(ims's own bound: 7).");
}

TEST_CASE("headlines: proofs on different kinds of problem before a second of one kind",
          "[report][headlines]") {
  // Two loops with a wide spread (ims 12 and 10 against proven 6 and 5: scores 2.0 and 2.0)
  // and a kernel proven by its own method (score 1): with three sentences, the kernel's
  // modulo-warp proof takes the third place before the second loop.
  const auto headlines = headlinesOf(
      {
          run("loop1", "ims", 12, 4.0, "ii", "modulo"),
          run("loop1", "ilp", 6, 6.0, "ii", "modulo"),
          run("loop2", "ims", 10, 4.0, "ii", "modulo"),
          run("loop2", "ilp", 5, 5.0, "ii", "modulo"),
          run("fa", "twill", 16, 16.0, "ii", "modulo-warp"),
      },
      {.maxWins = 0, .maxProvenOptimal = 2, .maxProvenGaps = 0, .minWinRatio = 1.2});
  REQUIRE(headlines.size() == 2);
  CHECK(headlines[0].graph == "loop1");
  CHECK(headlines[1].graph == "fa");
}

TEST_CASE("headlines: a method that proves its own answer", "[report][headlines]") {
  const auto headlines = headlinesOf({run("toy_fa", "twill", 2, 2.0, "ii", "modulo-warp")});
  REQUIRE(headlines.size() == 1);
  CHECK(headlines[0].text ==
        "On toy_fa, twill's II of 2 is proven optimal by its own lower bound.");
}

TEST_CASE("headlines: a proven gap, the smallest first, after the wins", "[report][headlines]") {
  // max: gaus 533, ilp 540 with bound 470: gap (533 - 470) / 533 = 11.8%. i2c: gaus 160 with
  // ilp's bound 80: gap 50.0%, ranked after max and left out by maxProvenGaps = 1. The win on
  // i2c (ilp's 200 / 160 = 1.25) comes first.
  const auto headlines = headlinesOf({
      run("epfl/max", "gaus", 533),
      run("epfl/max", "ilp", 540, 470.0),
      run("epfl/i2c", "gaus", 160),
      run("epfl/i2c", "ilp", 200, 80.0),
  });
  REQUIRE(headlines.size() == 2);
  CHECK(headlines[0].kind == HeadlineKind::kWin);
  CHECK(headlines[0].text == "On epfl/i2c, gaus's peak memory of 160 is 20% below ilp's 200.");
  CHECK(headlines[1].kind == HeadlineKind::kProvenGap);
  CHECK(headlines[1].text ==
        "On epfl/max, the best peak memory found is gaus's 533; the best lower bound, 470 (ilp), "
        "leaves a gap of 11.8%.");
}

TEST_CASE("headlines: a graph with two problems names the problem", "[report][headlines]") {
  // fa: ilp's modulo II 3 (bound 3), twill's modulo-warp II 4 (bound 4): two problems, each
  // proven by its own method.
  const auto headlines = headlinesOf({
      run("fa", "ilp", 3, 3.0, "ii", "modulo"),
      run("fa", "twill", 4, 4.0, "ii", "modulo-warp"),
  });
  REQUIRE(headlines.size() == 2);
  CHECK(headlines[0].text ==
        "On fa (modulo), ilp's II of 3 is proven optimal by its own lower bound.");
  CHECK(headlines[1].text ==
        "On fa (modulo-warp), twill's II of 4 is proven optimal by its own lower bound.");
}

TEST_CASE("headlines: unverified runs and other objectives say nothing", "[report][headlines]") {
  // list's 382 was not verified; gaus's bound is on another objective than the problem's.
  auto unverified = run("adder", "list", 382);
  unverified.verified = false;
  auto otherObjective = run("adder", "ilp", 300, 7.0, "latency");
  CHECK(headlinesOf({unverified, run("adder", "gaus", 7), otherObjective}).empty());
}
