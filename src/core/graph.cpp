#include <algorithm>

#include <fmt/format.h>

#include <gaus/core/graph.hpp>

namespace gaus {

namespace {

// Counting sort of (key, value) pairs by key into CSR offsets and values, stable in input order.
template <typename Value>
void buildCsr(std::int64_t keyCount, const std::vector<std::pair<OpId, Value>>& pairs,
              std::vector<std::int64_t>& offset, std::vector<Value>& values) {
  offset.assign(static_cast<std::size_t>(keyCount) + 1, 0);
  for (const auto& [key, value] : pairs) ++offset[static_cast<std::size_t>(key) + 1];
  for (std::size_t i = 1; i < offset.size(); ++i) offset[i] += offset[i - 1];
  values.resize(pairs.size());
  std::vector<std::int64_t> cursor(offset.begin(), offset.end() - 1);
  for (const auto& [key, value] : pairs) values[static_cast<std::size_t>(cursor[key]++)] = value;
}

// CSR adjacency of edge ids keyed by one endpoint.
void buildAdjacency(OpId opCount, const std::vector<OpId>& endpoint,
                    std::vector<std::int64_t>& offset, std::vector<EdgeId>& edges) {
  offset.assign(static_cast<std::size_t>(opCount) + 1, 0);
  for (OpId op : endpoint) ++offset[static_cast<std::size_t>(op) + 1];
  for (std::size_t i = 1; i < offset.size(); ++i) offset[i] += offset[i - 1];
  edges.resize(endpoint.size());
  std::vector<std::int64_t> cursor(offset.begin(), offset.end() - 1);
  for (std::size_t e = 0; e < endpoint.size(); ++e) {
    edges[static_cast<std::size_t>(cursor[endpoint[e]]++)] = static_cast<EdgeId>(e);
  }
}

}  // namespace

std::string_view Graph::opKind(OpId op) const {
  const std::int32_t kind = opKind_[op];
  return kind < 0 ? std::string_view{} : std::string_view{kindNames_[kind]};
}

OpAttributes Graph::opAttributes(OpId op) const {
  OpAttributes attributes;
  attributes.name = opName_[op];
  attributes.kind = std::string(opKind(op));
  attributes.latency = latency_[op];
  const auto blocks = reservation(op);
  attributes.reservation.assign(blocks.begin(), blocks.end());
  attributes.mem = mem_[op];
  attributes.weight = weight_[op];
  attributes.regs = regs_[op];
  const auto prints = footprints(op);
  attributes.footprints.assign(prints.begin(), prints.end());
  attributes.variableLatency = variableLatency(op);
  attributes.streaming = streaming(op);
  attributes.spillCost = spillCost_[op];
  attributes.minWarps = minWarps_[op];
  return attributes;
}

EdgeAttributes Graph::edgeAttributes(EdgeId e) const {
  EdgeAttributes attributes;
  attributes.source = edgeSource_[e];
  attributes.target = edgeTarget_[e];
  attributes.delay = edgeDelay_[e];
  attributes.distance = edgeDistance_[e];
  attributes.blocking = edgeBlocking(e);
  attributes.comm = edgeComm_[e];
  return attributes;
}

std::optional<OpId> Graph::findOp(std::string_view name) const {
  auto& index = nameIndex_.map;
  if (index.empty() && !opName_.empty()) {
    index.reserve(opName_.size());
    for (OpId op = 0; op < numOps(); ++op) index.emplace(opName_[op], op);
  }
  const auto it = index.find(name);
  if (it == index.end()) return std::nullopt;
  return it->second;
}

void GraphBuilder::reserve(std::size_t ops, std::size_t edges) {
  opName_.reserve(ops);
  opKind_.reserve(ops);
  latency_.reserve(ops);
  reservation_.reserve(ops);
  mem_.reserve(ops);
  weight_.reserve(ops);
  regs_.reserve(ops);
  variableLatency_.reserve(ops);
  streaming_.reserve(ops);
  spillCost_.reserve(ops);
  minWarps_.reserve(ops);
  edgeSource_.reserve(edges);
  edgeTarget_.reserve(edges);
  edgeDelay_.reserve(edges);
  edgeDistance_.reserve(edges);
  edgeBlocking_.reserve(edges);
  edgeComm_.reserve(edges);
}

OpId GraphBuilder::addOp(std::string name, std::int32_t latency) {
  const auto op = static_cast<OpId>(latency_.size());
  opName_.push_back(std::move(name));
  opKind_.push_back(-1);
  latency_.push_back(latency);
  mem_.push_back(0.0);
  weight_.push_back(0.0);
  regs_.push_back(0);
  variableLatency_.push_back(0);
  streaming_.push_back(0);
  spillCost_.push_back(0);
  minWarps_.push_back(1);
  return op;
}

OpId GraphBuilder::addOp(const OpAttributes& attributes) {
  const OpId op = addOp(attributes.name, attributes.latency);
  if (!attributes.kind.empty()) setKind(op, attributes.kind);
  for (const auto& block : attributes.reservation) addReservation(op, block);
  mem_[op] = attributes.mem;
  weight_[op] = attributes.weight;
  regs_[op] = attributes.regs;
  for (const auto& footprint : attributes.footprints) addFootprint(op, footprint);
  variableLatency_[op] = attributes.variableLatency ? 1 : 0;
  streaming_[op] = attributes.streaming ? 1 : 0;
  spillCost_[op] = attributes.spillCost;
  minWarps_[op] = attributes.minWarps;
  return op;
}

void GraphBuilder::setKind(OpId op, std::string_view kind) {
  auto it = kindIndex_.find(std::string(kind));
  if (it == kindIndex_.end()) {
    it = kindIndex_.emplace(std::string(kind), static_cast<std::int32_t>(kindNames_.size())).first;
    kindNames_.emplace_back(kind);
  }
  opKind_[op] = it->second;
}

void GraphBuilder::addReservation(OpId op, ReservationBlock block) {
  reservation_.emplace_back(op, block);
}

void GraphBuilder::addFootprint(OpId op, MemoryFootprint footprint) {
  footprint_.emplace_back(op, footprint);
}

EdgeId GraphBuilder::addEdge(OpId source, OpId target, std::optional<std::int32_t> delay,
                             std::int32_t distance) {
  const auto e = static_cast<EdgeId>(edgeSource_.size());
  edgeSource_.push_back(source);
  edgeTarget_.push_back(target);
  edgeDelay_.push_back(delay ? std::optional<std::int64_t>(*delay) : std::nullopt);
  edgeDistance_.push_back(distance);
  edgeBlocking_.push_back(0);
  edgeComm_.push_back(0.0);
  return e;
}

EdgeId GraphBuilder::addEdge(const EdgeAttributes& attributes) {
  const EdgeId e =
      addEdge(attributes.source, attributes.target, attributes.delay, attributes.distance);
  edgeBlocking_[e] = attributes.blocking ? 1 : 0;
  edgeComm_[e] = attributes.comm;
  return e;
}

Expected<Graph> GraphBuilder::build(bool allowDuplicateNames) && {
  const OpId opCount = numOps();
  const auto opLabel = [&](OpId op) { return fmt::format("op '{}' (#{})", opName_[op], op); };

  for (OpId op = 0; op < opCount; ++op) {
    if (latency_[op] < 0) {
      return Error{fmt::format("{}: negative latency {}", opLabel(op), latency_[op])};
    }
    if (spillCost_[op] < 0) {
      return Error{fmt::format("{}: negative spill_cost {}", opLabel(op), spillCost_[op])};
    }
    if (regs_[op] < 0) return Error{fmt::format("{}: negative regs {}", opLabel(op), regs_[op])};
    if (minWarps_[op] < 1 || minWarps_[op] > kMaxWarps) {
      return Error{fmt::format("{}: min_warps {} is outside [1, {}]", opLabel(op), minWarps_[op],
                               kMaxWarps)};
    }
  }
  for (const auto& [op, block] : reservation_) {
    if (block.resource < 0 || block.begin < 0 || block.length < 1 || block.units < 1) {
      return Error{fmt::format(
          "{}: reservation block (resource #{}, begin {}, length {}, units {}) needs a valid "
          "resource, begin >= 0, length >= 1 and units >= 1",
          opLabel(op), block.resource, block.begin, block.length, block.units)};
    }
    if (static_cast<std::int64_t>(block.begin) + block.length > kMaxInputValue) {
      return Error{fmt::format("{}: reservation block ends after cycle {} (integer overflow)",
                               opLabel(op), kMaxInputValue)};
    }
  }
  for (const auto& [op, footprint] : footprint_) {
    if (footprint.memory < 0 || footprint.amount < 0) {
      return Error{fmt::format("{}: footprint (memory #{}, amount {}) must be nonnegative",
                               opLabel(op), footprint.memory, footprint.amount)};
    }
  }
  for (EdgeId e = 0; e < numEdges(); ++e) {
    const OpId source = edgeSource_[e];
    const OpId target = edgeTarget_[e];
    if (source < 0 || source >= opCount || target < 0 || target >= opCount) {
      return Error{fmt::format("edge #{} ({} -> {}) refers to an op that does not exist ({} ops)",
                               e, source, target, opCount)};
    }
    if (edgeDelay_[e] && *edgeDelay_[e] < 0) {
      return Error{fmt::format("edge #{} ({} -> {}): negative delay {}", e, opName_[source],
                               opName_[target], *edgeDelay_[e])};
    }
    if (edgeDistance_[e] < 0) {
      return Error{fmt::format("edge #{} ({} -> {}): negative distance {}", e, opName_[source],
                               opName_[target], edgeDistance_[e])};
    }
  }

  Graph graph;
  graph.name_ = std::move(name_);
  graph.opName_ = std::move(opName_);
  if (!allowDuplicateNames) {
    auto& index = graph.nameIndex_.map;
    index.reserve(graph.opName_.size());
    for (OpId op = 0; op < opCount; ++op) {
      if (!index.emplace(graph.opName_[op], op).second) {
        return Error{fmt::format("duplicate op name '{}' (ops #{} and #{})", graph.opName_[op],
                                 index.at(graph.opName_[op]), op)};
      }
    }
  }
  graph.opKind_ = std::move(opKind_);
  graph.kindNames_ = std::move(kindNames_);
  graph.latency_ = std::move(latency_);
  buildCsr(opCount, reservation_, graph.reservationOffset_, graph.reservation_);
  reservation_ = {};
  buildCsr(opCount, footprint_, graph.footprintOffset_, graph.footprint_);
  footprint_ = {};
  graph.mem_ = std::move(mem_);
  graph.weight_ = std::move(weight_);
  graph.regs_ = std::move(regs_);
  graph.variableLatency_ = std::move(variableLatency_);
  graph.streaming_ = std::move(streaming_);
  graph.spillCost_ = std::move(spillCost_);
  graph.minWarps_ = std::move(minWarps_);

  graph.reservationLength_.assign(static_cast<std::size_t>(opCount), 0);
  graph.duration_.assign(static_cast<std::size_t>(opCount), 0);
  for (OpId op = 0; op < opCount; ++op) {
    std::int32_t length = 0;
    for (const auto& block : graph.reservation(op))
      length = std::max(length, block.begin + block.length);
    graph.reservationLength_[op] = length;
    graph.duration_[op] = std::max(length, graph.latency_[op]);
    if (graph.regs_[op] != 0 || graph.variableLatency_[op] != 0 || graph.streaming_[op] != 0 ||
        graph.spillCost_[op] != 0 || graph.minWarps_[op] != 1 ||
        graph.footprintOffset_[op + 1] != graph.footprintOffset_[op]) {
      graph.hasWarpAnnotations_ = true;
    }
  }

  // Unset delays default to the source's latency. Edges out of a streaming op have delay 0
  // (TWILL.md "Inputs": the load of a later tile is issued early enough that its data is ready),
  // so every method and the verifier see the same rule.
  graph.edgeDelay_.resize(edgeSource_.size());
  for (EdgeId e = 0; e < numEdges(); ++e) {
    const OpId source = edgeSource_[e];
    if (graph.streaming_[source] != 0) {
      graph.edgeDelay_[e] = 0;
    } else if (edgeDelay_[e]) {
      graph.edgeDelay_[e] = static_cast<std::int32_t>(*edgeDelay_[e]);
    } else {
      graph.edgeDelay_[e] = graph.latency_[source];
    }
    if (edgeDistance_[e] > 0) graph.hasLoopCarriedEdges_ = true;
  }
  edgeDelay_ = {};
  graph.edgeSource_ = std::move(edgeSource_);
  graph.edgeTarget_ = std::move(edgeTarget_);
  graph.edgeDistance_ = std::move(edgeDistance_);
  graph.edgeBlocking_ = std::move(edgeBlocking_);
  graph.edgeComm_ = std::move(edgeComm_);
  buildAdjacency(opCount, graph.edgeSource_, graph.outOffset_, graph.outEdge_);
  buildAdjacency(opCount, graph.edgeTarget_, graph.inOffset_, graph.inEdge_);
  return graph;
}

Expected<Graph> withEditedAttributes(const Graph& graph,
                                     const std::function<void(OpId, OpAttributes&)>& editOp,
                                     const std::function<void(EdgeId, EdgeAttributes&)>& editEdge) {
  GraphBuilder builder(graph.name());
  builder.reserve(static_cast<std::size_t>(graph.numOps()),
                  static_cast<std::size_t>(graph.numEdges()));
  for (OpId op = 0; op < graph.numOps(); ++op) {
    OpAttributes attributes = graph.opAttributes(op);
    if (editOp) editOp(op, attributes);
    builder.addOp(attributes);
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    EdgeAttributes attributes = graph.edgeAttributes(e);
    if (editEdge) editEdge(e, attributes);
    builder.addEdge(attributes);
  }
  return std::move(builder).build(true);
}

}  // namespace gaus
