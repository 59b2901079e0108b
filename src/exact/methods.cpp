// The exact engine's methods in the registry ("ilp", "twill") and their option tables.

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/problem_facts.hpp>
#include <gaus/exact/exact_figures.hpp>
#include <gaus/exact/latency_milp.hpp>
#include <gaus/exact/methods.hpp>
#include <gaus/exact/modulo_milp.hpp>
#include <gaus/exact/peak_memory_milp.hpp>
#include <gaus/exact/stage_milp.hpp>
#include <gaus/methods/run_method.hpp>
#include <gaus/milp/solver_availability.hpp>

namespace gaus::exact {

namespace {

// The modulo MILP's settings, which "ilp" and "twill" share; `milp` reaches them inside the
// method's options. Twill declares its own symmetry option (it also orders warps).
template <class Options>
void addModuloMilpOptions(OptionTable<Options>& table, ModuloMilpOptions& (*milp)(Options&),
                          bool withSymmetry) {
  table
      .add(
          "milp_time_limit", [milp](Options& o) -> double& { return milp(o).attemptSeconds; },
          "seconds per modulo MILP (one per II; latency problems: the one MILP), heuristics "
          "and model building included",
          NumericRange::above(0))
      .add(
          "solver", [milp](Options& o) -> milp::MilpSolver& { return milp(o).call.solver; },
          milp::kMilpSolverNames,
          "MILP solver of every MILP the method builds (cost normalization included): highs or "
          "cbc (docs/benchmarks.md, \"HiGHS against CBC\", measures both)")
      .add(
          "milp_model", [milp](Options& o) -> ModuloFormulation& { return milp(o).formulation; },
          kModuloFormulationNames,
          "modulo MILP: stage-residue, time-indexed, or auto (time-indexed when the windows "
          "are small)")
      .add(
          "windows", [milp](Options& o) -> bool& { return milp(o).useWindows; },
          "bound each op's start by ASAP/ALAP at the current II")
      .add(
          "residue_links", [milp](Options& o) -> bool& { return milp(o).linkResidues; },
          "link the residues of ops whose start difference a recurrence confines "
          "(stage-residue)")
      .add(
          "start", [milp](Options& o) -> bool& { return milp(o).call.useStart; },
          "start the MILP solver from a heuristic schedule (also bounds L)")
      .add(
          "start_heuristic",
          [milp](Options& o) -> StartHeuristic& { return milp(o).startHeuristic; },
          kStartHeuristicNames, "where the start comes from: greedy, ims, or best (both)")
      .add(
          "max_nonzeros", [milp](Options& o) -> std::int64_t& { return milp(o).call.maxNonzeros; },
          "refuse a MILP above this many nonzeros (memory: about 470 bytes each at the root)",
          NumericRange::atLeast(1))
      .add(
          "memory_limit",
          [milp](Options& o) -> std::int64_t& { return milp(o).call.memoryLimitBytes; },
          "bytes: refuse a MILP whose estimated memory (470 bytes per nonzero) exceeds this; "
          "default 90 % of physical memory",
          NumericRange::atLeast(1))
      .defaultFrom(std::string(kDefaultMemoryLimitRule));
  if (withSymmetry) {
    table.add(
        "symmetry", [milp](Options& o) -> bool& { return milp(o).breakSymmetry; },
        "order interchangeable ops");
  }
}

template <class Options>
void addNormalizationOptions(OptionTable<Options>& table,
                             NormalizationOptions& (*normalization)(Options&)) {
  table
      .add(
          "normalize",
          [normalization](Options& o) -> NormalizationMode& { return normalization(o).mode; },
          kNormalizationModeNames,
          "cost normalization (Twill section 5.2): on, off, or auto = on when the largest cost "
          "exceeds normalize_threshold cycles")
      .add(
          "normalize_sum",
          [normalization](Options& o) -> std::int64_t& { return normalization(o).sumBound; },
          "bound U on the sum of the normalized costs", NumericRange::atLeast(1))
      .add(
          "normalize_threshold",
          [normalization](Options& o) -> std::int64_t& {
            return normalization(o).largeCostThreshold;
          },
          "auto normalizes when the largest cost exceeds this", NumericRange::atLeast(0))
      .add(
          "normalize_nodes",
          [normalization](Options& o) -> std::int64_t& { return normalization(o).nodeLimit; },
          "branch-and-bound nodes per normalization MILP (0: none): a work limit, so that the "
          "mapping does not "
          "depend on the machine's load",
          NumericRange::atLeast(0));
}

OptionTable<IlpOptions> makeIlpTable() {
  OptionTable<IlpOptions> table("ilp");
  table
      .add("time_limit", &IlpOptions::timeLimitSeconds,
           "seconds for the whole call; none: only milp_time_limit per MILP",
           NumericRange::above(0))
      .add("init", &IlpOptions::initMethod, kInitMethodNames,
           "run this method first and start from its schedule (as --init); none: no such run")
      .add("init_share", &IlpOptions::initShare,
           "share of the call's time (time_limit, else milp_time_limit) the init method gets",
           NumericRange::aboveUpTo(0, 1))
      .add("latency_bound", &IlpOptions::latencyBound,
           "latency problems: upper bound on L; none: the list schedule's",
           NumericRange::atLeast(0))
      .add("refute_share", &IlpOptions::refutationShare,
           "latency problems: share of the time for refuting L below the start, one L at a time, "
           "on a SAT model with interval energy rows before the MILP (the MILP gets the rest); "
           "0: the MILP alone",
           NumericRange::between(0, 1))
      .add(
          "max_ii", [](IlpOptions& o) -> std::optional<std::int32_t>& { return o.search.maxIi; },
          "modulo problems: largest II tried; none: the non-overlapped II",
          NumericRange::atLeast(1))
      .addCustom(
          {"search_from", "choice", {"mii", "1"}, "", {}, "modulo problems: first II tried", {}},
          [](IlpOptions& o, std::string_view text) -> std::optional<std::string> {
            if (text != "mii" && text != "1")
              return "expects mii or 1, got '" + std::string(text) + "'";
            o.search.startFromOne = text == "1";
            return std::nullopt;
          },
          [](const IlpOptions& o) -> std::string { return o.search.startFromOne ? "1" : "mii"; });
  addModuloMilpOptions<IlpOptions>(
      table, [](IlpOptions& o) -> ModuloMilpOptions& { return o.search.milp; }, true);
  addNormalizationOptions<IlpOptions>(
      table, [](IlpOptions& o) -> NormalizationOptions& { return o.search.normalization; });
  return table;
}

// The families to switch off, as "a,b" (empty: none).
std::optional<std::string> parseDisabledFamilies(TwillOptions& options, std::string_view text) {
  TwillFamilySet families;
  std::stringstream names{std::string(text)};
  std::string name;
  while (std::getline(names, name, ',')) {
    if (name.empty()) continue;
    const auto family = kTwillFamilyNames.parse(name);
    if (!family) {
      return fmt::format("names unknown family '{}' (known: {})", name,
                         option_text::listChoices(kTwillFamilyNames.names()));
    }
    families = families.without(*family);
  }
  options.smt.families = families;
  return std::nullopt;
}

std::string formatDisabledFamilies(const TwillOptions& options) {
  std::string text;
  for (TwillFamily family : kAllTwillFamilies) {
    if (options.smt.families.has(family)) continue;
    text += (text.empty() ? "" : ",") + std::string(toString(family));
  }
  return text;
}

// The option table's access to field `inner` of the group `outer` of TwillOptions.
template <auto outer, auto inner>
auto twillField() {
  return [](TwillOptions & options) -> auto& {
    return (options.*outer).*inner;
  };
}

OptionTable<TwillOptions> makeTwillTable() {
  using O = TwillOptions;
  using Search = TwillSearchOptions;
  using Minimize = TwillMinimizeOptions;
  using Explain = TwillExplainOptions;
  const auto positive = NumericRange::above(0);
  OptionTable<O> table("twill");
  table
      .add("time_limit", twillField<&O::search, &Search::timeLimitSeconds>(),
           "seconds for the whole search; none: no limit", positive)
      .add("smt_time_limit", twillField<&O::smt, &TwillSmtOptions::timeLimitSeconds>(),
           "seconds per SMT check (one per II and L)", positive)
      .add("max_ii", twillField<&O::search, &Search::maxIi>(),
           "largest II tried, raw cycles; none: the non-overlapped II", NumericRange::atLeast(1))
      .add("warps", twillField<&O::search, &Search::warps>(),
           "warps (warp groups) available; none: the machine's",
           NumericRange::between(1, kMaxWarps))
      .add("extra_stages", twillField<&O::search, &Search::extraStages>(),
           "stages beyond the MILP's tried at one II (0: the paper's Algorithm 1)",
           NumericRange::atLeast(0))
      .add("latency_search", twillField<&O::search, &Search::latencySearch>(), kLatencySearchNames,
           "order of the L tried at one II on its SMT model: ascending (Algorithm 1) or bisect "
           "(the bound, the stage limit, then bisection)")
      .add("minimize_warps", twillField<&O::minimize, &Minimize::warps>(),
           "after SAT, minimize the warps used")
      .add("minimize_cross_edges", twillField<&O::minimize, &Minimize::crossWarpEdges>(),
           "then minimize the cross-warp edges")
      .add("minimize_time_limit", twillField<&O::minimize, &Minimize::timeLimitSeconds>(),
           "seconds per minimization step", positive)
      .add("explain", twillField<&O::explain, &Explain::enabled>(),
           "explain what binds II and why ops were split across warps")
      .add("explain_time_limit", twillField<&O::explain, &Explain::timeLimitSeconds>(),
           "seconds per explanation query", positive)
      .addCustom({"disable",
                  "list",
                  kTwillFamilyNames.names(),
                  "",
                  {},
                  "constraint families to switch off, comma-separated (ablations)",
                  {}},
                 parseDisabledFamilies, formatDisabledFamilies)
      .add("symmetry", twillField<&O::smt, &TwillSmtOptions::breakSymmetry>(),
           "break symmetries between interchangeable ops and warps")
      .add("warp_issue", twillField<&O::smt, &TwillSmtOptions::warpIssue>(),
           "one instruction stream per warp, beyond the paper: each warp executes at most the "
           "machine's warp_issue_width ops per cycle mod II, an op for its reservation's "
           "cycles (1 where the machine names none; family warp-issue, checked by the "
           "verifier)");
  addModuloMilpOptions<O>(
      table, [](O& o) -> ModuloMilpOptions& { return o.milp; }, false);
  addNormalizationOptions<O>(table, [](O& o) -> NormalizationOptions& { return o.normalization; });
  return table;
}

// The start an init=gaus|list|ims run found, and the attempt that records it.
struct InitRun {
  std::optional<Schedule> schedule;
  Attempt attempt;
};

// Runs options.initMethod on `problem` through the registry that runs ilp, with its share of
// the time. Only a verified schedule comes back (the registry verifies it); a failed or empty
// run leaves the MILPs to start as they would without it, and says why in the attempt.
InitRun runInitMethod(const Problem& problem, const IlpOptions& options, const RunContext& context,
                      double budgetSeconds) {
  const std::string name(toString(options.initMethod));
  InitRun run;
  run.attempt.phase = "init " + name;
  if (context.registry == nullptr) {
    run.attempt.call = CallStatus::kError;
    run.attempt.detail = "no registry to run it from (ilp was called outside MethodRegistry::run)";
    return run;
  }
  RunContext initContext = context;
  initContext.progress = [&context, &name](std::string_view line) {
    context.report(fmt::format("init {}: {}", name, line));
  };
  // Its share of the time as the setting time_limit: the init method's own limit where it
  // declares one (list does not).
  Result result = runMethod(*context.registry, problem, {name, {}, {{"time_limit", budgetSeconds}}},
                            initContext);
  run.attempt.call = result.call;
  run.attempt.status = result.status;
  run.attempt.seconds = result.stats.seconds;
  run.attempt.bound = result.bounds.lowerBound;
  if (result.failed()) {
    run.attempt.detail = result.message;
  } else if (result.schedule && result.objective) {
    run.attempt.detail = fmt::format("{} {}", result.objectiveName, *result.objective);
    run.schedule = std::move(result.schedule);
  } else {
    run.attempt.detail = "no schedule";
  }
  return run;
}

Result solveIlp(const Problem& problem, const IlpOptions& options, const RunContext& context) {
  if (const auto missing = milp::solverUnavailable(options.search.milp.call.solver)) {
    return errorResult(*missing);
  }
  const double callSeconds = options.timeLimitSeconds.value_or(options.search.milp.attemptSeconds);
  std::optional<InitRun> init;
  RunContext milpContext = context;
  std::string initialOrigin = "--init";
  if (options.initMethod != InitMethod::kNone) {
    if (context.initialSchedule != nullptr) {
      init = InitRun{};
      init->attempt.phase = fmt::format("init {}", toString(options.initMethod));
      init->attempt.detail = "not run: a start schedule was given (--init)";
    } else {
      init = runInitMethod(problem, options, context, callSeconds * options.initShare);
      if (init->schedule) milpContext.initialSchedule = &*init->schedule;
      initialOrigin = fmt::format("init={}", toString(options.initMethod));
    }
  }
  const double initSeconds = init ? init->attempt.seconds : 0.0;
  // Never below a small positive limit: a MILP given no time still reports its start.
  const auto remaining = [initSeconds](double seconds) {
    return std::max(seconds - initSeconds, 0.01);
  };

  // The one call block every MILP of this call takes (its solver, limits and start flag are the
  // options'): the start, its origin, the cancel flag and the time. A one-MILP kind (latency,
  // peak memory, stages) gets milp_time_limit within time_limit; the search over II time_limit,
  // each II's MILP milp_time_limit within it.
  milp::MilpCall call = options.search.milp.call;
  call.initialSchedule = milpContext.initialSchedule;
  call.initialScheduleOrigin = initialOrigin;
  call.cancel = context.cancel;
  const bool oneMilp = problem.kind != ProblemKind::kModulo;
  if (oneMilp) {
    call.deadline = Deadline(remaining(std::min(options.search.milp.attemptSeconds, callSeconds)));
  } else if (options.timeLimitSeconds) {
    call.deadline = Deadline(remaining(*options.timeLimitSeconds));
  }
  Result result;
  if (problem.kind == ProblemKind::kLatencyBounded) {
    // Latency-bounded problems: peak memory is ilp's one objective there (the registry refuses
    // any other).
    result = solvePeakMemoryMilp(problem, {call});
  } else if (problem.kind == ProblemKind::kLatency) {
    LatencyMilpOptions latency;
    latency.call = call;
    latency.latencyBound = options.latencyBound;
    latency.refutationShare = options.refutationShare;
    latency.breakSymmetry = options.search.milp.breakSymmetry;
    latency.normalization = options.search.normalization;
    result = solveLatencyMilp(problem, latency);
  } else if (problem.kind == ProblemKind::kStages) {
    StageMilpOptions stages;
    stages.call = call;
    result = solveStageMilp(problem, stages);
  } else {
    ModuloSearchOptions search = options.search;
    search.milp.call = call;
    search.progress = context.progress;
    result = searchModulo(problem, search);
  }
  if (init) result.attempts.insert(result.attempts.begin(), init->attempt);
  return result;
}

Result solveTwillMethod(const Problem& problem, const TwillOptions& options,
                        const RunContext& context) {
  if (const auto missing = milp::solverUnavailable(options.milp.call.solver)) {
    return errorResult(*missing);
  }
  TwillOptions twill = options;
  twill.milp.breakSymmetry = twill.smt.breakSymmetry;
  twill.milp.call.cancel = context.cancel;
  twill.progress = context.progress;
  twill.start.schedule = context.initialSchedule;
  twill.strategy = context.warpStrategy;
  Result result = solveTwill(problem, twill).result;
  const auto facts = problem.facts();
  if (!result.bounds.lowerBound) result.bounds.lowerBound = static_cast<double>(facts->mii().value);
  if (result.figures.get(figures::kTimeUnit) && result.bounds.mii) {
    // Solved in normalized units: the MII in cycles, with its reason (the normalized MII is its
    // figure).
    result.bounds.mii = facts->mii();
  }
  if (result.failed() && result.message.empty()) result.message = "twill failed";
  return result;
}

}  // namespace

const OptionTable<IlpOptions>& ilpOptionTable() {
  static const OptionTable<IlpOptions> table = makeIlpTable();
  return table;
}

const OptionTable<TwillOptions>& twillOptionTable() {
  static const OptionTable<TwillOptions> table = makeTwillTable();
  return table;
}

}  // namespace gaus::exact

namespace gaus {

void registerExactMethods(MethodRegistry& registry) {
  using K = ProblemKind;
  using O = ProblemObjective;
  registry.add(minimizing(
      makeMethod<exact::IlpOptions>(
          "ilp",
          "exact MILP on HiGHS or CBC: latency minimization (time-indexed), peak live memory under "
          "a horizon (latency-bounded, time-indexed), modulo scheduling (min II, then min L at "
          "that II) or stage assignment (GS-Schedule's objective)",
          {K::kLatency, K::kLatencyBounded, K::kModulo, K::kStages}, exact::ilpOptionTable(),
          exact::exactFigureTable(), exact::solveIlp),
      {{K::kLatency, O::kLatency},
       {K::kLatencyBounded, O::kPeakMemory},
       {K::kModulo, O::kIi},
       {K::kStages, O::kStageCost}}));
  MethodInfo twill = minimizing(
      makeMethod<exact::TwillOptions>("twill",
                                      "joint software pipelining and warp specialization (Twill, "
                                      "OSDI'26): modulo MILP (HiGHS or CBC) + Z3 SMT per (II, L)",
                                      {K::kModuloWarp}, exact::twillOptionTable(),
                                      exact::exactFigureTable(), exact::solveTwillMethod),
      {{K::kModuloWarp, O::kIi}});
  // `warps` and `warp_issue` describe the machine: the input check and the verifier see them.
  describeMachineWith<exact::TwillOptions>(twill, exact::describeTwillMachine);
  registry.add(std::move(twill));
}

}  // namespace gaus
