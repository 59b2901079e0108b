// Internal to the heuristic module: the order in which the schedulers rank ops by their keys
// (heights and ASAP/ALAP come from core's analysis).
#pragma once

#include <vector>

#include <gaus/core/graph.hpp>

namespace gaus::heuristic::detail {

// The ops sorted by (primary, secondary, id), each key smaller-first: position k holds the op
// that goes k-th. Keys are doubles so that cycle counts and a caller's real-valued keys (GauS's
// rounded means) share one sort.
std::vector<OpId> orderByKeys(const std::vector<double>& primary,
                              const std::vector<double>& secondary);

}  // namespace gaus::heuristic::detail
