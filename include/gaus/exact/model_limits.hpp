// Limits shared by the exact engine's MILPs (modulo_milp.hpp, latency_milp.hpp): the one MILP
// call block's (milp/milp_call.hpp).
#pragma once

#include <gaus/milp/milp_call.hpp>

namespace gaus::exact {

using milp::kDefaultMaxNonzeros;

}  // namespace gaus::exact
