// Twill's claims that hold for every schedule length L (docs/exact.md, "II proofs for every L"),
// against enumeration on random modulo-warp loops of the cross-method check
// (crosscheck_cases.hpp, at most six ops): the exhaustive search (exhaustive_search.hpp, which
// shares no code with the bounds: it lets the verifier judge every start and warp set) enumerates
// L up to a cap at every II in question, and
// - no II below the warp-aware RecMII has a schedule;
// - at an II where an L suffices (warpLatencyBound), a schedule within a larger cap means one
//   within that L;
// - twill's "II proven for every L" (ii_proof every_length) finds no schedule at a smaller II,
//   and its "within L" none at a smaller II within that L;
// - twill's "L proven least" (latency_proven_optimal) finds no schedule at its II with a
//   smaller L;
// - an II twill refuted through the relaxation without registers and memory has no schedule
//   of that relaxation (withoutLifetimeCosts) within the cap.
// The cap is the serial latency with every cross-warp delay paid and a wait of II - 1 per op
// for a free residue, independent of the bounds checked. The default suite runs 16 seeds; the 1,000
// of docs/benchmarks.md are [.slow], and GAUS_WARP_BOUNDS_SEEDS=FIRST:LAST runs a part of them (to
// spread the 1,000 over processes).

#include <algorithm>
#include <cstdlib>
#include <string>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/warp_rules.hpp>
#include <gaus/crosscheck/crosscheck_cases.hpp>
#include <gaus/crosscheck/exhaustive_search.hpp>
#include <gaus/exact/twill.hpp>

#include "modulo_bounds.hpp"

using namespace gaus;
using namespace gaus::crosscheck;

namespace {

constexpr std::int32_t kMaxOps = 6;

// Every op after the last, each taking its duration, its largest cross-warp out-delay and II - 1
// for a residue: above the path bound of warpLatencyBound at `ii` (the latency of the least
// schedule with any warp sets and residues), computed without it.
Cycle serialCap(const Graph& graph, std::int32_t ii) {
  Cycle cap = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    Cycle delay = 0;
    for (EdgeId e : graph.outEdges(op)) delay = std::max(delay, crossWarpDelay(graph, e));
    cap += graph.duration(op) + delay + ii - 1;
  }
  return cap;
}

struct Tally {
  int cases = 0;
  int complete = 0;       // cases whose every enumeration ended within its node budget
  int claims = 0;         // claims compared with a complete enumeration
  int relaxedClaims = 0;  // of those, refutations of the relaxation without registers and memory
  int latencyClaims = 0;  // of those, an L proven least at its II
  std::vector<std::string> disagreements;
};

// The enumeration at II in [first, last] (problem.ii fixed to it when first == last) within
// `cap`; nothing when it ran out of nodes.
std::optional<WarpScheduleSearch> enumerate(const Problem& problem, std::int32_t first,
                                            std::int32_t last, Cycle cap) {
  Problem fixed = problem;
  if (first == last) fixed.ii = first;
  SearchBudget budget;
  budget.nodes = 100'000;
  WarpScheduleSearch search = searchModuloWarp(fixed, last + 1, cap, budget);
  if (!search.complete && !search.found) return std::nullopt;
  return search;
}

void checkCase(std::uint64_t seed, Tally& tally) {
  auto generated = generateCase(seed, Family::kModuloWarp, kMaxOps);
  REQUIRE(generated);
  const Problem& problem = generated->problem;
  const Graph& graph = *problem.graph;
  const Machine& machine = *problem.machine;
  ++tally.cases;
  bool complete = true;
  const exact::TwillFamilySet families;
  const auto disagree = [&](std::string what) {
    tally.disagreements.push_back(fmt::format("seed {}: {}", seed, what));
  };

  // No II below the warp-aware RecMII.
  const std::int64_t warpRecMii =
      exact::detail::computeWarpAwareRecMii(graph, machine, families).value;
  const auto bound = static_cast<std::int32_t>(warpRecMii);
  if (bound > 1) {
    const auto below = enumerate(problem, 1, bound - 1, serialCap(graph, bound - 1));
    complete = complete && below.has_value();
    if (below) {
      ++tally.claims;
      if (below->found) {
        disagree(
            fmt::format("warp-aware RecMII {} but a schedule at II {}", bound, *below->found->ii));
      }
    }
  }

  // At the first II's from the bound up: the L that suffices against a larger cap.
  const std::int32_t first = std::max<std::int32_t>(1, bound);
  for (std::int32_t ii = first; ii < first + 3; ++ii) {
    const auto sufficient = exact::detail::warpLatencyBound(graph, machine, ii, families);
    if (!sufficient) break;
    const Cycle larger = std::max(serialCap(graph, ii), *sufficient + 2 * ii);
    const auto within = enumerate(problem, ii, ii, *sufficient);
    const auto beyond = enumerate(problem, ii, ii, larger);
    complete = complete && within && beyond;
    if (!within || !beyond) break;
    ++tally.claims;
    if (beyond->found && !within->found) {
      disagree(fmt::format("at II {} L {} suffices, but the first schedule needs more (cap {})", ii,
                           *sufficient, larger));
    }
    if (beyond->found) break;
  }

  // Twill's claim, enumerated below its II.
  exact::TwillOptions options;
  options.search.timeLimitSeconds = 10.0;
  const exact::TwillSolution solution = exact::solveTwill(problem, options);
  // Each II twill refuted through the relaxation without registers and memory: the relaxation
  // itself has no schedule there within the cap (which is above its L that suffices).
  Problem relaxed = problem;
  relaxed.graph = std::make_shared<const Graph>(exact::detail::withoutLifetimeCosts(graph));
  for (const Attempt& attempt : solution.result.attempts) {
    if (attempt.status != ModelStatus::kInfeasible || !attempt.ii ||
        attempt.detail.find("without registers and memory") == std::string::npos) {
      continue;
    }
    const auto ii = static_cast<std::int32_t>(*attempt.ii);
    const auto within = enumerate(relaxed, ii, ii, serialCap(graph, ii));
    complete = complete && within.has_value();
    if (!within) continue;
    ++tally.claims;
    ++tally.relaxedClaims;
    if (within->found) {
      disagree(
          fmt::format("twill refutes II {} without registers and memory, but it has a "
                      "schedule there (cap {})",
                      ii, serialCap(graph, ii)));
    }
  }
  const exact::TwillIiBound& iiBound = solution.twill.iiBound;
  if (solution.result.status == ModelStatus::kOptimal && !solution.twill.units.normalization &&
      *solution.ii() > 1 && iiBound.proof != exact::IiProof::kNone) {
    const std::int32_t ii = *solution.ii();
    const Cycle cap = iiBound.proof == exact::IiProof::kEveryLength ? serialCap(graph, ii - 1)
                                                                    : *iiBound.provenWithinLatency;
    const auto below = enumerate(problem, 1, ii - 1, cap);
    complete = complete && below.has_value();
    if (below) {
      ++tally.claims;
      if (below->found) {
        disagree(fmt::format("twill proves II {} ({}) but a schedule at II {} within L {}", ii,
                             toString(iiBound.proof), *below->found->ii, cap));
      }
    }
  }
  // Twill's "L proven least at the optimal II" (latency_proven_optimal): no schedule at that II
  // with a smaller L.
  if (solution.result.bounds.latencyProvenOptimal && solution.twill.latency &&
      *solution.twill.latency > 1) {
    const std::int32_t ii = *solution.ii();
    const Cycle shorter = *solution.twill.latency - 1;
    const auto within = enumerate(problem, ii, ii, shorter);
    complete = complete && within.has_value();
    if (within) {
      ++tally.claims;
      ++tally.latencyClaims;
      if (within->found) {
        disagree(fmt::format("twill proves L {} least at II {}, but a schedule there within L {}",
                             *solution.twill.latency, ii, shorter));
      }
    }
  }
  if (complete) ++tally.complete;
}

Tally checkSeeds(std::uint64_t first, std::uint64_t last) {
  Tally tally;
  for (std::uint64_t seed = first; seed <= last; ++seed) checkCase(seed, tally);
  return tally;
}

}  // namespace

TEST_CASE("warp bounds against enumeration: 16 modulo-warp loops, no disagreement",
          "[twill][warp-bounds]") {
  const Tally tally = checkSeeds(1, 16);
  for (const auto& line : tally.disagreements) UNSCOPED_INFO(line);
  INFO(fmt::format(
      "{} cases, {} enumerated in full, {} claims compared ({} on the relaxation, {} "
      "of a least L)",
      tally.cases, tally.complete, tally.claims, tally.relaxedClaims, tally.latencyClaims));
  CHECK(tally.disagreements.empty());
  // The least-L claim is made and compared on some of them.
  CHECK(tally.latencyClaims > 0);
  // Most cases are small enough for every enumeration to end.
  CHECK(2 * tally.complete >= tally.cases);
}

TEST_CASE("warp bounds against enumeration: 1,000 modulo-warp loops, no disagreement",
          "[twill][warp-bounds][.slow]") {
  std::uint64_t first = 1;
  std::uint64_t last = 1000;
  if (const char* range = std::getenv("GAUS_WARP_BOUNDS_SEEDS")) {
    const std::string text = range;
    const auto colon = text.find(':');
    REQUIRE(colon != std::string::npos);
    first = std::stoull(text.substr(0, colon));
    last = std::stoull(text.substr(colon + 1));
  }
  const Tally tally = checkSeeds(first, last);
  for (const auto& line : tally.disagreements) UNSCOPED_INFO(line);
  WARN(fmt::format(
      "seeds {}-{}: {} cases, {} enumerated in full, {} claims compared ({} on the relaxation "
      "without registers and memory), {} disagreements",
      first, last, tally.cases, tally.complete, tally.claims, tally.relaxedClaims,
      tally.disagreements.size()));
  CHECK(tally.disagreements.empty());
}
