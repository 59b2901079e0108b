#include <algorithm>

#include <gaus/milp/milp_call.hpp>

namespace gaus::milp {

std::optional<std::string> MilpCall::refusal(std::string_view what, ModelSize size,
                                             std::string_view remedy) const {
  return refuseLargeModel(what, size, maxNonzeros, memoryLimitBytes, remedy);
}

MilpSolution MilpCall::solve(MilpModel& model) const {
  model.setSolver(solver);
  model.setCancel(cancel);
  return model.solve(deadline.limited() ? std::max(0.01, deadline.remainingSeconds()) : 0.0);
}

}  // namespace gaus::milp
