#include <gaus/core/result.hpp>

namespace gaus {

std::string_view toString(SolveStatus status) {
  switch (status) {
    case SolveStatus::kOptimal:
      return "optimal";
    case SolveStatus::kFeasible:
      return "feasible";
    case SolveStatus::kInfeasible:
      return "infeasible";
    case SolveStatus::kTimeout:
      return "timeout";
    case SolveStatus::kError:
      return "error";
  }
  return "error";
}

Result errorResult(std::string message) {
  Result result;
  result.status = SolveStatus::kError;
  result.message = std::move(message);
  return result;
}

}  // namespace gaus
