// Which MILP solvers this build has. HiGHS always; CBC unless GAUS_WITH_CBC is off, as in the
// wheel on PyPI's torch (docs/python.md, "Install"). Apart from milp_model.hpp, which most of
// the engines include, so that the answer's home changes no build but src/milp's.
#pragma once

#include <optional>
#include <string>

#include <gaus/milp/milp_model.hpp>

namespace gaus::milp {

// Why `solver` cannot solve in this build, or nothing when it can. The methods ask before they
// start, so a request for a missing solver fails at once, also where the answer would need no
// MILP (ilp's latency refutation proves many answers without one).
std::optional<std::string> solverUnavailable(MilpSolver solver);

}  // namespace gaus::milp
