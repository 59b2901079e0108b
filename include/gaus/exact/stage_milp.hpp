// GS-Schedule's stage assignment (ProblemKind::kStages; Liu et al., ICML 2024, and formulation
// A of GauS) as a MILP on the project's one MILP builder: D stages, an op's start is its stage,
// s_u <= s_v on every distance-0 edge, minimize stageRatio x peak stage weight + the stage
// boundaries crossed by comm edges, weighted by comm (core/stage_objective.hpp). For small
// graphs: src/exact/stage_milp.cpp says what the model is and why it has that form.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include <gaus/core/memory_limit.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/exact/model_limits.hpp>
#include <gaus/milp/milp_model.hpp>

namespace gaus::exact {

struct StageMilpOptions {
  // Wall clock in seconds for the call, the start schedule and model building included; <= 0:
  // none.
  double timeLimitSeconds = 60.0;
  // Share of the time limit for refining the greedy balanced cut into the MIP start (the
  // refinement ends sooner at a local optimum: about 0.05 s at 1,000 ops).
  double refinementShare = 0.1;
  // Refuse (status kError, saying what to change) a model above this many nonzeros or whose
  // estimated memory exceeds memoryLimitBytes (core/memory_limit.hpp).
  std::int64_t maxNonzeros = kDefaultMaxNonzeros;
  std::int64_t memoryLimitBytes = defaultMemoryLimitBytes();
  // Hand CBC the start schedule as its first incumbent.
  bool useStart = true;
  // A start to improve on (`gaus schedule --init`, or ilp's init=...; not owned). When it
  // verifies for the problem and its objective is lower than the refined cut's, it is the start;
  // otherwise it is ignored with a note in Result::notes.
  const Schedule* initialSchedule = nullptr;
  std::string initialScheduleOrigin = "--init";        // where it came from, for the notes
  milp::MilpSolver solver = milp::kDefaultMilpSolver;  // `-O solver`
  // Set from another thread to stop promptly (RunContext::cancel; not owned, may be null).
  const std::atomic<bool>* cancel = nullptr;
};

// Minimizes problem.stageRatio x peak stage weight + communication over the stage schedules of
// `problem` (kind kStages, horizon D). The start is the greedy balanced cut refined by the stage
// refinement (heuristic/balanced_stages.hpp, stage_refinement.hpp), or the initial schedule when
// better; the result is never worse than it. Status kOptimal when proven (by CBC, or by the
// start meeting the bound), kTimeout when the limit stopped CBC (with the best schedule found).
// Bounds::lowerBound is the larger of CBC's bound and stageRatio x peakStageWeightLowerBound.
// The objective, its figures and the bound are on GS-Schedule's scale (reportStageObjective);
// the figures also hold the model's variables and rows.
Result solveStageMilp(const Problem& problem, const StageMilpOptions& options = {});

}  // namespace gaus::exact
