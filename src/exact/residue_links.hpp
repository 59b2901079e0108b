// Internal to the exact engine: residue links of the stage/residue MILP (docs/exact.md, "Modulo
// MILP speed-ups"). Not in the paper: within a recurrence, longest paths under d - distance II
// confine the start difference of two ops; where that leaves fewer than II values, their residues
// are linked, so that the LP relaxation sees the clashes a recurrence forces.
#pragma once

#include <cstdint>
#include <vector>

#include <gaus/core/graph.hpp>

namespace gaus::exact::detail {

// Two ops of one recurrence whose start difference t(to) - t(from) the recurrence confines to
// [low, high] at the current II, fewer than II values: their residues are linked.
struct ResidueLink {
  OpId from = 0;
  OpId to = 0;
  Cycle low = 0;
  Cycle high = 0;
};

// Links within each strongly connected component: longest paths dist(a, b) under the weights
// delay - distance II bound every schedule's t(b) - t(a) to [dist(a, b), -dist(b, a)]. Each op
// is linked to the first op of its component at a fixed distance (both directions tight: the
// difference is one value), and every edge inside a component whose window is narrower than II
// links its ends. Components above kMaxLinkedComponent ops are skipped (the all-pairs longest
// paths are cubic in their size).
std::vector<ResidueLink> residueLinks(const Graph& graph, std::int32_t ii);

}  // namespace gaus::exact::detail
