// A start schedule (`--init`) as twill's first (II, L) probe (docs/exact.md "Warm starts"): a
// start at a non-optimal (II, L) changes neither the II nor the L found, nor the proof; with a
// tiny time limit the answer is no worse than the start; a start that does not fit is ignored
// with a note. The expected answers are those of the same search without a start (the toy's is
// derived by hand in test_twill_kernels.cpp: II 2, L 4).
#include <algorithm>
#include <string>

#include <catch2/catch.hpp>

#include <gaus/core/verify.hpp>
#include <gaus/exact/exact_figures.hpp>
#include <gaus/exact/methods.hpp>
#include <gaus/exact/twill.hpp>
#include <gaus/methods/registry.hpp>

#include "kernel_files.hpp"
#include "test_support.hpp"
#include "toy_graphs.hpp"

using namespace gaus;
using namespace gaus::exact;

namespace {

TwillSolution solveFrom(const Problem& problem, const Schedule* start, TwillOptions options = {}) {
  options.start.schedule = start;
  TwillSolution solution = solveTwill(problem, options);
  INFO(solution.result.message);
  for (const auto& attempt : solution.result.attempts) UNSCOPED_INFO(attempt.describe());
  return solution;
}

// The text of the "initial schedule" note, empty when there is none.
std::string startNote(const TwillSolution& solution) {
  for (const auto& [title, text] : solution.result.notes) {
    if (title == "initial schedule") return text;
  }
  return {};
}

Schedule toyStart(std::vector<Cycle> start, std::int32_t ii) {
  Schedule schedule;
  schedule.start = std::move(start);
  schedule.ii = ii;
  schedule.warps = std::vector<WarpSet>{1, 1, 1};
  return schedule;
}

}  // namespace

TEST_CASE("twill --init toy FA: a start at II 3 is probed first, the search still proves II 2",
          "[exact][twill][init]") {
  // S:0, P:1, O:2 at II 3: residues 0, 1, 2, so S and O never share the tensor core; O's carried
  // edge needs 2 + 3 >= 2 + 1. L = 3, shorter than the optimum's 4, but at a larger II: the
  // search must still try II 2 (and find L 4 there, as without a start).
  const auto toy = test::loadKernel("toy_fa");
  const Problem problem = toy.problem(ProblemKind::kModuloWarp);
  const Schedule start = toyStart({0, 1, 2}, 3);
  REQUIRE(verify(problem, start).ok());
  const TwillSolution solution = solveFrom(problem, &start);
  REQUIRE(solution.result.status == ModelStatus::kOptimal);
  CHECK(*solution.ii() == 2);
  CHECK(*solution.twill.latency == 4);
  CHECK(solution.result.verification->ok());
  // The probe is the first check, at the start's (II, L), and is satisfiable.
  REQUIRE(!solution.result.attempts.empty());
  const Attempt& probe = solution.result.attempts.front();
  CHECK(probe.phase == "probe");
  CHECK(probe.ii == 3);
  CHECK(probe.latency == 3);
  CHECK(probe.status == ModelStatus::kFeasible);
  CHECK(solution.twill.firstSmtScheduleSeconds.has_value());
  const std::string note = startNote(solution);
  CHECK_THAT(note, Catch::Contains("the start came from --init: II 3, L 3"));
  CHECK_THAT(note, Catch::Contains("probe at II 3, L 3: SAT"));
  // No II above the incumbent's is tried.
  for (const auto& attempt : solution.result.attempts) CHECK(attempt.ii.value_or(0) <= 3);
}

TEST_CASE("twill --init toy FA: with every SMT model refused for memory_limit, the start is kept",
          "[exact][twill][init]") {
  // A 16 MB limit is below any SMT model's estimate (a Z3 context alone is allowed 32 MB,
  // twill/smt_size.cpp) and above the toy's MILPs (a few kB): the probe and II 2's model are
  // refused. Without a start that is a failed call (test_guards.cpp); with one, the verified start
  // (the incumbent) is the answer, `feasible` (no time limit stopped anything), and the message
  // says why II 2 was not decided.
  const auto toy = test::loadKernel("toy_fa");
  const Problem problem = toy.problem(ProblemKind::kModuloWarp);
  const Schedule start = toyStart({0, 1, 2}, 3);
  REQUIRE(verify(problem, start).ok());
  TwillOptions options;
  options.milp.call.memoryLimitBytes = 16'000'000;
  const TwillSolution solution = solveFrom(problem, &start, options);
  CHECK(solution.result.call == CallStatus::kOk);
  CHECK(solution.result.status == ModelStatus::kFeasible);
  REQUIRE(solution.ii().has_value());
  CHECK(*solution.ii() == 3);
  CHECK(*solution.twill.latency == 3);
  CHECK(solution.result.verification->ok());
  CHECK_THAT(solution.result.message,
             Catch::Contains("II not proven minimal: the SMT model at II=2") &&
                 Catch::Contains("above memory_limit=16000000"));
  CHECK_THAT(startNote(solution), Catch::Contains("no probe: the SMT model at II=3, L=3"));
}

TEST_CASE("twill --init toy FA: a start at the optimal II with a longer L, only smaller L tried",
          "[exact][twill][init]") {
  // S:0, P:2, O:5 at II 2: S at residue 0, O at residue 1 (the tensor core is free), P waits for
  // S (2 >= 1) and O for P (5 >= 3); L = 6. The search proves L 4 at II 2, as without a start,
  // and never checks an L of 6 or more (the incumbent's).
  const auto toy = test::loadKernel("toy_fa");
  const Problem problem = toy.problem(ProblemKind::kModuloWarp);
  const Schedule start = toyStart({0, 2, 5}, 2);
  REQUIRE(verify(problem, start).ok());
  const TwillSolution solution = solveFrom(problem, &start);
  REQUIRE(solution.result.status == ModelStatus::kOptimal);
  CHECK(*solution.ii() == 2);
  CHECK(*solution.twill.latency == 4);
  for (const auto& attempt : solution.result.attempts) {
    if (attempt.phase == "smt") CHECK(*attempt.latency < 6);
  }
}

TEST_CASE("twill --init: a start that does not fit is ignored with a note",
          "[exact][twill][init]") {
  // Each is refused before any check; the search then runs as without a start (II 2, L 4).
  const auto toy = test::loadKernel("toy_fa");
  const Problem problem = toy.problem(ProblemKind::kModuloWarp);
  Schedule twoOps = toyStart({0, 1}, 2);
  Schedule noIi = toyStart({0, 1, 2}, 2);
  noIi.ii.reset();
  // II 1 is below MinII 2: S and O both need the one tensor core.
  const Schedule belowMii = toyStart({0, 1, 2}, 1);
  const std::vector<std::pair<const Schedule*, std::string>> cases = {
      {&twoOps, "ignored (--init): it has 2 starts for 3 ops"},
      {&noIi, "ignored (--init): it is not a modulo schedule (no II)"},
      {&belowMii, "ignored (--init): its II 1 is below MinII 2 (ResMII 2, RecMII 1)"},
  };
  for (const auto& [start, expected] : cases) {
    INFO(expected);
    const TwillSolution solution = solveFrom(problem, start);
    CHECK(startNote(solution) == expected);
    REQUIRE(solution.result.status == ModelStatus::kOptimal);
    CHECK(*solution.ii() == 2);
    CHECK(*solution.twill.latency == 4);
    CHECK(solution.result.attempts.front().phase == "milp");
  }
}

TEST_CASE("twill --init through the registry: a start without warps is only a probe",
          "[exact][twill][init]") {
  // The modulo schedule S:0, P:2, O:3 at II 2 has no warp assignment, so it does not verify for
  // the modulo-warp problem (no incumbent), but its (II 2, L 4) is the probe, which is SAT and
  // is the optimum: the search only runs the MILP at II 2 and returns the probe's schedule.
  MethodRegistry registry;
  registerExactMethods(registry);
  const auto toy = test::loadKernel("toy_fa");
  Schedule start = toyStart({0, 2, 3}, 2);
  start.warps.reset();
  RunContext context;
  context.initialSchedule = &start;
  const Result result = registry.run("twill", toy.problem(ProblemKind::kModuloWarp),
                                     {{"time_limit", test::timeLimitText(30.0)}}, context);
  INFO(result.message);
  REQUIRE(result.status == ModelStatus::kOptimal);
  CHECK(result.verified());
  CHECK(*result.objective == 2);
  CHECK(result.figures.get(exact::figures::kLatency) == 4);
  REQUIRE(!result.attempts.empty());
  CHECK(result.attempts.front().phase == "probe");
  const auto note = std::find_if(result.notes.begin(), result.notes.end(),
                                 [](const auto& n) { return n.first == "initial schedule"; });
  REQUIRE(note != result.notes.end());
  CHECK_THAT(note->second, Catch::Contains("it does not verify"));
  CHECK_THAT(note->second, Catch::Contains("so it is only a probe"));
  CHECK_THAT(note->second, Catch::Contains("probe at II 2, L 4: SAT, L 4"));
  CHECK(result.figures.get(exact::figures::kFirstSmtScheduleSeconds).has_value());
}

TEST_CASE("twill --init FA forward (Hopper): a start at II 17 gives the answer without a start",
          "[exact][twill][init]") {
  // The start: twill's own schedule at the fixed II 17 (one above ResMII(TC) = 16). With it,
  // the search probes (17, L), then proves II 16 from below with the same L as without a start.
  const auto fa = test::loadKernel("fa_fwd_hopper");
  const Problem problem = fa.problem(ProblemKind::kModuloWarp);
  const TwillSolution reference = solveFrom(problem, nullptr);
  REQUIRE(reference.result.status == ModelStatus::kOptimal);
  CHECK(*reference.ii() == 16);
  Problem atSeventeen = problem;
  atSeventeen.ii = 17;
  const TwillSolution seventeen = solveFrom(atSeventeen, nullptr);
  REQUIRE(seventeen.result.schedule);
  const Schedule& start = *seventeen.result.schedule;
  REQUIRE(verify(problem, start).ok());

  const TwillSolution solution = solveFrom(problem, &start);
  REQUIRE(solution.result.status == ModelStatus::kOptimal);
  CHECK(*solution.ii() == *reference.ii());
  CHECK(*solution.twill.latency == *reference.twill.latency);
  CHECK(solution.twill.assignment.warpsUsed == reference.twill.assignment.warpsUsed);
  CHECK(solution.result.verification->ok());
  CHECK(solution.result.attempts.front().phase == "probe");
  CHECK(solution.result.attempts.front().status == ModelStatus::kFeasible);

  // With a tiny time limit the answer is no worse than the start, status timeout. 50 ms
  // cannot cover the search (about 1.4 s: docs/exact.md's kernels table); the probe may or may
  // not finish, so the answer is the probe's schedule or the start itself, both at II 17 with
  // L at most the start's.
  TwillOptions limited;
  limited.search.timeLimitSeconds = test::timeLimit(0.05);
  const TwillSolution quick = solveFrom(problem, &start, limited);
  REQUIRE(quick.result.status == ModelStatus::kTimeout);
  REQUIRE(quick.result.schedule);
  CHECK(quick.result.verification->ok());
  CHECK(verify(problem, *quick.result.schedule).ok());
  CHECK(*quick.ii() == 17);
  CHECK(*quick.twill.latency <= scheduleLatency(*problem.graph, start.start));
  // At the start's (II, L) the probe's schedule, whose warps the time limit left unminimized,
  // never replaces a start with fewer warps.
  if (*quick.twill.latency == scheduleLatency(*problem.graph, start.start)) {
    CHECK(quick.twill.assignment.warpsUsed <= seventeen.twill.assignment.warpsUsed);
  }
}

TEST_CASE(
    "twill --init with normalized costs: a start off the time unit's grid that is better in "
    "raw cycles is the answer",
    "[exact][twill][init]") {
  // The toy FA with every cost 1055 and U = 10: the one pool value maps to C' = 10, so one
  // normalized cycle is ceil(1055 / 10) = 106 raw cycles, and the normalized optimum (the toy
  // times 10: II' 20, O at 30) is II 2120 and, O at 3180 taking its raw 1055, L 4235 in raw
  // cycles. The raw optimum is the toy times
  // 1055: S:0, P:1055, O:3165 at II 2110 (TC busy [0, 1055) and [1055, 2110) modulo 2110, every
  // delay of 1055 met), L 4220. Its starts are not multiples of 106, so it is no incumbent of
  // the normalized search; its probe, rounded up to (ceil(2110 / 106), ceil(4220 / 106)) =
  // (20, 40), is SAT and caps the search there; the start beats the answer in raw cycles and is
  // returned, status feasible (nothing is proven about the raw II).
  const Instance instance = test::scaledCosts(test::toyFlashAttention(), 1055);
  const Problem problem = instance.problem(ProblemKind::kModuloWarp);
  const Schedule start = toyStart({0, 1055, 3165}, 2110);
  REQUIRE(verify(problem, start).ok());
  TwillOptions options;
  options.normalization.sumBound = 10;
  const TwillSolution solution = solveFrom(problem, &start, options);
  REQUIRE(solution.twill.units.timeUnit == 106);
  REQUIRE(solution.result.status == ModelStatus::kFeasible);
  CHECK(*solution.ii() == 2110);
  CHECK(*solution.twill.latency == 4220);
  CHECK(solution.result.verification->ok());
  CHECK_FALSE(solution.twill.iiBound.provenMinimal);
  CHECK_THAT(solution.result.message,
             Catch::Contains("beats the search's answer (II 2120, L 4235"));
  const std::string note = startNote(solution);
  CHECK_THAT(note, Catch::Contains("in raw cycles only"));
  CHECK_THAT(note, Catch::Contains("probe at II 20, L 40: SAT"));
}
