// Bounds at a fixed II before a modulo model is built (modulo_bounds.hpp).

#include "modulo_bounds.hpp"

#include <algorithm>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>

namespace gaus::exact::detail {

std::optional<std::string> reservationTooLong(const Graph& graph, const Machine& machine,
                                              std::int32_t ii) {
  std::vector<std::int64_t> demand(machine.resources.size(), 0);
  for (OpId op = 0; op < graph.numOps(); ++op) {
    for (const auto& block : graph.reservation(op)) {
      demand[block.resource] += static_cast<std::int64_t>(block.units) * block.length;
    }
  }
  for (ResourceId r = 0; r < machine.numResources(); ++r) {
    if (!machine.resources[r].limited()) continue;
    if (demand[r] > *machine.resources[r].capacity * static_cast<std::int64_t>(ii)) {
      return fmt::format("resource {} needs {} unit-cycles per iteration > capacity {} x II {}",
                         machine.resources[r].name, demand[r], *machine.resources[r].capacity, ii);
    }
  }
  return std::nullopt;
}

// Proof. Take a schedule t and keep its residues r(v) = t(v) mod ii: unit usage depends on them
// only. The stages k(v) must satisfy k(v) - k(u) >= w(e) = ceil((d - distance ii - r(v) +
// r(u)) / ii) on every edge, a system of difference constraints that t's stages solve, so it has
// no positive cycle and a least solution k* >= 0, where k*(v) is the weight of a simple path P
// ending at v (from an op s with k*(s) = 0). Since ii w(e) <= d - distance ii - r(v) + r(u) +
// ii - 1, telescoping along P gives t*(v) = ii k*(v) + r(v) <= r(s) + sum_P (d - distance ii) +
// |P| (ii - 1) <= ASAP(v) + h(v) (ii - 1), with h(v) the most ops on a simple path ending at v
// (at most the sizes of the strongly connected components along a path of the condensation).
// t* meets every edge and reservation and starts at or after ASAP; interchangeable ops keep
// their order after swapping them, which does not change L.
Cycle existenceLatencyBound(const Graph& graph, std::int32_t ii,
                            const std::vector<Cycle>& earliest) {
  const Components components = stronglyConnectedComponents(graph);
  // Most ops on a simple path ending in each component, over the condensation in Kahn order.
  std::vector<std::int64_t> pathOps(static_cast<std::size_t>(components.count), 0);
  std::vector<std::int32_t> pendingInputs(static_cast<std::size_t>(components.count), 0);
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    const auto from = components.componentOf[graph.edgeSource(e)];
    const auto to = components.componentOf[graph.edgeTarget(e)];
    if (from != to) ++pendingInputs[to];
  }
  std::vector<std::int32_t> ready;
  for (std::int32_t c = 0; c < components.count; ++c) {
    if (pendingInputs[c] == 0) ready.push_back(c);
  }
  while (!ready.empty()) {
    const std::int32_t c = ready.back();
    ready.pop_back();
    pathOps[c] += components.size(c);
    for (std::int64_t i = components.offset[c]; i < components.offset[c + 1]; ++i) {
      for (EdgeId e : graph.outEdges(components.members[i])) {
        const auto to = components.componentOf[graph.edgeTarget(e)];
        if (to == c) continue;
        pathOps[to] = std::max(pathOps[to], pathOps[c]);
        if (--pendingInputs[to] == 0) ready.push_back(to);
      }
    }
  }
  Cycle bound = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    bound = std::max(
        bound, earliest[op] + pathOps[components.componentOf[op]] * (ii - 1) + graph.duration(op));
  }
  return bound;
}

}  // namespace gaus::exact::detail
