// Which kind of problem a request or a schedule poses when nothing names one, in one rule, and
// the checked problem a schedule read back answers. The method's side (inferProblemKind,
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
// assigned by a schedule, a horizon.
struct KindEvidence {
  bool loop = false;
  bool warps = false;
  bool horizon = false;
};

// The kinds that fit, most preferred first. Warps assigned: modulo-warp; a loop: modulo, then
// modulo-warp; a horizon: latency-bounded; else latency. The stage problem is never inferred.
std::vector<ProblemKind> preferredKinds(const KindEvidence& evidence);

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
