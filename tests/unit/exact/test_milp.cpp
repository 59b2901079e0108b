// The CBC models: cost normalization, the acyclic latency MILP and the modulo MILP with its
// search over II. References are brute-force enumerations judged by gaus::verify.
#include <algorithm>
#include <numeric>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/random_graph.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/exact/cost_normalization.hpp>
#include <gaus/exact/exact_figures.hpp>
#include <gaus/exact/latency_milp.hpp>
#include <gaus/exact/methods.hpp>
#include <gaus/exact/modulo_milp.hpp>
#include <gaus/heuristic/list_scheduler.hpp>

#include "brute_force.hpp"
#include "kernel_files.hpp"
#include "latency_sat.hpp"
#include "toy_graphs.hpp"

using namespace gaus;
using namespace gaus::exact;

namespace {

// F = max over pairs |C_i C'_j - C_j C'_i|.
std::int64_t crossError(const std::vector<std::int64_t>& values,
                        const std::vector<std::int64_t>& mapped) {
  std::int64_t worst = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::size_t j = i + 1; j < values.size(); ++j) {
      worst = std::max(worst, std::abs(values[i] * mapped[j] - values[j] * mapped[i]));
    }
  }
  return worst;
}

// Minimum F over every C' with 0 <= C'_i <= min(U, raw_i) and 1 <= sum <= U, and the largest sum
// reaching it (a C' never exceeds its raw cost: cost_normalization.cpp).
std::pair<std::int64_t, std::int64_t> bruteForceNormalization(
    const std::vector<std::int64_t>& values, const std::vector<std::int64_t>& raw,
    std::int64_t sumBound) {
  std::int64_t bestF = std::numeric_limits<std::int64_t>::max();
  std::int64_t bestSum = 0;
  std::vector<std::int64_t> mapped(values.size(), 0);
  std::function<void(std::size_t, std::int64_t)> enumerate = [&](std::size_t index,
                                                                 std::int64_t sum) {
    if (index == values.size()) {
      if (sum < 1) return;
      const std::int64_t f = crossError(values, mapped);
      if (f < bestF || (f == bestF && sum > bestSum)) {
        bestF = f;
        bestSum = sum;
      }
      return;
    }
    for (std::int64_t c = 0; sum + c <= sumBound && c <= raw[index]; ++c) {
      mapped[index] = c;
      enumerate(index + 1, sum + c);
    }
    mapped[index] = 0;
  };
  enumerate(0, 0);
  return {bestF, bestSum};
}

// Small random graphs: two limited op types with multi-cycle occupancy, optional back edges.
RandomInstance smallRandomGraph(std::uint64_t seed, std::int32_t ops, std::int32_t backEdges) {
  RandomGraphOptions options;
  options.ops = ops;
  options.averageDegree = 1.2;
  options.seed = seed;
  options.backEdges = backEdges;
  options.maxDistance = 2;
  options.opTypes = {{"ALU", 1, 2, 1, 1, 1.0}, {"MUL", 2, 3, 2, 1, 1.0}};
  auto generated = generateRandomGraph(options);
  REQUIRE(generated.ok());
  return std::move(generated).value();
}

Problem problemOf(const RandomInstance& instance, ProblemKind kind) {
  Problem problem;
  problem.graph = std::make_shared<const Graph>(instance.graph);
  problem.machine = std::make_shared<const Machine>(instance.machine);
  problem.kind = kind;
  return problem;
}

}  // namespace

TEST_CASE("normalization: F* and the tie-break match brute force on small pools",
          "[exact][normalization]") {
  // Brute force enumerates every C' with sum <= U (U = 12 keeps it to a few thousand vectors).
  const std::vector<std::vector<std::int64_t>> pools = {{3, 7, 10},  {2, 5, 11}, {1, 4, 9},
                                                        {6, 10, 15}, {5, 13},    {7, 8, 12}};
  NormalizationOptions options;
  options.sumBound = 12;
  options.fixedScaleFallback = false;  // the paper's two solves only
  for (const auto& pool : pools) {
    INFO("pool " << fmt::format("{}", fmt::join(pool, ",")));
    const auto result = normalizeCosts(pool, options);
    REQUIRE(result.ok());
    REQUIRE(result->values == pool);  // already sorted and distinct
    std::vector<std::int64_t> scaled;
    for (auto value : pool) scaled.push_back(value / result->divisor);
    const auto [bestF, bestSum] = bruteForceNormalization(scaled, pool, options.sumBound);
    CHECK(result->provenOptimal);
    CHECK(result->worstCrossError == bestF);
    CHECK(crossError(scaled, result->normalized) == bestF);
    CHECK(result->normalizedSum == bestSum);
  }
}

TEST_CASE("normalization: scaling every cost by k gives the same C'", "[exact][normalization]") {
  // Ratios are all that matter: the gcd is divided out, so the MILP is identical.
  const std::vector<std::int64_t> pool = {517, 1199, 1325, 64, 256};
  const auto base = normalizeCosts(pool);
  REQUIRE(base.ok());
  for (std::int64_t k : {2, 3, 10}) {
    std::vector<std::int64_t> scaled;
    for (auto value : pool) scaled.push_back(value * k);
    const auto result = normalizeCosts(scaled);
    REQUIRE(result.ok());
    CHECK(result->normalized == base->normalized);
    CHECK(result->divisor == base->divisor * k);
  }
  // Proportional costs map exactly: {1000, 2000, 3000} keeps ratios 1:2:3 with F* = 0 and the
  // largest sum <= 300, i.e. {50, 100, 150}.
  const auto exact = normalizeCosts(std::vector<std::int64_t>{1000, 2000, 3000});
  REQUIRE(exact.ok());
  CHECK(exact->worstCrossError == 0);
  CHECK(exact->normalized == std::vector<std::int64_t>{50, 100, 150});
  CHECK(exact->worstRatioError == Approx(0.0));
}

TEST_CASE("normalization: no cost ever maps above its raw value", "[exact][normalization]") {
  // Pools whose sum fits U = 300 have the exact mapping C' = C (F = 0), which the tie-break would
  // have scaled up to the largest sum <= U: ChStone dfsin's 1, 2, 5, 65 became 4, 8, 20, 260 and
  // its schedule four times longer. Bounded by the raw costs, they map to themselves, and the
  // mapping shrinks nothing (the callers then solve in raw cycles).
  const std::vector<std::vector<std::int64_t>> fitting = {
      {1, 2, 5, 65}, {1, 100}, {2, 4, 130}, {7}, {3, 60, 64, 65, 66}};
  for (const auto& pool : fitting) {
    INFO("pool " << fmt::format("{}", fmt::join(pool, ",")));
    const auto result = normalizeCosts(pool);
    REQUIRE(result.ok());
    CHECK(result->normalized == pool);
    CHECK(result->worstCrossError == 0);
    CHECK_FALSE(result->shrinksSomeCost());
  }
  // Pools above U shrink: every C' is at most its cost, some strictly (1000 + 1500 > 300 maps to
  // 120 + 180, the exact ratio 2:3 at the largest sum <= 300), and the one-value pool {1000} maps
  // to U = 300, not above.
  const std::vector<std::vector<std::int64_t>> large = {
      {1000, 1500}, {1000}, {1, 2, 300}, {517, 1199, 1325, 64, 256}};
  for (const auto& pool : large) {
    INFO("pool " << fmt::format("{}", fmt::join(pool, ",")));
    const auto result = normalizeCosts(pool);
    REQUIRE(result.ok());
    for (std::size_t i = 0; i < pool.size(); ++i) CHECK(result->normalized[i] <= pool[i]);
    CHECK(result->shrinksSomeCost());
  }
  CHECK(normalizeCosts(std::vector<std::int64_t>{1000, 1500})->normalized ==
        std::vector<std::int64_t>{120, 180});
  CHECK(normalizeCosts(std::vector<std::int64_t>{1000})->normalized ==
        std::vector<std::int64_t>{300});
}

TEST_CASE("normalization: ilp on costs that fit the sum bound answers in cycles",
          "[exact][normalization][latency]") {
  // a (1 cycle) -> div (65, the largest cost, so normalize=auto normalizes) -> b (2), and c (5)
  // beside them; a, b and c share one ALU. The critical path a, div, b is 1 + 65 + 2 = 68 and
  // c fits on the ALU while div runs (a:0, div:1, c:1, b:66), so the optimum is 68, proven by
  // the critical path. Before the bound on C', auto scaled every cost by 4 and answered 272
  // (68 in its units) with no bound.
  Machine machine;
  machine.name = "alu_div";
  const ResourceId alu = machine.addResource("ALU", 1);
  const ResourceId div = machine.addResource("DIV", 1);
  GraphBuilder builder("fits_sum_bound");
  const OpId a = builder.addOp("a", 1);
  const OpId d = builder.addOp("div", 65);
  const OpId b = builder.addOp("b", 2);
  const OpId c = builder.addOp("c", 5);
  for (OpId op : {a, b, c}) builder.addReservation(op, {alu, 0, 1, 1});
  builder.addReservation(d, {div, 0, 1, 1});
  builder.addEdge(a, d);
  builder.addEdge(d, b);
  const Instance instance = test::makeInstance(std::move(builder), std::move(machine));
  const Problem problem = instance.problem(ProblemKind::kLatency);
  REQUIRE(costsAreLarge(*problem.graph, NormalizationOptions{}.largeCostThreshold));

  for (const auto mode : {NormalizationMode::kAuto, NormalizationMode::kOn}) {
    INFO("normalize=" << toString(mode));
    LatencyMilpOptions options;
    options.normalization.mode = mode;
    const Result result = solveLatencyMilp(problem, options);
    INFO(result.message);
    REQUIRE(result.schedule);
    CHECK(verify(problem, *result.schedule).ok());
    CHECK(result.status == ModelStatus::kOptimal);
    CHECK(*result.objective == 68);
    REQUIRE(result.bounds.lowerBound);
    CHECK(*result.bounds.lowerBound == 68);
    CHECK(result.bounds.latencyProvenOptimal);
    // Solved in raw cycles: no time unit, and the list latency is the raw list schedule's
    // (the list scheduler reaches 68 here too), never below the answer.
    CHECK_FALSE(result.figures.get(exact::figures::kTimeUnit));
    REQUIRE(result.figures.get(exact::figures::kListLatency));
    CHECK(*result.figures.get(exact::figures::kListLatency) >= *result.objective);
    const bool noted = std::any_of(result.notes.begin(), result.notes.end(), [](const auto& n) {
      return n.first == "normalized costs" &&
             n.second.find("the raw costs are kept") != std::string::npos;
    });
    CHECK(noted);
  }
}

TEST_CASE(
    "normalization: a normalized latency answer is in cycles, never worse than the raw list "
    "schedule",
    "[exact][normalization][latency]") {
  // The toy FA as one iteration with every cost 1000 and U = 10: one normalized cycle is
  // ceil(1000 / 10) = 100 raw cycles, so the normalized solve's bound and proofs mean nothing in
  // cycles. The answer is a verified raw schedule no longer than the raw list schedule, its
  // bound is the raw critical path and resource bound (not the normalized bound), and every
  // attempt's II, L and bound are marked as normalized rather than read as cycles.
  const auto instance = test::scaledCosts(test::toyFlashAttention(), 1000);
  const Problem problem = instance.problem(ProblemKind::kLatency);
  LatencyMilpOptions options;
  options.normalization.sumBound = 10;
  const Result result = solveLatencyMilp(problem, options);
  INFO(result.message);
  REQUIRE(result.schedule);
  CHECK(verify(problem, *result.schedule).ok());
  REQUIRE(result.figures.get(exact::figures::kTimeUnit));
  CHECK(*result.figures.get(exact::figures::kTimeUnit) == 100);
  auto order = topologicalOrder(*problem.graph);
  REQUIRE(order.ok());
  const Cycle criticalPath = criticalPathLength(*problem.graph, asapTimes(*problem.graph, *order));
  const ResMii units = computeResMii(*problem.graph, *problem.machine);
  REQUIRE(result.bounds.lowerBound);
  CHECK(*result.bounds.lowerBound ==
        static_cast<double>(std::max(criticalPath, units.binding ? units.value : 0)));
  CHECK(*result.bounds.lowerBound <= *result.objective);
  // The list latency is the raw list schedule's (at least the raw bound, where the normalized
  // one would be about a hundredth of it), and the answer is never longer.
  REQUIRE(result.figures.get(exact::figures::kListLatency));
  CHECK(*result.figures.get(exact::figures::kListLatency) >= *result.bounds.lowerBound);
  CHECK(*result.objective <= *result.figures.get(exact::figures::kListLatency));
  for (const Attempt& attempt : result.attempts) {
    CHECK_FALSE(attempt.latency);
    CHECK_FALSE(attempt.bound);
    CHECK_THAT(attempt.detail, Catch::StartsWith("normalized units, 1 unit = 100 cycles"));
  }
}

TEST_CASE("normalization: a cost pool that fits U is solved in cycles (ChStone dfsin's pool)",
          "[exact][normalization][latency]") {
  // HatScheT's ChStone dfsin loop body 1 (2,651 ops) has the costs 1, 2, 5 and a 65-cycle
  // divider, so normalize=auto normalizes. The pool fits U = 300 (sum 73): it must map to itself,
  // and ilp must solve the raw problem, as with normalize=off. Before C' was bounded by C the
  // pool became 4, 8, 20, 260 at a time unit of 1, and `gaus schedule --kind latency --method
  // ilp --time-limit 20` answered 812 (203 in its units) with no bound (docs/exact.md). The
  // graph here is a generated stand-in with the same four costs on limited units, small enough
  // for the default suite.
  const std::vector<std::int64_t> pool = {1, 2, 5, 65};
  const auto mapping = normalizeCosts(pool);
  REQUIRE(mapping.ok());
  CHECK(mapping->normalized == pool);
  CHECK_FALSE(mapping->shrinksSomeCost());

  RandomGraphOptions options;
  options.ops = 40;
  options.averageDegree = 1.5;
  options.opTypes = {{"ALU", 1, 1, 1, 2, 4.0},
                     {"MUL", 2, 2, 1, 1, 2.0},
                     {"MEM", 5, 5, 1, 1, 1.0},
                     {"DIV", 65, 65, 0, 1, 1.0}};
  options.seed = 3;
  auto generated = generateRandomGraph(options);
  REQUIRE(generated.ok());
  const Instance instance = toInstance(std::move(generated).value());
  const Problem problem = instance.problem(ProblemKind::kLatency);
  REQUIRE(costPool(*problem.graph) == pool);

  MethodRegistry registry;
  registerExactMethods(registry);
  const Result result = registry.run("ilp", problem, {{"time_limit", test::timeLimitText(20.0)}});
  INFO(result.message);
  REQUIRE(result.schedule);
  CHECK(result.verified());
  // Solved raw: no time unit, and the answer never longer than its own list start, in cycles.
  CHECK_FALSE(result.figures.get(exact::figures::kTimeUnit));
  const double listLatency = result.figures.get(exact::figures::kListLatency).value_or(0.0);
  CHECK(listLatency > 0);
  CHECK(*result.objective <= listLatency);
  REQUIRE(result.bounds.lowerBound);
  CHECK(*result.bounds.lowerBound <= *result.objective);
  auto order = topologicalOrder(*problem.graph);
  REQUIRE(order.ok());
  CHECK(*result.bounds.lowerBound >=
        static_cast<double>(criticalPathLength(*problem.graph, asapTimes(*problem.graph, *order))));
}

TEST_CASE("normalization: the node limit makes the mapping independent of the time limit",
          "[exact][normalization]") {
  // Triton FA's cost pool (shared/benchmarks/triton-ddg/case3_FA, 22 distinct costs). CBC's
  // phase 1 proves F* = 368 (a mapping of nearly every cost to 0) at about 1,000 nodes, 10 s on
  // the development machine, so with only a time limit the mapping depended on whether 10 s were
  // enough. At 200 nodes CBC's phase 1 always stops on its start, the proportional mapping
  // (F = 570: 900 -> 46 of the sum 300), and phase 2 keeps it; a generous time limit changes
  // nothing. HiGHS proves F* = 368 within the 200 nodes, so its mapping is the proven one, also
  // the same under both limits.
  const std::vector<std::int64_t> pool = {1,   8,   32,  48,  52,  64,  65,  69,  96,  128, 138,
                                          152, 230, 256, 266, 319, 532, 556, 559, 570, 845, 900};
  for (const milp::MilpSolver solver : {milp::MilpSolver::kCbc, milp::MilpSolver::kHighs}) {
    INFO(milp::toString(solver));
    NormalizationOptions options;
    options.fixedScaleFallback = false;  // the paper's two solves only
    options.nodeLimit = 200;
    options.call.solver = solver;
    const auto quick = normalizeCosts(pool, options);
    options.call.deadline = Deadline(test::timeLimit(60.0));
    const auto patient = normalizeCosts(pool, options);
    REQUIRE(quick.ok());
    REQUIRE(patient.ok());
    CHECK(quick->normalized == patient->normalized);
    if (solver == milp::MilpSolver::kCbc) {
      CHECK(quick->worstCrossError == 570);
      CHECK(quick->map(900) == 46);
      CHECK_FALSE(quick->provenOptimal);
      REQUIRE_FALSE(quick->warnings.empty());
      CHECK_THAT(quick->warnings.front(), Catch::Contains("stopped at its node limit (200 nodes)"));
    } else {
      CHECK(quick->worstCrossError == 368);
    }
  }
}

TEST_CASE("normalization: a normalized modulo schedule maps back to a legal raw schedule",
          "[exact][normalization]") {
  // The toy FA with every cost 1000: one value in the pool, which the tie-break maps to the
  // largest C' allowed, U = 10. One normalized cycle is ceil(1000 / 10) = 100 raw cycles, the
  // search finds II' = 20 (ResMII of two 10-cycle TC ops), i.e. II = 2000 raw cycles, and the
  // scaled schedule verifies against the raw problem.
  const auto instance = test::scaledCosts(test::toyFlashAttention(), 1000);
  const Problem problem = instance.problem(ProblemKind::kModulo);
  REQUIRE(costsAreLarge(*problem.graph, 64));
  ModuloSearchOptions options;
  options.normalization.sumBound = 10;
  const Result result = searchModulo(problem, options);
  REQUIRE(result.schedule);
  CHECK(verify(problem, *result.schedule).ok());
  CHECK(result.status == ModelStatus::kFeasible);  // optimal only in normalized units
  CHECK(*result.schedule->ii == 2000);
}

TEST_CASE("latency MILP: matches brute force on small random DAGs", "[exact][latency]") {
  // Brute force: the smallest L with a verified schedule, enumerating starts in topological
  // order (5-6 ops keep it under a second). Share 0: the MILP alone; the default share: the
  // refutation on the SAT model first (latency_sat.hpp), the MILP when it leaves a gap.
  int checked = 0;
  for (const double share : {0.0, LatencyMilpOptions{}.refutationShare}) {
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      const auto instance = smallRandomGraph(seed, seed % 2 == 0 ? 5 : 6, 0);
      const Problem problem = problemOf(instance, ProblemKind::kLatency);
      LatencyMilpOptions options;
      options.refutationShare = share;
      const Result result = solveLatencyMilp(problem, options);
      INFO("seed " << seed << ", share " << share << ": " << result.message);
      REQUIRE(result.status == ModelStatus::kOptimal);
      REQUIRE(result.schedule);
      CHECK(verify(problem, *result.schedule).ok());
      const auto reference = test::bruteForceMinLatency(problem, std::nullopt, 40);
      REQUIRE(reference);
      CHECK(*result.objective == Approx(static_cast<double>(*reference)));
      CHECK(*result.bounds.lowerBound == Approx(static_cast<double>(*reference)));
      ++checked;
    }
  }
  CHECK(checked == 24);
}

TEST_CASE("latency refutation: the refuted L is one below brute force's optimum",
          "[exact][latency]") {
  // From the list schedule's L - 1 down: every satisfiable check's schedule verifies and the
  // first unsatisfiable L is the optimum less one, so the refutation alone proves the optimum.
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const auto instance = smallRandomGraph(200 + seed, seed % 2 == 0 ? 5 : 6, 0);
    const Problem problem = problemOf(instance, ProblemKind::kLatency);
    INFO("seed " << 200 + seed);
    const auto list = heuristic::listSchedule(problem);
    REQUIRE(list.ok());
    const Cycle listLatency = scheduleLatency(*problem.graph, list->start);
    const auto order = topologicalOrder(*problem.graph);
    REQUIRE(order.ok());
    const auto refutation =
        detail::refuteLatencies(problem, asapTimes(*problem.graph, *order), listLatency - 1, 0,
                                Deadline(std::nullopt), std::int64_t{1} << 32);
    const Cycle found =
        refutation.best ? scheduleLatency(*problem.graph, refutation.best->start) : listLatency;
    if (refutation.best) CHECK(verify(problem, *refutation.best).ok());
    const auto reference = test::bruteForceMinLatency(problem, std::nullopt, 40);
    REQUIRE(reference);
    CHECK(found == *reference);
    REQUIRE(refutation.refuted);
    CHECK(*refutation.refuted == *reference - 1);
  }
}

TEST_CASE("latency refutation: an interval row proves L = 5 where the LP relaxation gives 4",
          "[exact][latency]") {
  // One unit of R; r1..r4 take it for 1 cycle each; p (no resource) takes 2 cycles and feeds
  // r2, r3 and r4 (delay 2). Critical path p -> r2: 3; R's busy cycles: 4.
  // r2, r3, r4 start at 2 or later and need 3 distinct cycles: 2, 3, 4, so L = 5 (brute force
  // below agrees), with r1 at 0 or 1.
  // The time-indexed LP (time_indexed.cpp: L >= sum_t (t + 1) x[v][t] per op) gives 4: x = 1/3
  // for each of r2, r3, r4 at 2, 3 and 4 fills each cycle of R exactly once and sets each
  // expected end to (3 + 4 + 5) / 3 = 4; no fractional point does better (their three starts are
  // at least 2 + 3 + 4 = 9 in sum, so one expected end is at least 4). Rounded up: 4.
  // The refutation at L = 4: r2, r3, r4 all have the window [2, 3], so the row of [2, 3] holds
  // 3 units for a capacity of 2 and L = 4 is refuted: the bound 5 is the optimum.
  Machine machine;
  const ResourceId unit = machine.addResource("R", 1);
  GraphBuilder builder("three-after-p");
  const OpId p = builder.addOp("p", 2);
  for (int i = 1; i <= 4; ++i) {
    const OpId r = builder.addOp(fmt::format("r{}", i), 1);
    builder.addReservation(r, {unit, 0, 1, 1});
    if (i > 1) builder.addEdge(p, r, 2);
  }
  const auto instance = test::makeInstance(std::move(builder), machine);
  const Problem problem = instance.problem(ProblemKind::kLatency);
  REQUIRE(test::bruteForceMinLatency(problem, std::nullopt, 10) == 5);
  const auto order = topologicalOrder(*problem.graph);
  REQUIRE(order.ok());
  const auto refutation = detail::refuteLatencies(problem, asapTimes(*problem.graph, *order), 4, 3,
                                                  Deadline(10.0), std::int64_t{1} << 32);
  REQUIRE(refutation.refuted);
  CHECK(*refutation.refuted == 4);
  CHECK_FALSE(refutation.best);
  // And through the method: optimal at 5 with the lower bound 5, no MILP built.
  const Result result = solveLatencyMilp(problem);
  REQUIRE(result.status == ModelStatus::kOptimal);
  CHECK(*result.objective == 5);
  CHECK(*result.bounds.lowerBound == 5);
  for (const Attempt& attempt : result.attempts) CHECK(attempt.phase == "sat");
}

TEST_CASE("latency MILP: the hand-checked chain and a two-unit fork", "[exact][latency]") {
  // chain a -> b -> c -> d, latencies 1, 2, 3, 1: the critical path 7 is the optimum.
  const auto chain = test::chainOfFour();
  const Result result = solveLatencyMilp(chain.problem(ProblemKind::kLatency));
  REQUIRE(result.status == ModelStatus::kOptimal);
  CHECK(*result.objective == 7);
  // Four independent 2-cycle ops on one unit of capacity 2: two waves, L = 4.
  Machine machine;
  const ResourceId mul = machine.addResource("MUL", 2);
  GraphBuilder builder("fork");
  for (int i = 0; i < 4; ++i) {
    const OpId op = builder.addOp(fmt::format("m{}", i), 2);
    builder.addReservation(op, {mul, 0, 2, 1});
  }
  const auto fork = test::makeInstance(std::move(builder), machine);
  const Result forked = solveLatencyMilp(fork.problem(ProblemKind::kLatency));
  REQUIRE(forked.status == ModelStatus::kOptimal);
  CHECK(*forked.objective == 4);
}

TEST_CASE("modulo MILP: toy FA is infeasible at II 1 and has L 4 at II 2", "[exact][modulo]") {
  // TWILL.md: two 1-cycle TC ops on one TC give ResMII = 2, so II = 1 is infeasible; at II = 2
  // the minimum L is 4 (S:0, P:1 or 2, O:3).
  const auto toy = test::toyFlashAttention();
  const Problem problem = toy.problem(ProblemKind::kModulo);
  const auto atOne = solveModuloAtIi(problem, 1);
  CHECK(atOne.status == ModelStatus::kInfeasible);
  for (auto formulation : {ModuloFormulation::kStageResidue, ModuloFormulation::kTimeIndexed}) {
    ModuloMilpOptions options;
    options.formulation = formulation;
    const auto atTwo = solveModuloAtIi(problem, 2, options);
    INFO(toString(formulation));
    REQUIRE(atTwo.status == ModelStatus::kOptimal);
    CHECK(*atTwo.latency == 4);
    CHECK(atTwo.schedule->start[0] == 0);
    CHECK(atTwo.schedule->start[2] == 3);
    CHECK(verify(problem, *atTwo.schedule).ok());
  }
  const Result search = searchModulo(problem);
  CHECK(search.status == ModelStatus::kOptimal);
  CHECK(*search.objective == 2);
}

TEST_CASE("modulo MILP: min L matches brute force on tiny random loop graphs", "[exact][modulo]") {
  // For each graph and II in [MII, MII + 2], brute force finds the smallest L whose schedule
  // verifies modulo II; both formulations and the option ablations must agree with it.
  int compared = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const auto instance = smallRandomGraph(100 + seed, 4 + static_cast<std::int32_t>(seed % 2), 2);
    const Problem problem = problemOf(instance, ProblemKind::kModulo);
    const std::int64_t mii = std::max(computeResMii(instance.graph, instance.machine).value,
                                      computeRecMii(instance.graph).value);
    for (std::int64_t ii = mii; ii <= mii + 2; ++ii) {
      const auto reference = test::bruteForceMinLatency(problem, static_cast<std::int32_t>(ii), 30);
      std::vector<ModuloMilpOptions> variants(6);
      variants[0].formulation = ModuloFormulation::kStageResidue;
      variants[1].formulation = ModuloFormulation::kTimeIndexed;
      variants[2].useWindows = false;
      variants[2].call.useStart = false;
      variants[2].breakSymmetry = false;
      variants[2].formulation = ModuloFormulation::kStageResidue;
      variants[3].breakSymmetry = false;
      // No start: the windows come from the lossless bound on L alone, which must not cut off
      // the optimum; with and without the residue links.
      variants[4].call.useStart = false;
      variants[4].formulation = ModuloFormulation::kStageResidue;
      variants[5] = variants[4];
      variants[5].linkResidues = false;
      for (const auto& variant : variants) {
        const auto attempt = solveModuloAtIi(problem, static_cast<std::int32_t>(ii), variant);
        INFO("seed " << seed << " II " << ii << " " << attempt.formulation << " "
                     << attempt.detail);
        if (!reference) {
          CHECK(attempt.status == ModelStatus::kInfeasible);
          continue;
        }
        REQUIRE(attempt.status == ModelStatus::kOptimal);
        CHECK(*attempt.latency == *reference);
        CHECK(verify(problem, *attempt.schedule).ok());
        ++compared;
      }
    }
  }
  CHECK(compared >= 100);
}

TEST_CASE("modulo MILP: a recurrence fixing two clashing residues makes MII infeasible",
          "[exact][modulo]") {
  // a and b hold the one unit U for a cycle each; a -> b (delay 2) and b -> a (delay 0,
  // distance 1) fix t(b) - t(a) = 2 at II = 2 (ResMII = RecMII = 2), the same residue: no
  // schedule. At II = 3 the difference is 2 or 3 and a:0, b:2 fits (L = 3). No heuristic finds
  // a start at II = 2, so the MILP must prove it from the windows of the lossless bound on L.
  Machine machine;
  const ResourceId unit = machine.addResource("U", 1);
  GraphBuilder builder("fixed_offset");
  const OpId a = builder.addOp("a", 1);
  builder.addReservation(a, {unit, 0, 1, 1});
  const OpId b = builder.addOp("b", 1);
  builder.addReservation(b, {unit, 0, 1, 1});
  builder.addEdge(a, b, 2, 0);
  builder.addEdge(b, a, 0, 1);
  const auto instance = test::makeInstance(std::move(builder), machine);
  const Problem problem = instance.problem(ProblemKind::kModulo);
  for (bool links : {true, false}) {
    ModuloMilpOptions options;
    options.formulation = ModuloFormulation::kStageResidue;
    options.linkResidues = links;
    options.attemptSeconds = test::timeLimit(30.0);
    INFO("residue links " << links);
    CHECK(solveModuloAtIi(problem, 2, options).status == ModelStatus::kInfeasible);
  }
  const Result search = searchModulo(problem);
  REQUIRE(search.status == ModelStatus::kOptimal);
  CHECK(*search.objective == 3);
  CHECK(*search.bounds.lowerBound == 3);  // II = 2 proven infeasible
  CHECK(verify(problem, *search.schedule).ok());
}

TEST_CASE("modulo search: from MII and from 1 give the same II", "[exact][modulo]") {
  // Values below MII are infeasible (ResMII and RecMII are lower bounds), so skipping them must
  // not change the answer.
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const auto instance = smallRandomGraph(200 + seed, 6, 2);
    const Problem problem = problemOf(instance, ProblemKind::kModulo);
    ModuloSearchOptions fromMii;
    ModuloSearchOptions fromOne;
    fromOne.startFromOne = true;
    const Result a = searchModulo(problem, fromMii);
    const Result b = searchModulo(problem, fromOne);
    INFO("seed " << seed);
    REQUIRE(a.status == ModelStatus::kOptimal);
    REQUIRE(b.status == ModelStatus::kOptimal);
    CHECK(*a.objective == *b.objective);
    CHECK(*a.schedule->ii >= *a.bounds.lowerBound);
  }
}
