// The CBC entry of MilpModel::solve in a build without CBC (GAUS_WITH_CBC=OFF, as the wheel on
// PyPI's torch is built: PyPI has no CBC library, docs/python.md): every solve with
// `solver=cbc` fails with a message that says why and what to use instead. HiGHS, the default
// solver, is always built.

#include "milp_backends.hpp"

namespace gaus::milp {

std::optional<std::string> cbcUnavailable() {
  return "this gaus was built without CBC (GAUS_WITH_CBC=OFF, as the wheel on PyPI's torch is): "
         "use solver=highs, the default";
}

MilpSolution solveWithCbc(const MilpData& /*data*/, const MilpSolveSettings& /*settings*/) {
  MilpSolution solution;
  solution.call = CallStatus::kError;
  solution.note = *cbcUnavailable();
  return solution;
}

}  // namespace gaus::milp
