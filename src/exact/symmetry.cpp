// Symmetry breaking between identical ops (TWILL.md section 2, "Speed"). Interchangeable ops
// multiply the branch-and-bound tree and the SMT search: every schedule appears once per
// permutation of them. The orderings returned here keep one representative.
//
// Colour refinement (1-dimensional Weisfeiler-Leman) over ops labelled by their scheduling
// attributes and edges labelled by (delay, distance, blocking) proposes the pairing; the
// candidate automorphism is then checked edge by edge, so a proposal that is not an automorphism
// is simply dropped.

#include "symmetry.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

namespace gaus::exact::detail {

namespace {

using Signature = std::vector<std::int64_t>;

constexpr std::int64_t kSelf = -1;

// Everything about an op that a scheduler sees (name and kind are display only).
Signature attributeSignature(const Graph& graph, OpId op) {
  Signature signature{
      graph.latency(op),           graph.regs(op),      graph.variableLatency(op) ? 1 : 0,
      graph.streaming(op) ? 1 : 0, graph.spillCost(op), graph.minWarps(op)};
  for (const auto& block : graph.reservation(op)) {
    signature.insert(signature.end(), {block.resource, block.begin, block.length, block.units});
  }
  signature.push_back(-2);
  for (const auto& print : graph.footprints(op)) {
    signature.insert(signature.end(), {print.memory, print.amount});
  }
  return signature;
}

// Edge label plus the neighbour (its id or colour, kSelf for a self-loop), in then out.
Signature neighbourhood(const Graph& graph, OpId op, const std::vector<std::int64_t>* colour) {
  std::vector<std::tuple<int, std::int64_t, std::int64_t, std::int64_t, std::int64_t>> items;
  auto name = [&](OpId other) -> std::int64_t {
    if (other == op) return kSelf;
    return colour ? (*colour)[other] : other;
  };
  for (EdgeId e : graph.inEdges(op)) {
    items.emplace_back(0, name(graph.edgeSource(e)), graph.edgeDelay(e), graph.edgeDistance(e),
                       graph.edgeBlocking(e) ? 1 : 0);
  }
  for (EdgeId e : graph.outEdges(op)) {
    items.emplace_back(1, name(graph.edgeTarget(e)), graph.edgeDelay(e), graph.edgeDistance(e),
                       graph.edgeBlocking(e) ? 1 : 0);
  }
  std::sort(items.begin(), items.end());
  Signature signature;
  for (const auto& [direction, other, delay, distance, blocking] : items) {
    signature.insert(signature.end(), {direction, other, delay, distance, blocking});
  }
  return signature;
}

// Dense colours 0..k-1 for the distinct signatures, in signature order (deterministic).
std::vector<std::int64_t> recolour(const std::vector<Signature>& signatures) {
  std::map<Signature, std::int64_t> index;
  for (const auto& signature : signatures) index.emplace(signature, 0);
  std::int64_t next = 0;
  for (auto& [signature, colour] : index) colour = next++;
  std::vector<std::int64_t> colour;
  for (const auto& signature : signatures) colour.push_back(index.at(signature));
  return colour;
}

bool hasEdgeBetween(const Graph& graph, OpId a, OpId b) {
  for (EdgeId e : graph.outEdges(a)) {
    if (graph.edgeTarget(e) == b) return true;
  }
  for (EdgeId e : graph.outEdges(b)) {
    if (graph.edgeTarget(e) == a) return true;
  }
  return false;
}

using EdgeKey = std::tuple<OpId, OpId, std::int32_t, std::int32_t, bool>;

std::vector<EdgeKey> edgeKeys(const Graph& graph, const std::vector<OpId>& map) {
  std::vector<EdgeKey> keys;
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    keys.emplace_back(map[graph.edgeSource(e)], map[graph.edgeTarget(e)], graph.edgeDelay(e),
                      graph.edgeDistance(e), graph.edgeBlocking(e));
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

}  // namespace

SymmetryOrderings findSymmetries(const Graph& graph) {
  const OpId count = graph.numOps();
  SymmetryOrderings result;
  result.involution.resize(static_cast<std::size_t>(count));
  std::iota(result.involution.begin(), result.involution.end(), 0);

  std::vector<Signature> attributes;
  for (OpId op = 0; op < count; ++op) attributes.push_back(attributeSignature(graph, op));

  // Twins: same attributes and the same labelled neighbours by id.
  std::map<std::pair<Signature, Signature>, std::vector<OpId>> twinGroups;
  for (OpId op = 0; op < count; ++op) {
    twinGroups[{attributes[op], neighbourhood(graph, op, nullptr)}].push_back(op);
  }
  std::vector<std::uint8_t> inTwinClass(static_cast<std::size_t>(count), 0);
  for (auto& [key, members] : twinGroups) {
    if (members.size() < 2) continue;
    // Ops joined by an edge are not interchangeable even with equal neighbourhoods.
    std::vector<OpId> twins{members.front()};
    for (std::size_t i = 1; i < members.size(); ++i) {
      bool independent = true;
      for (OpId other : twins)
        independent = independent && !hasEdgeBetween(graph, other, members[i]);
      if (independent) twins.push_back(members[i]);
    }
    if (twins.size() < 2) continue;
    for (std::size_t i = 0; i + 1 < twins.size(); ++i) {
      result.before.emplace_back(twins[i], twins[i + 1]);
    }
    for (OpId op : twins) inTwinClass[op] = 1;
    result.twinClasses.push_back(std::move(twins));
  }

  // Colour refinement until the number of colours stops growing.
  std::vector<std::int64_t> colour = recolour(attributes);
  std::int64_t colours = colour.empty() ? 0 : *std::max_element(colour.begin(), colour.end()) + 1;
  for (OpId round = 0; round < count; ++round) {
    std::vector<Signature> signatures;
    for (OpId op = 0; op < count; ++op) {
      Signature signature{colour[op]};
      const Signature around = neighbourhood(graph, op, &colour);
      signature.insert(signature.end(), around.begin(), around.end());
      signatures.push_back(std::move(signature));
    }
    std::vector<std::int64_t> next = recolour(signatures);
    const std::int64_t nextColours =
        next.empty() ? 0 : *std::max_element(next.begin(), next.end()) + 1;
    colour = std::move(next);
    if (nextColours == colours) break;
    colours = nextColours;
  }

  // Candidate: swap the two members of every colour class of size two (outside twin classes).
  std::map<std::int64_t, std::vector<OpId>> classes;
  for (OpId op = 0; op < count; ++op) {
    if (!inTwinClass[op]) classes[colour[op]].push_back(op);
  }
  std::vector<OpId> candidate = result.involution;
  bool moves = false;
  for (const auto& [c, members] : classes) {
    if (members.size() != 2) continue;
    candidate[members[0]] = members[1];
    candidate[members[1]] = members[0];
    moves = true;
  }
  if (!moves) return result;
  std::vector<OpId> identity(static_cast<std::size_t>(count));
  std::iota(identity.begin(), identity.end(), 0);
  if (edgeKeys(graph, candidate) != edgeKeys(graph, identity)) return result;
  result.involution = candidate;
  for (OpId op = 0; op < count; ++op) {
    if (candidate[op] != op) {
      result.before.emplace_back(op, candidate[op]);
      break;
    }
  }
  return result;
}

void orderBySymmetries(const SymmetryOrderings& symmetries, std::vector<Cycle>& start) {
  for (OpId op = 0; op < static_cast<OpId>(symmetries.involution.size()); ++op) {
    const OpId image = symmetries.involution[op];
    if (image == op) continue;
    // The first moved op decides: apply the involution when it starts after its image.
    if (start[op] > start[image]) {
      const std::vector<Cycle> original = start;
      for (OpId v = 0; v < static_cast<OpId>(start.size()); ++v) {
        start[v] = original[symmetries.involution[v]];
      }
    }
    break;
  }
  for (const auto& twins : symmetries.twinClasses) {
    std::vector<Cycle> times;
    for (OpId op : twins) times.push_back(start[op]);
    std::sort(times.begin(), times.end());
    for (std::size_t i = 0; i < twins.size(); ++i) start[twins[i]] = times[i];
  }
}

}  // namespace gaus::exact::detail
