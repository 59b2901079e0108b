// The comparisons of the cross-method check (crosscheck.hpp).

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/stage_objective.hpp>
#include <gaus/crosscheck/crosscheck.hpp>
#include <gaus/methods/run_method.hpp>

namespace gaus::crosscheck {

namespace {

// Objectives are whole cycles or sums of integral weights here; the tolerance only absorbs the
// rounding of values that went through floating point (GauS's objectives, bounds as doubles).
constexpr double kTolerance = 1e-6;

bool below(double value, double limit) {
  return value < limit - kTolerance * std::max(1.0, std::abs(limit));
}

std::string number(double value) {
  return fmt::format("{:.10g}", value);
}

// The value of `objective` for a run's verified schedule, recomputed: latency, ii and
// peak_memory as the verifier computes them, and on a stage problem stage_cost as core's
// stage objective does (GS-Schedule's scale, the one every stage method reports); nothing for a
// run without a verified schedule or another objective.
std::optional<double> verifiedValue(const Problem& problem, const Result& result,
                                    std::string_view objective) {
  if (!result.schedule || !result.verified()) return std::nullopt;
  const ScheduleMetrics& metrics = result.verification->metrics;
  if (objective == "latency") return static_cast<double>(metrics.latency);
  if (objective == "peak_memory") return metrics.peakLiveMemory;
  if (objective == "ii" && result.schedule->ii) return static_cast<double>(*result.schedule->ii);
  if (objective == "stage_cost" && problem.kind == ProblemKind::kStages) {
    return gsScheduleObjective(stageFigures(*problem.graph, *result.schedule), problem.stageRatio);
  }
  return std::nullopt;
}

// The value of `objective` for a run: recomputed from its schedule where possible, else the
// run's own figure when it reports that objective.
std::optional<double> valueOf(const Problem& problem, const Result& result,
                              std::string_view objective) {
  if (auto value = verifiedValue(problem, result, objective)) return value;
  if (result.verified() && result.objectiveName == objective && result.objective) {
    return result.objective;
  }
  return std::nullopt;
}

// What a run asserts as proven: `objective` cannot go below `value` (at the run's II when
// `atIi` is set: a modulo schedule's latency is minimal among schedules of that II).
struct OptimalClaim {
  std::string objective;
  double value = 0;
  std::optional<std::int32_t> atIi;
  std::string source;  // "status optimal", "II proven optimal", ...
};

std::vector<OptimalClaim> optimalClaims(const Problem& problem, const Result& result) {
  std::vector<OptimalClaim> claims;
  if (result.failed()) return claims;
  const std::optional<std::int32_t> ii =
      result.schedule ? result.schedule->ii : std::optional<std::int32_t>();
  if (result.status == ModelStatus::kOptimal && result.objective && !result.objectiveName.empty()) {
    const bool latencyAtIi = result.objectiveName == "latency" && ii;
    claims.push_back({result.objectiveName, *result.objective,
                      latencyAtIi ? ii : std::optional<std::int32_t>(), "status optimal"});
  }
  if (result.bounds.iiProvenOptimal && ii) {
    claims.push_back({"ii", static_cast<double>(*ii), std::nullopt, "II proven optimal"});
  }
  if (result.bounds.latencyProvenOptimal) {
    if (const auto latency = verifiedValue(problem, result, "latency")) {
      claims.push_back({"latency", *latency, ii, "latency proven optimal"});
    }
  }
  return claims;
}

class Comparison {
 public:
  Comparison(const CrossCheckCase& crossCheckCase, const CheckOptions& options,
             CaseOutcome& outcome)
      : case_(crossCheckCase), options_(options), outcome_(outcome) {}

  void compareRuns() {
    for (const MethodRun& run : outcome_.runs) checkOwnAnswer(run);
    for (const MethodRun& claimant : outcome_.runs) {
      for (const MethodRun& witness : outcome_.runs) compare(claimant, witness);
    }
  }

  void compareWithExhaustive() {
    const Graph& graph = *case_.problem.graph;
    if (graph.numOps() > options_.exhaustiveMaxOps) return;
    switch (case_.problem.kind) {
      case ProblemKind::kLatency:
      case ProblemKind::kLatencyBounded:
      case ProblemKind::kStages:
        exhaustAcyclic();
        break;
      case ProblemKind::kModulo:
        exhaustModulo();
        break;
      case ProblemKind::kModuloWarp:
        exhaustWarps();
        break;
    }
  }

 private:
  void report(std::string check, const std::string& method, std::string witness,
              std::string message, std::optional<Schedule> witnessSchedule = std::nullopt) {
    outcome_.disagreements.push_back({std::move(check), method, std::move(witness),
                                      std::move(message), std::move(witnessSchedule)});
  }

  // A run on its own: a failed call (a schedule that fails verification included) and a
  // reported objective that is not its schedule's.
  void checkOwnAnswer(const MethodRun& run) {
    const Result& result = run.result;
    if (result.failed()) {
      const bool unverified = result.schedule && result.verification && !result.verification->ok();
      report(unverified ? "verification" : "error", run.method, "",
             fmt::format("{} failed on a well-formed {} problem: {}", run.method,
                         toString(case_.problem.kind), result.message));
      return;
    }
    if (!result.objective) return;
    const auto recomputed = verifiedValue(case_.problem, result, result.objectiveName);
    if (!recomputed) return;
    ++outcome_.claimsCompared;
    if (below(*recomputed, *result.objective) || below(*result.objective, *recomputed)) {
      report("objective", run.method, "verifier",
             fmt::format("{} reports {} {} but its schedule has {} {}", run.method,
                         result.objectiveName, number(*result.objective), result.objectiveName,
                         number(*recomputed)));
    }
  }

  // The claims of `claimant` against the schedule of `witness` (the same run included).
  void compare(const MethodRun& claimant, const MethodRun& witness) {
    const Result& claim = claimant.result;
    const Result& answer = witness.result;
    if (claim.failed() || !answer.schedule || !answer.verified()) return;
    if (claim.status == ModelStatus::kInfeasible) {
      ++outcome_.claimsCompared;
      report("infeasible", claimant.method, witness.method,
             fmt::format("{} says infeasible ({}) but {} returned a verified schedule",
                         claimant.method, claim.message, witness.method),
             answer.schedule);
    }
    for (const OptimalClaim& optimal : optimalClaims(case_.problem, claim)) {
      if (optimal.atIi && answer.schedule->ii != optimal.atIi) continue;
      const auto value = valueOf(case_.problem, answer, optimal.objective);
      if (!value) continue;
      ++outcome_.claimsCompared;
      if (below(*value, optimal.value)) {
        report("optimal", claimant.method, witness.method,
               fmt::format("{} claims {} ({}) {} {}{}, but {}'s verified schedule has {}",
                           claimant.method, optimal.objective, optimal.source, optimal.objective,
                           number(optimal.value),
                           optimal.atIi ? fmt::format(" at II={}", *optimal.atIi) : "",
                           witness.method, number(*value)),
               answer.schedule);
      }
    }
    if (claim.bounds.lowerBound && !claim.objectiveName.empty()) {
      const auto value = valueOf(case_.problem, answer, claim.objectiveName);
      if (!value) return;
      ++outcome_.claimsCompared;
      if (below(*value, *claim.bounds.lowerBound)) {
        report("bound", claimant.method, witness.method,
               fmt::format("{}'s lower bound {} on {} exceeds {}'s verified {}", claimant.method,
                           number(*claim.bounds.lowerBound), claim.objectiveName, witness.method,
                           number(*value)),
               answer.schedule);
      }
    }
  }

  // The exhaustive optimum of `objective` against every claim on it, every bound and every
  // verified value (of the whole problem: not `atIi`).
  void compareOptimum(std::string_view objective, double optimum, const Schedule& witness,
                      std::optional<std::int32_t> atIi) {
    for (const MethodRun& run : outcome_.runs) {
      const Result& result = run.result;
      if (result.failed()) continue;
      if (!atIi) compareValue(run, objective, optimum);
      for (const OptimalClaim& claim : optimalClaims(case_.problem, result)) {
        if (claim.objective != objective || claim.atIi != atIi) continue;
        ++outcome_.claimsCompared;
        if (below(claim.value, optimum) || below(optimum, claim.value)) {
          report("exhaustive", run.method, "exhaustive",
                 fmt::format("{} claims {} ({}) {}{}, exhaustive enumeration finds {}", run.method,
                             objective, claim.source, number(claim.value),
                             atIi ? fmt::format(" at II={}", *atIi) : "", number(optimum)),
                 witness);
        }
      }
      if (result.bounds.lowerBound && result.objectiveName == objective && !atIi) {
        ++outcome_.claimsCompared;
        if (below(optimum, *result.bounds.lowerBound)) {
          report(
              "exhaustive", run.method, "exhaustive",
              fmt::format("{}'s lower bound {} on {} exceeds the exhaustive optimum {}", run.method,
                          number(*result.bounds.lowerBound), objective, number(optimum)),
              witness);
        }
      }
    }
  }

  // A verified schedule below the optimum of a complete enumeration: the reference missed a
  // legal schedule (or the verifier judged it wrongly), which is worth as much attention as a
  // method's wrong claim.
  void compareValue(const MethodRun& run, std::string_view objective, double optimum) {
    const auto value = verifiedValue(case_.problem, run.result, objective);
    if (!value) return;
    ++outcome_.claimsCompared;
    if (below(*value, optimum)) {
      report("exhaustive", "exhaustive", run.method,
             fmt::format("exhaustive enumeration finds {} {} at best, but {}'s verified schedule "
                         "has {}",
                         objective, number(optimum), run.method, number(*value)),
             run.result.schedule);
    }
  }

  // A schedule the enumeration found against every infeasibility claim.
  void compareFeasible(const Schedule& witness) {
    for (const MethodRun& run : outcome_.runs) {
      if (run.result.failed() || run.result.status != ModelStatus::kInfeasible) continue;
      ++outcome_.claimsCompared;
      report("exhaustive", run.method, "exhaustive",
             fmt::format("{} says infeasible ({}) but enumeration finds a verified schedule",
                         run.method, run.result.message),
             witness);
    }
  }

  // A complete enumeration that found nothing, against every verified schedule: the reference
  // itself is wrong then (or the verifier), which is worth as much attention.
  void compareInfeasible(std::string_view scope) {
    for (const MethodRun& run : outcome_.runs) {
      if (!run.result.schedule || !run.result.verified()) continue;
      report("exhaustive", "exhaustive", run.method,
             fmt::format("exhaustive enumeration finds no schedule {}, but {} returned a verified "
                         "one",
                         scope, run.method),
             run.result.schedule);
    }
  }

  std::optional<double> bestVerified(std::string_view objective) const {
    std::optional<double> best;
    for (const MethodRun& run : outcome_.runs) {
      if (const auto value = verifiedValue(case_.problem, run.result, objective)) {
        best = std::min(best.value_or(*value), *value);
      }
    }
    return best;
  }

  // Latency: branch and bound below the best verified latency. Latency-bounded (B) and stage
  // (A) problems: every legal schedule within the horizon, for the smallest peak memory and
  // stage objective; each method is held to the optimum of the objective it reports (the
  // registry's methods on these kinds report latency, peak_memory or stage_cost).
  void exhaustAcyclic() {
    const Problem& problem = case_.problem;
    const bool bounded =
        problem.kind == ProblemKind::kLatencyBounded || problem.kind == ProblemKind::kStages;
    Cycle cap = 0;
    if (bounded) {
      cap = *problem.horizon;
    } else if (const auto best = bestVerified("latency")) {
      cap = static_cast<Cycle>(*best);
    } else {
      return;
    }
    if (cap > options_.exhaustiveMaxLatency) return;
    outcome_.exhaustiveRan = true;
    const AcyclicOptimum optimum = searchAcyclic(problem, cap, bounded, options_.budget);
    outcome_.exhaustiveComplete = optimum.complete;
    if (optimum.best) compareFeasible(*optimum.best);
    if (!optimum.complete) return;
    if (!optimum.best) {
      compareInfeasible(fmt::format("done by {}", cap));
      return;
    }
    compareOptimum("latency", static_cast<double>(*optimum.minLatency), *optimum.best,
                   std::nullopt);
    if (optimum.minPeakMemory) {
      compareOptimum("peak_memory", optimum.minPeakMemory->value, optimum.minPeakMemory->witness,
                     std::nullopt);
    }
    if (optimum.minStageObjective) {
      compareOptimum("stage_cost", optimum.minStageObjective->value,
                     optimum.minStageObjective->witness, std::nullopt);
    }
  }

  void exhaustModulo() {
    const Problem& problem = case_.problem;
    std::int32_t limit = options_.exhaustiveMaxIi;
    if (!problem.ii) {
      if (const auto best = bestVerified("ii")) {
        limit = std::min(limit, static_cast<std::int32_t>(*best));
      }
    } else if (*problem.ii > options_.exhaustiveMaxIi) {
      return;
    }
    outcome_.exhaustiveRan = true;
    const ModuloOptimum optimum = searchModulo(problem, limit, options_.budget);
    outcome_.exhaustiveComplete = optimum.complete;
    if (optimum.best) compareFeasible(*optimum.best);
    if (!optimum.complete) return;
    if (!optimum.best) {
      // Without a fixed II, "none up to the limit" says nothing when the limit is below the
      // methods' II; with every II searched, it contradicts any schedule.
      if (problem.ii) compareInfeasible(fmt::format("at II={}", *problem.ii));
      return;
    }
    if (!problem.ii) {
      compareOptimum("ii", *optimum.minIi, *optimum.best, std::nullopt);
    } else {
      compareOptimum("latency", static_cast<double>(*optimum.minLatency), *optimum.best,
                     std::nullopt);
    }
    compareOptimum("latency", static_cast<double>(*optimum.minLatency), *optimum.best,
                   optimum.minIi);
  }

  // Warps: a counterexample search below every proven-minimal II, within one stage beyond the
  // claimant's latency, and below the non-overlapped bound against infeasibility claims.
  void exhaustWarps() {
    const Problem& problem = case_.problem;
    for (const MethodRun& run : outcome_.runs) {
      const Result& result = run.result;
      if (result.failed()) continue;
      const bool infeasible = result.status == ModelStatus::kInfeasible;
      const bool iiProven = result.bounds.iiProvenOptimal && result.schedule &&
                            result.schedule->ii && result.verified();
      if (!infeasible && !iiProven) continue;
      Cycle totalDuration = 0;
      for (OpId op = 0; op < problem.graph->numOps(); ++op) {
        totalDuration += problem.graph->duration(op);
      }
      const std::int32_t iiBelow =
          iiProven ? *result.schedule->ii
                   : static_cast<std::int32_t>(
                         std::min<Cycle>(options_.exhaustiveMaxIi, totalDuration) + 1);
      const Cycle cap = iiProven
                            ? result.verification->metrics.latency + iiBelow
                            : std::min<Cycle>(options_.exhaustiveMaxLatency, 2 * totalDuration);
      outcome_.exhaustiveRan = true;
      const WarpScheduleSearch search = searchModuloWarp(problem, iiBelow, cap, options_.budget);
      outcome_.exhaustiveComplete = search.complete;
      ++outcome_.claimsCompared;
      if (!search.found) continue;
      report("exhaustive", run.method, "exhaustive",
             infeasible
                 ? fmt::format("{} says infeasible ({}) but enumeration finds a verified schedule "
                               "at II={}",
                               run.method, result.message, *search.found->ii)
                 : fmt::format("{} claims II {} is minimal, but enumeration finds a verified "
                               "schedule at II={} (latency cap {})",
                               run.method, iiBelow, *search.found->ii, cap),
             search.found);
    }
  }

  const CrossCheckCase& case_;
  const CheckOptions& options_;
  CaseOutcome& outcome_;
};

}  // namespace

Settings checkSettings(const CheckOptions& options) {
  return {{"time_limit", options.timeLimitSeconds},
          {"seed", static_cast<std::int64_t>(options.methodSeed)}};
}

CaseOutcome checkCase(const CrossCheckCase& crossCheckCase, const CheckOptions& options,
                      const MethodRegistry& registry) {
  CaseOutcome outcome;
  const Settings settings = checkSettings(options);
  for (const std::string& name : registry.names()) {
    const MethodInfo* method = registry.find(name);
    if (method == nullptr || !method->solves(crossCheckCase.problem.kind)) continue;
    MethodRun run{name, settings,
                  runMethod(registry, crossCheckCase.problem, {name, {}, settings})};
    outcome.runs.push_back(std::move(run));
  }
  Comparison comparison(crossCheckCase, options, outcome);
  comparison.compareRuns();
  comparison.compareWithExhaustive();
  return outcome;
}

}  // namespace gaus::crosscheck
