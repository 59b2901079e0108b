// The Twill search's claims checked against references that share nothing with it: on tiny
// random loops, every "proven" flag of the solution (II minimal, warps minimal, cross-warp edges
// minimal) and L's minimality at its II are confirmed by enumerating start times and warp
// assignments and letting the verifier judge each; the two orders of the L search (ascending,
// bisect) agree; the time limit holds on the sub-tiled Blackwell stand-in.
#include <algorithm>
#include <bit>
#include <chrono>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/random_graph.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/exact/modulo_milp.hpp>
#include <gaus/exact/twill.hpp>

#include "brute_force.hpp"
#include "kernel_files.hpp"
#include "test_support.hpp"
#include "toy_graphs.hpp"

using namespace gaus;
using namespace gaus::exact;

namespace {

TwillSolution solveTiny(const Instance& instance, LatencySearch order) {
  TwillOptions options;
  options.search.latencySearch = order;
  const TwillSolution solution = solveTwill(instance.problem(ProblemKind::kModuloWarp), options);
  INFO(instance.graph->name() << ": " << solution.result.message);
  for (const auto& attempt : solution.result.attempts) UNSCOPED_INFO(attempt.describe());
  REQUIRE(solution.result.call == CallStatus::kOk);
  return solution;
}

Instance loadStandIn() {
  return test::loadInstance(test::sourcePath("configs/kernels/fa_fwd_blackwell_subtiled.yaml"));
}

// Checks the search's II and L on a tiny loop against enumeration: II proven minimal with no
// verifying schedule below it, L minimal at II. Returns the enumeration's best warp counts at
// (II, L) for the caller's checks of the minimizations.
test::WarpCounts checkIiAndLatencyAgainstBruteForce(const Problem& problem,
                                                    const TwillSolution& solution) {
  REQUIRE(solution.result.status == ModelStatus::kOptimal);
  REQUIRE(solution.result.schedule);
  CHECK(verify(problem, *solution.result.schedule).ok());
  const std::int32_t ii = *solution.ii();
  const Cycle latency = *solution.twill.latency;
  // II minimal: no II below it has a verifying schedule within the generous L.
  CHECK(solution.twill.iiBound.provenMinimal);
  for (std::int32_t smaller = 1; smaller < ii; ++smaller) {
    INFO("II " << smaller);
    CHECK_FALSE(
        test::bestWarpCounts(problem, smaller, test::generousLatency(*problem.graph, smaller)));
  }
  // L minimal at II (the search's answer, Algorithm 1's first SAT L).
  CHECK_FALSE(test::bestWarpCounts(problem, ii, latency - 1));
  const auto best = test::bestWarpCounts(problem, ii, latency);
  REQUIRE(best);
  return *best;
}

}  // namespace

TEST_CASE("twill proven claims: II, L, warps and cross-warp edges match brute force",
          "[exact][twill][search]") {
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const Instance instance = test::tinyWarpLoop(seed);
    const Problem problem = instance.problem(ProblemKind::kModuloWarp);
    INFO("seed " << seed);
    const TwillSolution solution = solveTiny(instance, LatencySearch::kAscending);
    // The minimizations' proofs: nothing at (II, L) uses fewer warps, or as few warps and
    // fewer cross-warp edges.
    const auto best = checkIiAndLatencyAgainstBruteForce(problem, solution);
    if (solution.twill.assignment.warpsProvenMinimal)
      CHECK(solution.twill.assignment.warpsUsed == best.warps);
    if (solution.twill.assignment.warpsProvenMinimal &&
        solution.twill.assignment.crossEdgesProvenMinimal) {
      CHECK(solution.twill.assignment.crossWarpEdges == best.crossEdges);
    }
    CHECK(solution.twill.assignment.warpsProvenMinimal);
    CHECK(solution.twill.assignment.crossEdgesProvenMinimal);
  }
}

TEST_CASE("twill with one stream per warp: II and L match brute force", "[exact][twill][search]") {
  // The tiny loops above on a machine whose warps execute one op per cycle (warp issue width
  // 1): the II the search proves minimal and the L it finds at that II against enumeration of
  // every start and warp assignment, judged by the verifier, which checks the issue slots.
  // Four seeds keep it fast (each enumerates up to 10^5 schedules under load).
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const Instance instance = test::tinyWarpLoop(seed, 1);
    const Problem problem = instance.problem(ProblemKind::kModuloWarp);
    INFO("seed " << seed);
    const TwillSolution solution = solveTiny(instance, LatencySearch::kAscending);
    const auto best = checkIiAndLatencyAgainstBruteForce(problem, solution);
    CHECK(solution.twill.assignment.warpsUsed == best.warps);
  }
}

TEST_CASE("twill L search: ascending and bisect find the same II and L", "[exact][twill][search]") {
  std::vector<Instance> instances;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) instances.push_back(test::tinyWarpLoop(seed));
  instances.push_back(test::toyFlashAttention());
  for (const Instance& instance : instances) {
    INFO(instance.graph->name());
    const TwillSolution ascending = solveTiny(instance, LatencySearch::kAscending);
    const TwillSolution bisect = solveTiny(instance, LatencySearch::kBisect);
    CHECK(ascending.result.status == bisect.result.status);
    CHECK(ascending.ii() == bisect.ii());
    CHECK(ascending.twill.latency == bisect.twill.latency);
    CHECK(ascending.twill.assignment.warpsUsed == bisect.twill.assignment.warpsUsed);
    CHECK(ascending.twill.assignment.crossWarpEdges == bisect.twill.assignment.crossWarpEdges);
  }
}

TEST_CASE("twill stand-in: the sub-tiled Blackwell FA has RecMII one above ResMII",
          "[exact][twill][search]") {
  // configs/kernels/fa_fwd_blackwell_subtiled.yaml: 46 ops, 76 edges of which 10 loop-carried;
  // the tensor cores bind ResMII at 4 MMAs x 4 units = 16, the O correction chain pv -> ldo ->
  // rescale -> sto -> pv binds RecMII at 14 + 1 + 1 + 1 = 17. At II 17 the recurrence fixes
  // the chain's residues and the MILP proves that no modulo schedule exists, so the first II
  // is infeasible for the joint problem too.
  const Instance instance = loadStandIn();
  const Graph& graph = *instance.graph;
  CHECK(graph.numOps() == 46);
  CHECK(graph.numEdges() == 76);
  std::int32_t carried = 0;
  for (EdgeId e = 0; e < graph.numEdges(); ++e) carried += graph.edgeDistance(e) > 0 ? 1 : 0;
  CHECK(carried == 10);
  CHECK(computeResMii(graph, *instance.machine).value == 16);
  CHECK(computeRecMii(graph).value == 17);
  const ModuloAttempt atMii = solveModuloAtIi(instance.problem(ProblemKind::kModulo), 17);
  CHECK(atMii.status == ModelStatus::kInfeasible);
}

TEST_CASE("twill at 32 warps: the stand-in on warps of 32 threads is proven, warp groups aligned",
          "[exact][twill][search]") {
  // configs/kernels/fa_fwd_blackwell_subtiled_32w.yaml: the stand-in above on 32 warps of 32
  // threads (warp 0 for the loads), its tile ops on warp groups of four. I 18 and L 35 are the
  // 6-warp stand-in's proven answer (docs/benchmarks.md, "The order encoding"), which neither the
  // warps nor the 255-register limit bind. Its 4 warps there (the load warp, the MMA warp, two
  // warps of 128 threads for the sub-tiles) are 1 + 1 + 4 + 4 = 10 warps of 32 threads here, and
  // the search proves 9 impossible; the cross-warp edges, 25, are the search's (24 refuted): the
  // row statistics (mmax, alpha, lsum) need a warp group here and sit with their sub-tile's
  // softmax, not with the MMAs as on 6 warps. Every warp group is aligned.
  const Instance instance =
      test::loadInstance(test::sourcePath("configs/kernels/fa_fwd_blackwell_subtiled_32w.yaml"));
  TwillOptions options;
  options.search.timeLimitSeconds = test::timeLimit(120.0);
  const TwillSolution solution = solveTwill(instance.problem(ProblemKind::kModuloWarp), options);
  INFO(solution.result.message);
  for (const auto& attempt : solution.result.attempts) UNSCOPED_INFO(attempt.describe());
  REQUIRE(solution.result.status == ModelStatus::kOptimal);
  CHECK(solution.result.verification->ok());
  CHECK(*solution.ii() == 18);
  CHECK(*solution.twill.latency == 35);
  CHECK(solution.twill.assignment.warpsUsed == 10);
  CHECK(solution.twill.assignment.warpsProvenMinimal);
  CHECK(solution.twill.assignment.crossWarpEdges == 25);
  CHECK(solution.twill.assignment.crossEdgesProvenMinimal);
  const Graph& graph = *instance.graph;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    CHECK(isWarpGroup((*solution.result.schedule->warps)[op], graph.minWarps(op)));
  }
}

TEST_CASE("twill time limit: the stand-in stops within the limit with a timeout",
          "[exact][twill][search]") {
  // Every phase takes its share of the time left (normalization, the MILP, each SMT check,
  // the minimizations); building a model is the only step without a limit, and it takes tens
  // of milliseconds here. A CBC child gets a grace of 1 s + 5 % past its limit
  // (milp/milp_model.hpp), and a loaded machine some more: 4 s, where ignoring the limit would
  // take the MILP's 10 s.
  const Instance instance = loadStandIn();
  TwillOptions options;
  options.search.timeLimitSeconds = test::timeLimit(1.0);
  const auto begin = std::chrono::steady_clock::now();
  const TwillSolution solution = solveTwill(instance.problem(ProblemKind::kModuloWarp), options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  INFO(solution.result.message);
  CHECK(seconds < 4.0);
  CHECK(solution.result.status == ModelStatus::kTimeout);
}
