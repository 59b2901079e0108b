// The guards of the exact engine: time limits that hold whatever CBC is doing, the size guard
// that refuses a model before it is built, and the progress lines of the searches. The large
// instance is Triton's FA dump in raw cycles (shared/benchmarks/triton-ddg/case3_FA), where a
// 1 s limit used to run for over a minute in CBC's root LP (docs/exact.md, "Time limits and
// model size").
#include <atomic>
#include <chrono>
#include <thread>

#include <catch2/catch.hpp>

#include <gaus/core/verify.hpp>
#include <gaus/exact/latency_milp.hpp>
#include <gaus/exact/methods.hpp>
#include <gaus/exact/modulo_milp.hpp>
#include <gaus/exact/twill.hpp>
#include <gaus/heuristic/iterative_modulo_scheduler.hpp>
#include <gaus/methods/registry.hpp>

#include "kernel_files.hpp"
#include "test_support.hpp"
#include "toy_graphs.hpp"
#include "twill/smt_model.hpp"

using namespace gaus;
using namespace gaus::exact;

namespace {

Instance readTriton(const std::string& file) {
  return test::loadInstance(test::sharedPath("benchmarks/triton-ddg/" + file));
}

// How long a solve with a 1 s limit may take: the limit, the grace before the solving process is
// stopped (0.5 x max(1 s, 10 % of the limit) = 0.5 s, include/gaus/milp/milp_model.hpp) and 1 s to
// tear the model down on a loaded machine. Every other exact test goes through the same child
// process and checks its answers, so this file checks only the stop.
constexpr double kOneSecondLimitReturnsWithin = 1.0 + 0.5 + 1.0;

// The cross-method check's seed 861 (tests/data/crosscheck): 31 ops, a fixed II of 14.
Problem seed861(const Instance& instance) {
  Problem problem = instance.problem(ProblemKind::kModulo);
  problem.ii = 14;
  return problem;
}

Instance readSeed861() {
  return test::loadInstance(test::dataPath("crosscheck/modulo-error-ilp-seed861.json"));
}

// tests/data/twill/fa_blackwell_galloping.yaml (46 ops, 32 warps): II 18 is the modulo MILP's
// smallest, the joint model's is larger (S's TMEM tile needs a second buffer), so the search
// gallops L at II 18 on ever larger models (the file says why and how long they took).
Problem gallopingLoop() {
  return test::loadInstance(test::dataPath("twill/fa_blackwell_galloping.yaml"))
      .problem(ProblemKind::kModuloWarp);
}

// Two ops a -> b (delay 1) on a machine of `warps` warps and a register limit of `limit`; a's
// value holds 2 registers. At II 2 and L 5, a's value can be live at the cycles [0, 4) (b starts
// by L - 1 = 4), two of each residue, so a's register row at each warp and residue has 2 terms.
Problem twoOpsWithRegisters(int warps, std::int32_t limit) {
  Machine machine;
  machine.name = "registers";
  machine.warps = warps;
  machine.registerLimit = limit;
  GraphBuilder builder("two_ops_with_registers");
  const OpId a = builder.addOp("a", 1);
  const OpId b = builder.addOp("b", 1);
  builder.setRegs(a, 2);
  builder.addEdge(a, b, 1, 0);
  return test::makeInstance(std::move(builder), machine).problem(ProblemKind::kModuloWarp);
}

}  // namespace

TEST_CASE("ilp: a fixed II's MILP ends within the call's time_limit", "[exact][guards]") {
  // The fixed-II path handed CBC milp_time_limit (60 s) whatever time_limit said: with 0.2 s the
  // call ran 8.7 s (the cross-method check's seed 861). With 0.5 s the solve is stopped at the
  // limit plus the grace (0.5 s); no heuristic start exists at II 14 and CBC finds
  // nothing that soon, so the answer is a timeout without a schedule, well inside the issue's
  // target of limit + max(1 s, 10 %).
  const Instance instance = readSeed861();
  MethodRegistry registry;
  registerExactMethods(registry);
  const Result result =
      registry.run("ilp", seed861(instance), {{"time_limit", test::timeLimitText(0.5)}});
  INFO(result.message);
  CHECK_FALSE(result.failed());
  CHECK(result.status == ModelStatus::kTimeout);
  CHECK(result.stats.seconds <= 0.5 + 1.0);
}

TEST_CASE("ilp: a modulo search stopped without a schedule returns iterative modulo scheduling's",
          "[exact][guards][shared]") {
  // MachSuite aes2 loop 4 (225 ops, MII 20): the MILP at II 20 does not settle within 0.5 s, so
  // the search ends on its limit with nothing of its own. Iterative modulo scheduling, run here
  // with its defaults, places the loop at II 32 in about 0.03 s; the search returns that schedule,
  // status timeout (II not proven minimal), within the target of limit + max(1 s, 10 %).
  const auto path = test::sharedPath("benchmarks/hatschet-machsuite/aes2/graph4.graphml");
  const Instance instance = test::loadInstance(path);
  const Problem problem = instance.problem(ProblemKind::kModulo);
  const Result ims = heuristic::iterativeModuloSchedule(problem);
  REQUIRE(ims.schedule);
  MethodRegistry registry;
  registerExactMethods(registry);
  const Result result = registry.run("ilp", problem, {{"time_limit", test::timeLimitText(0.5)}});
  INFO(result.message);
  CHECK(result.status == ModelStatus::kTimeout);
  REQUIRE(result.schedule);
  CHECK(result.verified());
  CHECK(result.schedule->ii == ims.schedule->ii);
  CHECK_FALSE(result.bounds.iiProvenOptimal);
  CHECK_THAT(result.message, Catch::Contains("iterative modulo scheduling's II="));
  CHECK(result.stats.seconds <= 0.5 + 1.0);
}

TEST_CASE("modulo MILP: a CBC crash is solved again without presolve", "[exact][guards][.slow]") {
  // Seed 861 at II 14 in the stage/residue form: Clp aborts (ClpNonLinearCost.cpp:1064) after
  // about 8 s of CBC's search; the retry with presolve off proves L = 29, the value the
  // time-indexed form proves on the same model without a crash. The abort is CBC's (Clp's), so
  // the test runs on CBC; HiGHS, the default, proves L = 29 without one (checked last).
  const Instance instance = readSeed861();
  ModuloMilpOptions options;
  options.attemptSeconds = test::timeLimit(120.0);
  options.formulation = ModuloFormulation::kStageResidue;
  options.call.solver = milp::MilpSolver::kCbc;
  const ModuloAttempt crashed = solveModuloAtIi(seed861(instance), 14, options);
  INFO(crashed.detail);
  CHECK(crashed.status == ModelStatus::kOptimal);
  CHECK(crashed.latency == 29);
  CHECK_THAT(crashed.detail, Catch::Contains("solved again with presolve off"));

  options.formulation = ModuloFormulation::kTimeIndexed;
  const ModuloAttempt reference = solveModuloAtIi(seed861(instance), 14, options);
  CHECK(reference.status == ModelStatus::kOptimal);
  CHECK(reference.latency == 29);

  options.formulation = ModuloFormulation::kStageResidue;
  options.call.solver = milp::MilpSolver::kHighs;
  const ModuloAttempt onHighs = solveModuloAtIi(seed861(instance), 14, options);
  CHECK(onHighs.status == ModelStatus::kOptimal);
  CHECK(onHighs.latency == 29);
}

TEST_CASE("modulo MILP: a 1 s limit holds on Triton FA at II 1325 in raw cycles",
          "[exact][guards][shared]") {
  // 31 ops, II = 1325 (the MII): the stage/residue model has 41107 variables and 6.8 M nonzeros,
  // under the default max_nonzeros (8 M); CBC's root LP alone takes over a minute. The solve is
  // stopped at the limit plus the grace (1 + 0.5 s), nothing is found (no heuristic reaches a
  // schedule at II 1325), and the status says so.
  const Instance fa = readTriton("case3_FA.ddg.json");
  ModuloMilpOptions options;
  options.attemptSeconds = test::timeLimit(1.0);
  const ModuloAttempt attempt = solveModuloAtIi(fa.problem(ProblemKind::kModulo), 1325, options);
  INFO(attempt.detail);
  CHECK(attempt.status == ModelStatus::kTimeout);
  CHECK_FALSE(attempt.schedule);
  CHECK(attempt.seconds < kOneSecondLimitReturnsWithin);
}

TEST_CASE("modulo MILP: a model above max_nonzeros is refused before it is built",
          "[exact][guards][shared]") {
  // The same model with max_nonzeros = 1 M: refused with its size, the limit and what to change.
  // Variables by hand: a residue binary per op and residue (31 x 1325), a stage per op (31) and
  // L: 41107.
  const Instance fa = readTriton("case3_FA.ddg.json");
  ModuloMilpOptions options;
  options.call.maxNonzeros = 1'000'000;
  const ModuloAttempt attempt = solveModuloAtIi(fa.problem(ProblemKind::kModulo), 1325, options);
  CHECK(attempt.call == CallStatus::kError);
  CHECK(attempt.variables == 31 * 1325 + 31 + 1);
  CHECK_THAT(attempt.detail, Catch::Contains("41107 variables") &&
                                 Catch::Contains("above max_nonzeros=1000000") &&
                                 Catch::Contains("normalize=on"));
  CHECK(attempt.seconds < 1.0);

  // The search stops at the refusal instead of trying every larger II (larger models still).
  MethodRegistry registry;
  registerExactMethods(registry);
  const Result search = registry.run("ilp", fa.problem(ProblemKind::kModulo),
                                     {{"normalize", "off"}, {"max_nonzeros", "1000000"}});
  CHECK(search.failed());
  CHECK_THAT(search.message, Catch::Contains("II=1325"));
}

TEST_CASE("memory_limit: a MILP estimated above it is refused before it is built, a failed call",
          "[exact][guards]") {
  // Toy FA at II 2: a few dozen nonzeros, about 470 bytes each (src/milp/milp_model.cpp), so a
  // 1-byte limit refuses it and the default (90 % of physical memory) does not. A refusal is a
  // failed call (CallStatus error), as the max_nonzeros guard's: it says nothing about the problem
  // (not infeasible) and no solver ran out of time (not a timeout), and the message says what to
  // change.
  const Instance toy = test::toyFlashAttention();
  const Problem problem = toy.problem(ProblemKind::kModulo);
  ModuloMilpOptions options;
  options.call.memoryLimitBytes = 1;
  const ModuloAttempt refused = solveModuloAtIi(problem, 2, options);
  CHECK(refused.call == CallStatus::kError);
  CHECK_THAT(refused.detail, Catch::Contains("the modulo MILP at II=2") &&
                                 Catch::Contains("above memory_limit=1 (1 bytes)") &&
                                 Catch::Contains("raise --memory-limit"));
  CHECK(solveModuloAtIi(problem, 2, ModuloMilpOptions{}).status == ModelStatus::kOptimal);

  // Through the registry the setting memory_limit reaches ilp, for modulo and latency problems.
  MethodRegistry registry;
  registerExactMethods(registry);
  for (ProblemKind kind : {ProblemKind::kModulo, ProblemKind::kLatency}) {
    const MethodInfo& ilp = *registry.find("ilp");
    const AppliedSettings applied = applySettings(ilp, {}, {{"memory_limit", std::int64_t{1}}});
    const auto parsed = ilp.parseOptions(applied.options, applied.settings);
    REQUIRE(parsed.ok());
    const Result result = registry.runParsed(ilp, toy.problem(kind), *parsed);
    CHECK(result.failed());
    CHECK_THAT(result.message, Catch::Contains("above memory_limit=1"));
  }
}

TEST_CASE("twill's SMT model: its size estimated before it is built bounds the model built",
          "[exact][guards]") {
  // The estimate counts build()'s literals family by family; the model built is counted from
  // Z3's assertions (the leaves of each). Where the dependences fit in L every family is built,
  // and the estimate exceeds the count only by the clauses build() folds away (a literal that
  // is constant at the edge of an op's window): within 15 % here, 1 % on Triton's dumps in raw
  // cycles (docs/exact.md, "The SMT model's size"). The 32-warp stand-in has warp groups, whose
  // warps share one literal. FA4's warps with one instruction stream each add the warp-issue
  // rows.
  struct Case {
    std::string kernel;
    std::int32_t ii;
    Cycle latency;
    std::optional<std::int32_t> issueWidth;
  };
  for (const Case& c :
       {Case{"fa_fwd_blackwell_subtiled", 18, 35, {}},
        Case{"fa_fwd_blackwell_subtiled", 18, 70, {}}, Case{"fa_fwd_hopper", 8, 40, {}},
        Case{"fa_fwd_blackwell_subtiled_32w", 18, 35, {}},
        Case{"fa_fwd_blackwell_fa4", 16, 32, 1}}) {
    const Instance instance = test::loadKernel(c.kernel);
    Problem problem = instance.problem(ProblemKind::kModuloWarp);
    auto machine = std::make_shared<Machine>(*problem.machine);
    machine->warpIssueWidth = c.issueWidth;
    problem.machine = std::move(machine);
    const detail::SmtModelSize estimate =
        detail::estimateSmtModelSize(problem, c.ii, c.latency, {});
    const auto model =
        detail::TwillSmtModel::buildWithin(problem, c.ii, c.latency, {}, Deadline(std::nullopt));
    REQUIRE(model);
    const std::int64_t built = (*model)->literalCount();
    INFO(c.kernel << " at II " << c.ii << ", L " << c.latency << ": estimated " << estimate.literals
                  << ", built " << built);
    CHECK(estimate.literals >= built);
    CHECK(static_cast<double>(estimate.literals) <= 1.15 * static_cast<double>(built));
  }
}

TEST_CASE("twill's SMT model: the squared register row terms, counted by hand", "[exact][guards]") {
  // twoOpsWithRegisters: one register row per warp and residue with 2 terms each, so 2 warps x
  // 2 residues x 2^2 = 16. With a limit of 4, a's 2 registers x 2 stages fit whatever the
  // schedule does, so build() adds no register row and the count is 0. Z3's load of a model
  // grows with this sum (SmtModelSize::cost, docs/exact.md "Time limits and model size").
  CHECK(detail::estimateSmtModelSize(twoOpsWithRegisters(2, 1), 2, 5, {}).registerRowTermsSquared ==
        16);
  CHECK(detail::estimateSmtModelSize(twoOpsWithRegisters(2, 4), 2, 5, {}).registerRowTermsSquared ==
        0);
}

TEST_CASE("twill's SMT model: a model that cannot be built and loaded in the time left is not",
          "[exact][guards]") {
  // The galloping loop at II 18, L 612: 2.9 M literals and 685 M squared register row terms,
  // whose load alone took 103 s and 108 s on the development machine (load 6-8, a check with a
  // timeout of 1 ms; gaus-bench twill-model-cost). The estimate holds at least that (2.5 us per
  // literal and 0.2 us per squared term: 144 s), so with 2 s left the model is refused at once,
  // before anything is built, and a one-shot check with a 2 s limit answers timeout saying why.
  const Problem problem = gallopingLoop();
  const detail::SmtModelSize size = detail::estimateSmtModelSize(problem, 18, 612, {});
  CHECK(size.cost().load >= 108.0);
  const Deadline twoSeconds(2.0);
  const auto refused = detail::TwillSmtModel::buildWithin(problem, 18, 612, {}, twoSeconds, size);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error(), Catch::Contains("would take about") &&
                                  Catch::Contains("load into Z3 at its first check") &&
                                  Catch::Contains("s are left"));
  CHECK(twoSeconds.elapsedSeconds() < 0.5);

  detail::SmtQuery query;
  query.timeLimitSeconds = test::timeLimit(2.0);
  const detail::SmtAnswer answer = detail::checkOnce(problem, 18, 612, {}, query);
  CHECK(answer.status == ModelStatus::kTimeout);
  REQUIRE(answer.notBuilt);
  CHECK_THAT(*answer.notBuilt, Catch::Contains("would take about"));
  CHECK(answer.seconds < 0.5);
}

TEST_CASE(
    "twill: with 2 s, the galloping loop's first SMT model is refused, it would not load in "
    "time",
    "[exact][guards]") {
  // The galloping loop with the MILPs capped at 0.3 s: II 17 has no modulo schedule, II 18's
  // MILP bounds L from below by 33-35, so II 18's model is built at the stage limit L 36: 258,436
  // literals and 2.6 M squared register row terms, estimated at 0.8 s to build, 1.2 s to load
  // and 0.2 s to tear down, 2.1 s in all, more than a 2 s limit leaves after the MILPs. So it
  // is refused before it is built, the search ends there as a timeout (a larger II needs no
  // smaller a model), and the log and the message say why.
  TwillOptions options;
  options.search.timeLimitSeconds = test::timeLimit(2.0);
  options.milp.attemptSeconds = test::timeLimit(0.3);
  const TwillSolution solution = solveTwill(gallopingLoop(), options);
  INFO(solution.result.message);
  CHECK(solution.result.status == ModelStatus::kTimeout);
  CHECK_THAT(solution.result.message, Catch::StartsWith("total time limit 2s reached") &&
                                          Catch::Contains("would take about"));
  REQUIRE_FALSE(solution.result.attempts.empty());
  const Attempt& last = solution.result.attempts.back();
  CHECK(last.phase == "smt");
  CHECK(last.ii == 18);
  CHECK(last.status == ModelStatus::kTimeout);
  CHECK_THAT(last.detail, Catch::StartsWith("model not built: the SMT model at II=18") &&
                              Catch::Contains("load into Z3 at its first check") &&
                              Catch::Contains("raise time_limit"));
  CHECK(solution.result.stats.seconds <= 3.0);
}

TEST_CASE("twill: a 3 s time_limit holds on a loop that gallops L", "[exact][guards]") {
  // The same with 3 s: II 18's model at the stage limit (2.1 s estimated) now fits, its checks
  // are quick, and the gallop's next model (L 54, 3.1 s estimated) does not fit what is left,
  // nor does II 19's first model after it; or, on a loaded machine, the deadline passes in a
  // check, which stops on its timeout. Either way the call is a timeout within 3 s + max(1 s,
  // 10 %), and its last attempt a timeout (a refused model or a check stopped). Before the
  // refusal, the checks at L 324 and 612 ran 23 s and 103 s in Z3's load (the file).
  TwillOptions options;
  options.search.timeLimitSeconds = test::timeLimit(3.0);
  options.milp.attemptSeconds = test::timeLimit(0.3);
  const Deadline call(std::nullopt);
  const TwillSolution solution = solveTwill(gallopingLoop(), options);
  const double seconds = call.elapsedSeconds();
  INFO(solution.result.message);
  std::string log;
  for (const auto& attempt : solution.result.attempts) log += attempt.describe() + "\n";
  INFO(log);
  CHECK(seconds <= 4.0);
  CHECK(solution.result.status == ModelStatus::kTimeout);
  REQUIRE_FALSE(solution.result.attempts.empty());
  CHECK(solution.result.attempts.back().status == ModelStatus::kTimeout);
}

TEST_CASE("memory_limit: twill refuses an SMT model estimated above it, with its size",
          "[exact][guards]") {
  // Toy FA: its MILPs take a few kB and its SMT model over the 32 MB of a Z3 context
  // (kSmtContextBytes, twill/smt_size.cpp), so a 16 MB limit lets the MILP run and refuses the SMT
  // model at the first II, a failed call as the MILP's refusal is. The default limit solves it.
  const Instance toy = test::toyFlashAttention();
  MethodRegistry registry;
  registerExactMethods(registry);
  const Problem problem = toy.problem(ProblemKind::kModuloWarp);
  const Result refused = registry.run("twill", problem, {{"memory_limit", "16000000"}});
  INFO(refused.message);
  CHECK(refused.failed());
  CHECK_THAT(refused.message, Catch::Contains("the SMT model at II=") &&
                                  Catch::Contains("above memory_limit=16000000") &&
                                  Catch::Contains("raise --memory-limit"));
  const Result solved = registry.run("twill", problem, {});
  CHECK(solved.status == ModelStatus::kOptimal);
}

TEST_CASE("latency MILP: a 1 s limit holds on Triton FA in raw cycles, list schedule returned",
          "[exact][guards][shared]") {
  // L in [3437, 3521], 16479 binaries: CBC proves L minimal in about 50 s, so at 1 s it is
  // stopped; the list schedule (CBC's start) is the answer, verified, with status timeout. At
  // this limit CBC 2.10 itself misbehaves, depending on how far it got: it claims the model
  // infeasible as its limit stops the preprocessing, or crashes handling the start at 2-3 s
  // (the whole program crashed before the solve moved to a child). Both must read as timeout.
  const Instance fa = readTriton("case3_FA.ddg.json");
  const Problem problem = fa.problem(ProblemKind::kLatency);
  LatencyMilpOptions options;
  options.call.deadline = Deadline(test::timeLimit(1.0));
  options.normalization.mode = NormalizationMode::kOff;
  const auto begin = std::chrono::steady_clock::now();
  const Result result = solveLatencyMilp(problem, options);
  const double seconds = secondsSince(begin);
  INFO(result.message);
  CHECK(result.status == ModelStatus::kTimeout);
  REQUIRE(result.schedule);
  CHECK(verify(problem, *result.schedule).ok());
  CHECK(seconds < kOneSecondLimitReturnsWithin);
}

TEST_CASE("progress: one line per attempt from the modulo search and from twill",
          "[exact][guards]") {
  // Toy FA (TWILL.md): the search from II = 1 makes two attempts (II = 1 infeasible, II = 2
  // optimal), so two lines; twill logs each (II, L) attempt and reports each as it ends.
  const Instance toy = test::loadInstance(test::sourcePath("configs/kernels/toy_fa.yaml"));
  std::vector<std::string> lines;
  ModuloSearchOptions search;
  search.startFromOne = true;
  search.progress = [&](std::string_view line) { lines.emplace_back(line); };
  const Result modulo = searchModulo(toy.problem(ProblemKind::kModulo), search);
  REQUIRE(modulo.status == ModelStatus::kOptimal);
  REQUIRE(lines.size() == 2);
  CHECK_THAT(lines[0], Catch::StartsWith("ilp: II=1 milp infeasible"));
  CHECK_THAT(lines[1], Catch::StartsWith("ilp: II=2 L=4 milp optimal"));

  lines.clear();
  TwillOptions twill;
  twill.progress = [&](std::string_view line) { lines.emplace_back(line); };
  const TwillSolution solution = solveTwill(toy.problem(ProblemKind::kModuloWarp), twill);
  REQUIRE(solution.result.status == ModelStatus::kOptimal);
  REQUIRE(lines.size() == solution.result.attempts.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    CHECK(lines[i] == "twill: " + solution.result.attempts[i].describe());
  }
}

TEST_CASE("ilp: a cancel request from another thread ends the latency MILP at once",
          "[exact][guards][shared]") {
  // HeuriGym jpeg_idct with the MILP alone (refute_share=0): neither solver proves it within
  // 30 s (docs/benchmarks.md, "HiGHS against CBC"), so with a 60 s limit only the cancel flag,
  // set 0.5 s in, can end the call early. RunContext::cancel reaches the MILP (MilpModel::
  // setCancel): the call returns a timeout with the list start, verified, within a second or
  // two of the request, on each solver.
  const Instance instance = test::loadInstance(
      test::sharedPath("benchmarks/heurigym-operator-scheduling/medium/jpeg_idct.json"));
  const Problem problem = instance.problem(ProblemKind::kLatency);
  MethodRegistry registry;
  registerExactMethods(registry);
  for (const char* solver : {"highs", "cbc"}) {
    INFO(solver);
    std::atomic<bool> cancel{false};
    RunContext context;
    context.cancel = &cancel;
    std::thread canceller([&cancel] {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      cancel.store(true);
    });
    const auto begin = std::chrono::steady_clock::now();
    const Result result = registry.run(
        "ilp", problem,
        {{"time_limit", test::timeLimitText(60.0)}, {"refute_share", "0"}, {"solver", solver}},
        context);
    const double seconds = secondsSince(begin);
    canceller.join();
    INFO(result.message);
    CHECK_FALSE(result.failed());
    CHECK(result.status == ModelStatus::kTimeout);
    REQUIRE(result.schedule);
    CHECK(verify(problem, *result.schedule).ok());
    CHECK(seconds < 2.5);
  }
}
