// The cross-method check (docs/benchmarks.md, "Cross-method check"): every
// method of the registry that solves a case's problem kind runs on it, and their answers are
// held against each other and, on small cases, against exhaustive enumeration:
// - every returned schedule verifies, and a method's reported objective is its schedule's;
// - no `optimal` answer (or proven-optimal II or latency) is worse than another verified
//   schedule on the same objective;
// - no `infeasible` answer stands beside a verified schedule;
// - every lower bound is at most every verified schedule's value of its objective;
// - on cases of at most 8 ops with a small horizon, proven answers equal the exhaustive ones,
//   no lower bound exceeds the exhaustive optimum and no verified value is below it; on
//   latency-bounded (B) and stage (A) problems the optimum is taken of each objective a method
//   may report (latency, peak_memory, stage_cost), and each method is held to its own.
// Objectives are matched by name: latency, ii and peak_memory are recomputed by the verifier
// from any method's schedule, so a claim on them is compared with every schedule, and so is a
// stage problem's stage_cost (core/stage_objective.hpp's, which every stage method
// reports). The registry is iterated: a new method, or a new problem kind a method solves, is
// covered without touching this file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gaus/crosscheck/crosscheck_cases.hpp>
#include <gaus/crosscheck/exhaustive_search.hpp>
#include <gaus/methods/registry.hpp>

namespace gaus::crosscheck {

struct CheckOptions {
  double timeLimitSeconds = 1.0;  // per method run: the setting time_limit
  std::uint64_t methodSeed = 1;   // the setting seed
  // Exhaustive references on cases up to this many ops, within these limits.
  std::int32_t exhaustiveMaxOps = 8;
  Cycle exhaustiveMaxLatency = 32;    // horizon or latency cap of an acyclic search
  std::int32_t exhaustiveMaxIi = 12;  // largest II a modulo search tries
  SearchBudget budget;
};

struct MethodRun {
  std::string method;
  Settings settings;  // the settings the run was given (time_limit, seed)
  Result result;
};

// One contradiction between two answers: `method`'s claim (or schedule) is at fault, `witness`
// (another method, or "exhaustive") holds the answer that contradicts it.
struct Disagreement {
  std::string check;  // error, verification, objective, optimal, infeasible, bound, exhaustive
  std::string method;
  std::string witness;
  std::string message;  // one line with the numbers
  std::optional<Schedule> witnessSchedule;
};

struct CaseOutcome {
  std::vector<MethodRun> runs;
  std::vector<Disagreement> disagreements;
  std::int64_t claimsCompared = 0;  // claim-against-answer comparisons made
  bool exhaustiveRan = false;
  bool exhaustiveComplete = false;
};

// The registry's settings for every run of the check.
Settings checkSettings(const CheckOptions& options);

// Runs every method of `registry` that solves the case's kind and compares the answers.
CaseOutcome checkCase(const CrossCheckCase& crossCheckCase, const CheckOptions& options,
                      const MethodRegistry& registry);

}  // namespace gaus::crosscheck
