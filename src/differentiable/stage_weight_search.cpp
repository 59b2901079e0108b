// Formulation A (GAUS.md "Formulations"), also the stage problem's: peak stage weight plus
// alpha x communication, minimized at the given horizon by the shared attempt
// (at_horizon_search.hpp). Its own parts:
// - start: beside list scheduling, GS-Schedule's greedy balanced cut (a stage schedule wherever
//   the edges' delays are 0 and the ops' durations 1; elsewhere it may not verify and is left
//   out);
// - scale and bound: the peak stage weight's lower bound (peakStageWeightLowerBound);
// - refinement: moves and swaps between stages (heuristic::refineStages);
// - figures: the peak stage weight and the communication; the stage problem's result is on
//   GS-Schedule's scale, ratio x peak + communication with bound ratio x LB
//   (reportStageObjective).
#include <gaus/core/stage_objective.hpp>
#include <gaus/differentiable/gaus_figures.hpp>
#include <gaus/heuristic/balanced_stages.hpp>
#include <gaus/heuristic/stage_refinement.hpp>

#include "at_horizon_search.hpp"
#include "search_support.hpp"

namespace gaus::differentiable {

namespace {

double stageObjectiveOf(const RunSetup& setup, const Schedule& schedule) {
  return stageObjective(setup.graph, schedule, setup.options.alpha);
}

class StageWeightObjective final : public HorizonObjective {
 public:
  std::string_view name() const override { return toString(ProblemObjective::kStageCost); }

  void addStarts(const RunSetup& setup, Cycle horizon,
                 std::vector<std::pair<Schedule, std::string>>& starts) const override {
    if (setup.givenSchedule != nullptr) return;
    if (auto cut = heuristic::greedyBalancedStages(setup.graph, horizon);
        cut && verified(setup.problem, *cut)) {
      starts.emplace_back(std::move(cut).value(), "greedy balanced cut");
    }
  }

  double scaleAndBound(const RunSetup& setup, Cycle horizon, const std::vector<Cycle>&,
                       const RunMachinery&, HorizonStarts&, Result& result) const override {
    const double bound = peakStageWeightLowerBound(setup.graph, horizon);
    if (setup.problem.kind != ProblemKind::kStages) result.bounds.lowerBound = bound;
    return bound > 0 ? bound : 1.0;
  }

  // Peak + alpha x communication, i.e. the stage refinement's ratio x peak + communication with
  // ratio = 1 / alpha (cut by `stop`, it returns what it reached).
  std::optional<Candidate> refine(const RunSetup& setup, const Schedule& legal, Cycle horizon,
                                  const StopRequest& stop) const override {
    heuristic::StageRefinementOptions refinement;
    refinement.ratio = setup.options.alpha > 0.0 ? 1.0 / setup.options.alpha : 1.0e12;
    refinement.stop = stop;
    return scoredCandidate(
        setup, setup.problem,
        heuristic::refineStages(setup.graph, horizon, legal, refinement).schedule);
  }

  void reportBest(const RunSetup& setup, const Candidate& best, Result& result) const override {
    if (setup.problem.kind == ProblemKind::kStages) {
      reportStageObjective(setup.problem, best.schedule, result);
      return;
    }
    const StageFigures stage = stageFigures(setup.graph, best.schedule);
    result.figures.set(figures::kPeakStageWeight, stage.peakStageWeight);
    result.figures.set(figures::kCommunication, stage.communication);
  }
};

Result searchStageWeight(const RunSetup& setup, RunMachinery& machinery) {
  const StageWeightObjective objective;
  return optimizeAtHorizon(setup, machinery, objective);
}

}  // namespace

const FormulationPart& stageWeightPart() {
  static const FormulationPart part{
      .objective = stageObjectiveOf, .boundedHorizon = true, .search = searchStageWeight};
  return part;
}

}  // namespace gaus::differentiable
