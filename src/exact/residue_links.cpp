// Residue links of the stage/residue MILP (residue_links.hpp). Linking every pair of a component
// instead of edge ends made rows grow 20x and the proofs slower (docs/exact.md).

#include "residue_links.hpp"

#include <algorithm>
#include <limits>
#include <set>

#include <gaus/core/analysis.hpp>

namespace gaus::exact::detail {

std::vector<ResidueLink> residueLinks(const Graph& graph, std::int32_t ii) {
  constexpr std::int32_t kMaxLinkedComponent = 400;
  constexpr Cycle kNoPath = std::numeric_limits<Cycle>::min() / 4;
  std::vector<ResidueLink> links;
  const Components components = stronglyConnectedComponents(graph);
  std::vector<std::int32_t> local(static_cast<std::size_t>(graph.numOps()), -1);
  for (std::int32_t c = 0; c < components.count; ++c) {
    const std::int32_t size = components.size(c);
    if (size < 2 || size > kMaxLinkedComponent) continue;
    const OpId* members = components.members.data() + components.offset[c];
    for (std::int32_t i = 0; i < size; ++i) local[members[i]] = i;
    std::vector<Cycle> dist(static_cast<std::size_t>(size) * size, kNoPath);
    const auto at = [&](std::int32_t a, std::int32_t b) -> Cycle& {
      return dist[static_cast<std::size_t>(a) * size + b];
    };
    for (std::int32_t i = 0; i < size; ++i) {
      at(i, i) = 0;
      for (EdgeId e : graph.outEdges(members[i])) {
        if (components.componentOf[graph.edgeTarget(e)] != c) continue;
        const Cycle weight = graph.edgeDelay(e) - graph.edgeDistance(e) * static_cast<Cycle>(ii);
        Cycle& entry = at(i, local[graph.edgeTarget(e)]);
        entry = std::max(entry, weight);
      }
    }
    for (std::int32_t k = 0; k < size; ++k) {
      for (std::int32_t i = 0; i < size; ++i) {
        if (at(i, k) == kNoPath) continue;
        for (std::int32_t j = 0; j < size; ++j) {
          if (at(k, j) != kNoPath) at(i, j) = std::max(at(i, j), at(i, k) + at(k, j));
        }
      }
    }
    // Fixed offsets to the first op whose difference is fixed; otherwise narrow edges.
    std::vector<std::int32_t> anchor(static_cast<std::size_t>(size), -1);
    for (std::int32_t i = 0; i < size; ++i) {
      for (std::int32_t a = 0; a < i && anchor[i] < 0; ++a) {
        if (anchor[a] < 0 && at(a, i) + at(i, a) == 0) anchor[i] = a;
      }
      if (anchor[i] >= 0) {
        const Cycle offset = at(anchor[i], i);
        links.push_back({members[anchor[i]], members[i], offset, offset});
      }
    }
    const auto root = [&](std::int32_t i) { return anchor[i] < 0 ? i : anchor[i]; };
    std::set<std::pair<std::int32_t, std::int32_t>> linked;
    for (std::int32_t i = 0; i < size; ++i) {
      for (EdgeId e : graph.outEdges(members[i])) {
        if (components.componentOf[graph.edgeTarget(e)] != c) continue;
        const std::int32_t j = local[graph.edgeTarget(e)];
        if (i == j || root(i) == root(j)) continue;
        const Cycle low = at(i, j);
        const Cycle high = -at(j, i);
        if (high - low + 1 >= ii || !linked.insert({i, j}).second) continue;
        links.push_back({members[i], members[j], low, high});
      }
    }
  }
  return links;
}

}  // namespace gaus::exact::detail
