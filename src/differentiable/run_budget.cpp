#include "run_budget.hpp"

namespace gaus::differentiable {

RunBudget::RunBudget(const GausOptions& options, const RunContext& context)
    : context_(context), deadline_(options.timeLimitSeconds), maxSteps_(options.maxSteps) {}

bool RunBudget::exhausted() const {
  return outOfTime() || (maxSteps_ && steps_ >= *maxSteps_);
}

bool RunBudget::outOfTime() const {
  return deadline_.expired() || context_.cancelled();
}

bool RunBudget::cancelled() const {
  return context_.cancelled();
}

}  // namespace gaus::differentiable
