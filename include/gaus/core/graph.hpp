// The dependence graph: ops 0..n-1 and edges 0..m-1, stored as a structure of arrays with CSR
// in- and out-adjacency. A Graph is immutable; GraphBuilder collects ops and edges and builds it
// once. Names are kept for input and output only; algorithms work on dense ids.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/types.hpp>

namespace gaus {

// One block of an op's reservation table: `units` instances of `resource` are held during the
// cycle offsets [begin, begin + length) after the op starts. A general reservation table is a
// list of such blocks; a plain HLS "type" op is a single block {type, 0, occupancy, 1}.
struct ReservationBlock {
  ResourceId resource = 0;
  std::int32_t begin = 0;
  std::int32_t length = 1;
  std::int32_t units = 1;

  friend bool operator==(const ReservationBlock&, const ReservationBlock&) = default;
};

// How much of a memory kind (registers, shared memory, tensor memory: Machine::memories) the
// value an op produces occupies while it is live.
struct MemoryFootprint {
  MemoryId memory = 0;
  std::int64_t amount = 0;

  friend bool operator==(const MemoryFootprint&, const MemoryFootprint&) = default;
};

// Everything an op carries. Used to add ops to a GraphBuilder; a built Graph stores the same
// fields as separate arrays.
struct OpAttributes {
  std::string name;
  std::string kind;  // free-form label ("mul", "tt.dot", "AND"); display and round trip only
  std::int32_t latency = 0;  // cycles until the result may be used (default edge delay)
  std::vector<ReservationBlock> reservation;
  double mem = 0.0;     // memory / bit-width of the value it produces (GauS formulation B)
  double weight = 0.0;  // generic weight (GauS formulation A: stage weight)
  // Warp-specialization annotations (TWILL.md "Inputs").
  std::int32_t regs = 0;  // registers its live value needs on the warp that holds it
  std::vector<MemoryFootprint> footprints;
  bool variableLatency = false;  // must run on the machine's variable-latency warp
  bool streaming =
      false;  // variable-latency op with no incoming data edge: outgoing delays count 0
  std::int32_t spillCost = 0;  // extra delay when a consumer runs on another warp
  std::int32_t minWarps = 1;   // size of the warp set the op needs
};

struct EdgeAttributes {
  OpId source = 0;
  OpId target = 0;
  std::optional<std::int32_t> delay;  // unset: the source's latency (resolved when built)
  std::int32_t distance = 0;          // iteration distance; > 0 is loop-carried
  bool blocking = false;              // the target waits on a blocking synchronization
  double comm = 0.0;                  // communication weight (GauS formulation A)
};

class GraphBuilder;

class Graph {
 public:
  Graph() = default;

  OpId numOps() const { return static_cast<OpId>(latency_.size()); }
  EdgeId numEdges() const { return static_cast<EdgeId>(edgeSource_.size()); }
  const std::string& name() const { return name_; }

  // ---- ops ----
  const std::string& opName(OpId op) const { return opName_[op]; }
  std::string_view opKind(OpId op) const;
  std::int32_t latency(OpId op) const { return latency_[op]; }
  std::span<const ReservationBlock> reservation(OpId op) const {
    return {reservation_.data() + reservationOffset_[op],
            reservation_.data() + reservationOffset_[op + 1]};
  }
  // Cycles from the op's start until its reservation table is free: max(begin + length).
  std::int32_t reservationLength(OpId op) const { return reservationLength_[op]; }
  // Cycles the op takes to complete: max(latency, reservation length). A schedule's latency is
  // max over ops of start + duration, and a horizon D requires start + duration <= D.
  std::int32_t duration(OpId op) const { return duration_[op]; }
  double mem(OpId op) const { return mem_[op]; }
  double weight(OpId op) const { return weight_[op]; }
  std::int32_t regs(OpId op) const { return regs_[op]; }
  std::span<const MemoryFootprint> footprints(OpId op) const {
    return {footprint_.data() + footprintOffset_[op], footprint_.data() + footprintOffset_[op + 1]};
  }
  bool variableLatency(OpId op) const { return variableLatency_[op] != 0; }
  bool streaming(OpId op) const { return streaming_[op] != 0; }
  std::int32_t spillCost(OpId op) const { return spillCost_[op]; }
  std::int32_t minWarps(OpId op) const { return minWarps_[op]; }
  OpAttributes opAttributes(OpId op) const;

  // True when any op carries a warp-specialization annotation other than the defaults.
  bool hasWarpAnnotations() const { return hasWarpAnnotations_; }

  // ---- edges ----
  OpId edgeSource(EdgeId e) const { return edgeSource_[e]; }
  OpId edgeTarget(EdgeId e) const { return edgeTarget_[e]; }
  std::int32_t edgeDelay(EdgeId e) const { return edgeDelay_[e]; }
  std::int32_t edgeDistance(EdgeId e) const { return edgeDistance_[e]; }
  bool edgeBlocking(EdgeId e) const { return edgeBlocking_[e] != 0; }
  double edgeComm(EdgeId e) const { return edgeComm_[e]; }
  EdgeAttributes edgeAttributes(EdgeId e) const;
  bool hasLoopCarriedEdges() const { return hasLoopCarriedEdges_; }

  // ---- adjacency (CSR; edge ids in the order they were added) ----
  std::span<const EdgeId> outEdges(OpId op) const {
    return {outEdge_.data() + outOffset_[op], outEdge_.data() + outOffset_[op + 1]};
  }
  std::span<const EdgeId> inEdges(OpId op) const {
    return {inEdge_.data() + inOffset_[op], inEdge_.data() + inOffset_[op + 1]};
  }

  // Raw arrays for hot loops and for bulk transfer to tensors.
  const std::vector<OpId>& edgeSources() const { return edgeSource_; }
  const std::vector<OpId>& edgeTargets() const { return edgeTarget_; }
  const std::vector<std::int32_t>& edgeDelays() const { return edgeDelay_; }
  const std::vector<std::int32_t>& edgeDistances() const { return edgeDistance_; }
  const std::vector<std::int32_t>& latencies() const { return latency_; }
  const std::vector<std::int32_t>& durations() const { return duration_; }

  // Finds an op by name. The name index is built on first use (not thread-safe on first call).
  std::optional<OpId> findOp(std::string_view name) const;

 private:
  friend class GraphBuilder;

  std::string name_;
  std::vector<std::string> opName_;
  std::vector<std::int32_t> opKind_;  // index into kindNames_, -1 when unset
  std::vector<std::string> kindNames_;
  std::vector<std::int32_t> latency_;
  std::vector<std::int64_t> reservationOffset_;
  std::vector<ReservationBlock> reservation_;
  std::vector<std::int32_t> reservationLength_;
  std::vector<std::int32_t> duration_;
  std::vector<double> mem_;
  std::vector<double> weight_;
  std::vector<std::int32_t> regs_;
  std::vector<std::int64_t> footprintOffset_;
  std::vector<MemoryFootprint> footprint_;
  std::vector<std::uint8_t> variableLatency_;
  std::vector<std::uint8_t> streaming_;
  std::vector<std::int32_t> spillCost_;
  std::vector<std::int32_t> minWarps_;
  bool hasWarpAnnotations_ = false;

  std::vector<OpId> edgeSource_;
  std::vector<OpId> edgeTarget_;
  std::vector<std::int32_t> edgeDelay_;
  std::vector<std::int32_t> edgeDistance_;
  std::vector<std::uint8_t> edgeBlocking_;
  std::vector<double> edgeComm_;
  bool hasLoopCarriedEdges_ = false;

  std::vector<std::int64_t> outOffset_;
  std::vector<EdgeId> outEdge_;
  std::vector<std::int64_t> inOffset_;
  std::vector<EdgeId> inEdge_;

  // Views into opName_. A copied graph starts with an empty index (the views would point into
  // the source's names); moving keeps it, since a moved vector keeps its buffer.
  struct NameIndex {
    std::unordered_map<std::string_view, OpId> map;
    NameIndex() = default;
    NameIndex(const NameIndex&) {}
    NameIndex& operator=(const NameIndex&) {
      map.clear();
      return *this;
    }
    NameIndex(NameIndex&&) = default;
    NameIndex& operator=(NameIndex&&) = default;
  };
  mutable NameIndex nameIndex_;
};

// Collects ops and edges, then builds a Graph. Two ways to add an op: addOp(OpAttributes) for
// convenience, and addOp(name, latency) plus setters for readers of very large graphs (no
// per-op heap objects).
class GraphBuilder {
 public:
  explicit GraphBuilder(std::string graphName = {}) : name_(std::move(graphName)) {}

  void reserve(std::size_t ops, std::size_t edges);
  // Readers learn a graph's name only after its ops (a document's members come in any order).
  void setName(std::string graphName) { name_ = std::move(graphName); }

  OpId addOp(const OpAttributes& attributes);
  OpId addOp(std::string name, std::int32_t latency);
  void setKind(OpId op, std::string_view kind);
  void addReservation(OpId op, ReservationBlock block);
  void setMem(OpId op, double mem) { mem_[op] = mem; }
  void setWeight(OpId op, double weight) { weight_[op] = weight; }
  void setRegs(OpId op, std::int32_t regs) { regs_[op] = regs; }
  void addFootprint(OpId op, MemoryFootprint footprint);
  void setVariableLatency(OpId op, bool value) { variableLatency_[op] = value ? 1 : 0; }
  void setStreaming(OpId op, bool value) { streaming_[op] = value ? 1 : 0; }
  void setSpillCost(OpId op, std::int32_t cost) { spillCost_[op] = cost; }
  void setMinWarps(OpId op, std::int32_t warps) { minWarps_[op] = warps; }

  EdgeId addEdge(const EdgeAttributes& attributes);
  EdgeId addEdge(OpId source, OpId target, std::optional<std::int32_t> delay = std::nullopt,
                 std::int32_t distance = 0);

  void setEdgeComm(EdgeId e, double comm) { edgeComm_[e] = comm; }
  void setEdgeBlocking(EdgeId e, bool blocking) { edgeBlocking_[e] = blocking ? 1 : 0; }

  OpId numOps() const { return static_cast<OpId>(latency_.size()); }
  EdgeId numEdges() const { return static_cast<EdgeId>(edgeSource_.size()); }
  std::int32_t latency(OpId op) const { return latency_[op]; }
  const std::string& opName(OpId op) const { return opName_[op]; }

  // Builds the graph. Fails (naming the op or edge) on an edge to a missing op, a negative
  // latency, delay, distance, reservation block or footprint, or min_warps < 1. Duplicate op
  // names are allowed only when `allowDuplicateNames` (names then cannot be looked up).
  Expected<Graph> build(bool allowDuplicateNames = false) &&;

 private:
  std::string name_;
  std::vector<std::string> opName_;
  std::vector<std::int32_t> opKind_;
  std::vector<std::string> kindNames_;
  std::unordered_map<std::string, std::int32_t> kindIndex_;
  std::vector<std::int32_t> latency_;
  std::vector<std::pair<OpId, ReservationBlock>> reservation_;
  std::vector<double> mem_;
  std::vector<double> weight_;
  std::vector<std::int32_t> regs_;
  std::vector<std::pair<OpId, MemoryFootprint>> footprint_;
  std::vector<std::uint8_t> variableLatency_;
  std::vector<std::uint8_t> streaming_;
  std::vector<std::int32_t> spillCost_;
  std::vector<std::int32_t> minWarps_;

  std::vector<OpId> edgeSource_;
  std::vector<OpId> edgeTarget_;
  std::vector<std::optional<std::int64_t>> edgeDelay_;  // unset: the source's latency
  std::vector<std::int32_t> edgeDistance_;
  std::vector<std::uint8_t> edgeBlocking_;
  std::vector<double> edgeComm_;
};

// `graph` with each op's attributes passed through `editOp` and each edge's through `editEdge`
// (either may be empty): the same ops, edges and name, for the transformations that change
// attributes only (a relaxation, a rescaling, a decoration). Fails, as GraphBuilder::build does,
// when an edit leaves an attribute invalid; duplicate op names stay allowed.
Expected<Graph> withEditedAttributes(const Graph& graph,
                                     const std::function<void(OpId, OpAttributes&)>& editOp,
                                     const std::function<void(EdgeId, EdgeAttributes&)>& editEdge);

}  // namespace gaus
