// Bounds at a fixed II before a modulo model is built (modulo_bounds.hpp).

#include "modulo_bounds.hpp"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/warp_rules.hpp>

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

namespace {

// The graph with the delay of every edge that `crosses` raised to its cross-warp delay.
Graph withCrossWarpDelays(const Graph& graph, const std::function<bool(EdgeId)>& crosses) {
  // Only delays rise: the graph, which was built, stays valid.
  return withEditedAttributes(graph, {},
                              [&](EdgeId e, EdgeAttributes& attributes) {
                                if (crosses(e)) {
                                  attributes.delay =
                                      static_cast<std::int32_t>(crossWarpDelay(graph, e));
                                }
                              })
      .value();
}

bool lifetimesMatter(const Graph& graph, const Machine& machine, const TwillFamilySet& families) {
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (graph.outEdges(op).empty()) continue;  // a value without consumers is never live
    const bool registers = (families.has(TwillFamily::kRegisterLimit) && machine.registerLimit) ||
                           (families.has(TwillFamily::kRegisterFile) && machine.registerFile);
    if (registers && graph.regs(op) > 0) return true;
    if (families.has(TwillFamily::kMemory)) {
      for (const auto& print : graph.footprints(op)) {
        if (print.amount > 0) return true;
      }
    }
  }
  return false;
}

}  // namespace

Graph withoutLifetimeCosts(const Graph& graph) {
  // Clearing registers and footprints leaves the graph, which was built, valid.
  return withEditedAttributes(graph,
                              [](OpId, OpAttributes& attributes) {
                                attributes.regs = 0;
                                attributes.footprints.clear();
                              },
                              {})
      .value();
}

// Proof. An edge u -> v whose ends can never share a warp set crosses warp sets in every
// schedule the verifier accepts, so the spill-delay family asks t(v) + distance II >= t(u) +
// crossWarpDelay on it, whatever L is. Summed around a cycle C, every schedule at II needs
// II x distance(C) >= the sum over C of those delays: the RecMII of the raised graph.
RecMii computeWarpAwareRecMii(const Graph& graph, const Machine& machine,
                              const TwillFamilySet& families) {
  const bool warpRules =
      families.has(TwillFamily::kDependence) && families.has(TwillFamily::kSpillDelay) &&
      families.has(TwillFamily::kWarpUniqueness) && families.has(TwillFamily::kVariableLatency);
  if (!warpRules) return computeRecMii(graph);
  const Graph raised = withCrossWarpDelays(graph, [&](EdgeId e) {
    return warpSetsAlwaysDiffer(graph, machine, graph.edgeSource(e), graph.edgeTarget(e));
  });
  return computeRecMii(raised);
}

// Proof. Take a schedule t at `ii` and keep its residues r(v) = t(v) mod ii and its warp sets.
// Every family other than register-limit and memory depends on those alone (capacity and
// blocking concurrency on the residues, the warp families on the sets) or is a difference
// constraint t(v) + distance ii >= t(u) + delta(e), with delta(e) the edge's delay or, when its
// ends' sets differ, its cross-warp delay. As in existenceLatencyBound, the stages k(v) then
// solve k(v) - k(u) >= ceil((delta(e) - distance ii - r(v) + r(u)) / ii), whose least solution
// k* >= 0 gives t*(v) = ii k*(v) + r(v), a schedule with the same residues and sets, so it
// meets every family; interchangeable ops are ordered by swapping them, which keeps L. k*(v)
// is the weight of a simple path P ending at v, so t*(v) <= r(s) + sum over P of (delta(e) -
// distance ii + ii - 1), with delta(e) <= crossWarpDelay(e). Two bounds on that sum follow:
// - a simple path leaves each op at most once: at most the sum over ops of their largest
//   max(0, crossWarpDelay(e) - distance ii + ii - 1) over out-edges (self-loops excluded);
// - when the graph with every delay raised to its cross-warp delay has no positive cycle at
//   ii: existenceLatencyBound on it (its ASAP times bound the path sums from above).
// L* <= max over v of t*(v) + duration(v) is at most the smaller of the two plus the longest
// duration.
std::optional<Cycle> warpLatencyBound(const Graph& graph, const Machine& machine, std::int32_t ii,
                                      const TwillFamilySet& families) {
  if (lifetimesMatter(graph, machine, families)) return std::nullopt;
  Cycle pathSum = ii - 1;
  Cycle longest = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    longest = std::max<Cycle>(longest, graph.duration(op));
    Cycle step = 0;
    for (EdgeId e : graph.outEdges(op)) {
      if (graph.edgeTarget(e) == op) continue;
      step = std::max(
          step, crossWarpDelay(graph, e) - static_cast<Cycle>(graph.edgeDistance(e)) * ii + ii - 1);
    }
    pathSum += step;
  }
  Cycle bound = pathSum + longest;
  const Graph raised = withCrossWarpDelays(
      graph, [&](EdgeId e) { return graph.edgeSource(e) != graph.edgeTarget(e); });
  if (const auto earliest = moduloAsapTimes(raised, ii)) {
    bound = std::min(bound, existenceLatencyBound(raised, ii, *earliest));
  }
  return bound;
}

}  // namespace gaus::exact::detail
