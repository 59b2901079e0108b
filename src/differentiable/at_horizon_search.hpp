// The attempt that formulations A and B share (GAUS.md "Formulations"): one attempt at the
// problem's horizon D, minimizing the objective, every legalized schedule refined. The attempt
// is the same for both; what differs is the objective's part (HorizonObjective): its own starts,
// its scale and bound, its refinement (and incumbent), and its figures. A formulation minimized
// at a fixed horizon adds a HorizonObjective, and this loop stays as it is.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gaus/core/result.hpp>
#include <gaus/core/schedule.hpp>

#include "gaus_run.hpp"

namespace gaus::differentiable {

// Where the attempt starts: the schedules it knows before optimizing.
struct HorizonStarts {
  // List scheduling's (or the given) schedule, legal or not: it gives the memory scale and,
  // for init=list, the means (squeezed into the horizon).
  std::optional<Schedule> start;
  std::optional<Candidate> best;  // the best legal start, the attempt's first "best"
  std::string bestName;           // what it came from
  // The legal starts with what each came from: where refinement applies, each start's
  // refinement is the attempt's first work for the worker.
  std::vector<std::pair<Schedule, std::string>> legal;
};

// What one objective minimized at a fixed horizon brings to the shared attempt.
class HorizonObjective {
 public:
  virtual ~HorizonObjective() = default;
  // The objective's name in the result (its objectiveName).
  virtual std::string_view name() const = 0;
  // Legal starts of its own, beside list scheduling's and the given schedule.
  virtual void addStarts(const RunSetup& setup, Cycle horizon,
                         std::vector<std::pair<Schedule, std::string>>& starts) const;
  // The objective's scale in the model; its lower bound goes to `result` (bounds, attempts),
  // and a start better than `starts.best` that the bound's work found replaces it.
  virtual double scaleAndBound(const RunSetup& setup, Cycle horizon, const std::vector<Cycle>& alap,
                               const RunMachinery& machinery, HorizonStarts& starts,
                               Result& result) const = 0;
  // The refinement of a legal schedule (option refine), until `stop`: a verified, scored
  // candidate. Called from the worker's threads, side by side.
  virtual std::optional<Candidate> refine(const RunSetup& setup, const Schedule& legal,
                                          Cycle horizon, const StopRequest& stop) const = 0;
  // Figures of the attempt's work, written whatever its outcome.
  virtual void reportWork(const RunSetup& setup, Result& result) const;
  // The result of the best schedule: `result` already holds it, its objective and status (optimal
  // at the bound); the objective adds its figures or restates the result on its own scale.
  virtual void reportBest(const RunSetup& setup, const Candidate& best, Result& result) const;
};

// One attempt at the problem's horizon, minimizing `objective`.
Result optimizeAtHorizon(const RunSetup& setup, RunMachinery& machinery, const HorizonObjective& objective);

}  // namespace gaus::differentiable
