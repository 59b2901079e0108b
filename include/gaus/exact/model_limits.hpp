// Limits shared by the exact engine's MILPs (modulo_milp.hpp, latency_milp.hpp).
#pragma once

#include <cstdint>

namespace gaus::exact {

// Models above this many nonzeros are refused before they are built, with a message saying how
// large they would be and what to change (option max-nonzeros raises it). Memory grows with the
// nonzeros: Triton's FA dump in raw cycles at II 1325 (6.8 M nonzeros) peaks at 3.2 GB in CBC's
// root LP. The default admits every raw-cycle Triton model at its MII (the largest, addmm's
// second loop at II 1856, has 5.1 M) and keeps a solve under about 4 GB.
inline constexpr std::int64_t kDefaultMaxNonzeros = 8'000'000;

}  // namespace gaus::exact
