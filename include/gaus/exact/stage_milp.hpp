// GS-Schedule's stage assignment (ProblemKind::kStages; Liu et al., ICML 2024, and formulation
// A of GauS) as a MILP on the project's one MILP builder: D stages, an op's start is its stage,
// s_u <= s_v on every distance-0 edge, minimize stageRatio x peak stage weight + the stage
// boundaries crossed by comm edges, weighted by comm (core/stage_objective.hpp). For small
// graphs: src/exact/stage_milp.cpp says what the model is and why it has that form.
#pragma once

#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/milp/milp_call.hpp>

namespace gaus::exact {

struct StageMilpOptions {
  // The call (milp/milp_call.hpp): its deadline covers the start schedule and the model building
  // (none: no limit); its start (`gaus schedule --init`, ilp's init=...), when it verifies for
  // the problem and its objective is lower than the refined cut's, is the start, otherwise it is
  // ignored with a note in Result::notes.
  milp::MilpCall call;
  // Share of the time left for refining the greedy balanced cut into the MIP start (the
  // refinement ends sooner at a local optimum: about 0.05 s at 1,000 ops).
  double refinementShare = 0.1;
};

// Minimizes problem.stageRatio x peak stage weight + communication over the stage schedules of
// `problem` (kind kStages, horizon D). The start is the greedy balanced cut refined by the stage
// refinement (heuristic/balanced_stages.hpp, stage_refinement.hpp), or the initial schedule when
// better; the result is never worse than it. Status kOptimal when proven (by the solver, or by
// the start meeting the bound), kTimeout when the limit stopped the solver (with the best
// schedule found). Bounds::lowerBound is the larger of the solver's bound and stageRatio x
// peakStageWeightLowerBound.
// The objective, its figures and the bound are on GS-Schedule's scale (reportStageObjective);
// the figures also hold the model's variables and rows.
Result solveStageMilp(const Problem& problem, const StageMilpOptions& options = {});

}  // namespace gaus::exact
