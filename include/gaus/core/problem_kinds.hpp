// Which kind of problem a request or a schedule poses when nothing names one, and what a
// problem minimizes when nobody names its objective, each in one rule; and the checked problem
// a schedule read back answers. The method's side (inferProblemKind,
// methods/registry.hpp) and the schedule's side (kindOfSchedule: `gaus verify`, `gaus render`,
// Python's verify() and render(), code generation, the report's pictures) both read
// preferredKinds.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/instance.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus {

// What decides the kind: a loop (loop-carried edges, a fixed II, a schedule with an II), warps
// assigned by a schedule, a horizon, the objective named (kMethodDefault: none).
struct KindEvidence {
  bool loop = false;
  bool warps = false;
  bool horizon = false;
  ProblemObjective objective = ProblemObjective::kMethodDefault;
};

// The kinds that fit, most preferred first. Warps assigned: modulo-warp; a loop, or the
// objective ii: modulo, then modulo-warp; a horizon, or an objective that only a problem with a
// horizon has (peak_memory, stage_cost): latency-bounded; else latency. The stage problem is
// never inferred.
std::vector<ProblemKind> preferredKinds(const KindEvidence& evidence);

// Whether a `kind` problem needs a horizon D (latency-bounded: every op completes by D; stages:
// D stages).
bool needsHorizon(ProblemKind kind);

// The objectives a `kind` problem may be asked to minimize, most preferred first: the one rule
// of the default objective, which every method follows (resolveObjective takes the first that
// the method minimizes). Latency: latency; modulo and modulo-warp: ii; stages: stage_cost;
// latency-bounded: peak_memory where some op has live memory (`liveMemory`), else stage_cost,
// then the other.
std::vector<ProblemObjective> preferredObjectives(ProblemKind kind, bool liveMemory);

// What `problem` asks to minimize: its objective, or, when nobody resolved it (kMethodDefault: a
// problem built by hand), the first of preferredObjectives for its kind.
ProblemObjective askedObjective(const Problem& problem);

// The kind of problem a schedule answers when nothing names one: the first of preferredKinds
// for what it carries (warps, an II) and whether a horizon is given.
ProblemKind kindOfSchedule(const Schedule& schedule, bool hasHorizon);

// What a schedule read back is checked against beyond the instance: a kind that overrides the
// one the schedule carries (--stages; a results record's kind), the horizon D, a fixed II.
struct AnsweredProblemRequest {
  std::optional<ProblemKind> kind;
  std::optional<Cycle> horizon;
  std::optional<std::int32_t> ii;
};

// The checked problem that `schedule` answers on `instance`; or the first input error
// (Problem::check), which the caller prefixes with its file.
Expected<Problem> answeredProblem(const Instance& instance, const Schedule& schedule,
                                  const AnsweredProblemRequest& request = {});

}  // namespace gaus
