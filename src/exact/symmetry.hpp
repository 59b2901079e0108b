// Internal to the exact engine: symmetries between ops that the models may break.
#pragma once

#include <utility>
#include <vector>

#include <gaus/core/graph.hpp>

namespace gaus::exact::detail {

// Pairs (a, b): some optimal schedule (any schedule, up to a relabeling of ops that maps
// schedules to schedules of the same latency and II) has t(a) <= t(b). Every pair follows from
// the lexicographic-leader rule over start times ordered by op id, so all pairs may be imposed
// together:
// - twins (same attributes, same in- and out-edges with the same labels, no edge between them)
//   are ordered by id, consecutive members of each twin class;
// - one involutive automorphism found by colour refinement (e.g. the two query sub-tiles of a
//   Flash-Attention body), over ops outside twin classes, orders its first moved op before its
//   image.
struct SymmetryOrderings {
  std::vector<std::pair<OpId, OpId>> before;   // t(first) <= t(second)
  std::vector<std::vector<OpId>> twinClasses;  // classes of size >= 2, ids increasing
  std::vector<OpId> involution;                // the automorphism (identity when none), per op
};
SymmetryOrderings findSymmetries(const Graph& graph);

// Rewrites a legal schedule so that it meets every ordering (applies the involution, then sorts
// twins' start times), which keeps it legal.
void orderBySymmetries(const SymmetryOrderings& symmetries, std::vector<Cycle>& start);

}  // namespace gaus::exact::detail
