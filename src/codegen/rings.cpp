// Rings of buffers and channels (docs/codegen.md "Rings and channels").
//
// One ring per value, not per edge: the value of op u gets a ring when another role reads it
// (a channel) or when it has a memory footprint (a tile in shared or tensor memory, even when
// only its own role reads it). A ring holds `depth` fills; fill j (the value of iteration j)
// lives in slot j mod depth. Its depth is the number of iterations of the value in flight,
//   liveBuffers = max(1, ceil(lifetime / II)),  lifetime = last reader's start + distance * II
//                                                          - the producer's start,
// over every reader of the value whatever its role: core ringBuffers (warp_roles.hpp), the
// buffers x stages that the verifier checks against each memory of a modulo-warp problem and
// that the exact engine's Twill model allocates, so the shared memory of the rings equals what
// `gaus twill` reports. Channels without a footprint get the same count.
//
// Two exceptions add slots. A ring read by another role at distance d gets at least d slots
// (buildRings: no write may wait for a drain; docs/codegen.md). And one more slot in this case. The
// slot of fill j - depth is written again by fill j at the producer's start of iteration j; the
// verifier's live interval [start, last read) lets the last read of fill j - depth fall on that
// very cycle. When that read comes after the write in the order the roles issue instances (start
// cycle, then iteration, then topological position), the refill would overwrite a value still to be
// read, so the ring gets one more slot and `depthNote` says which read forced it (a read by the
// writing instance itself is an update in place, which needs no slot more). The same rule gives the
// number of copies of a value that stays in its role's registers (modulo variable expansion).

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include <gaus/core/schedule.hpp>
#include <gaus/core/warp_roles.hpp>

#include "pipeline_steps.hpp"

namespace gaus::codegen::detail {

namespace {

// The reader of fill j - depth that the write of fill j would overtake, if any.
std::optional<EdgeId> readOvertakenByRefill(const Pipeline& pipeline, OpId producer,
                                            std::int32_t depth) {
  const Graph& graph = *pipeline.graph;
  const auto& start = pipeline.schedule.start;
  const Cycle ii = pipeline.ii;
  const IssueKey refill{start[producer], 0, pipeline.topologicalPosition[producer]};
  for (EdgeId e : graph.outEdges(producer)) {
    const OpId reader = graph.edgeTarget(e);
    const std::int64_t offset = graph.edgeDistance(e) - depth;
    const IssueKey read{start[reader] + offset * ii, offset, pipeline.topologicalPosition[reader]};
    // Equal keys are one instance reading fill j - depth and writing fill j: an update in
    // place (an accumulator), which reads its input before it writes.
    if (refill < read) return e;
  }
  return std::nullopt;
}

}  // namespace

ValueDepth valueDepth(const Pipeline& pipeline, OpId op) {
  const Graph& graph = *pipeline.graph;
  const Cycle ii = pipeline.ii;
  ValueDepth depth;
  const LiveInterval live = liveInterval(graph, pipeline.schedule, op);
  depth.lifetime = std::max<Cycle>(0, live.end - live.begin);
  depth.liveBuffers = ringBuffers(graph, pipeline.schedule, op);  // buildRings: op is read
  depth.depth = depth.liveBuffers;
  while (const auto overtaken = readOvertakenByRefill(pipeline, op, depth.depth)) {
    const OpId reader = graph.edgeTarget(*overtaken);
    depth.note = fmt::format(
        "one more than ceil({}/{}): {} reads fill j-{} at the cycle fill j is written "
        "(start {} + distance {} x II)",
        depth.lifetime, ii, graph.opName(reader), depth.depth, pipeline.schedule.start[reader],
        graph.edgeDistance(*overtaken));
    ++depth.depth;
  }
  return depth;
}

void buildRings(Pipeline& pipeline) {
  const Graph& graph = *pipeline.graph;
  pipeline.ringOf.assign(static_cast<std::size_t>(graph.numOps()), -1);
  pipeline.valueCopies.assign(static_cast<std::size_t>(graph.numOps()), 0);
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (graph.outEdges(op).empty()) continue;
    std::set<std::int32_t> readers;
    for (EdgeId e : graph.outEdges(op)) {
      const std::int32_t role = pipeline.roleOf[graph.edgeTarget(e)];
      if (role != pipeline.roleOf[op]) readers.insert(role);
    }
    ValueDepth depth = valueDepth(pipeline, op);
    // A fill that no iteration of a consumer role reads (its read lies beyond the last trip) is
    // released only by that role's drain, after its loops; the producer's write of fill
    // j + depth must not wait for that. A consumer role releases fill j in its loop when its
    // read of smallest distance d exists (j + d < trips), so depth >= d for every consumer role
    // keeps every release a write waits for inside the loops (a value read at distance 2 with a
    // lifetime under one II needs 2 slots, not 1).
    std::map<std::int32_t, std::int64_t> nearestRead;  // per consumer role
    for (EdgeId e : graph.outEdges(op)) {
      const std::int32_t role = pipeline.roleOf[graph.edgeTarget(e)];
      if (role == pipeline.roleOf[op]) continue;
      const auto [entry, added] = nearestRead.try_emplace(role, graph.edgeDistance(e));
      if (!added) entry->second = std::min<std::int64_t>(entry->second, graph.edgeDistance(e));
    }
    for (const auto& [role, distance] : nearestRead) {
      if (distance > depth.depth) {
        depth.note = fmt::format(
            "{} (a consumer role first reads it at distance {}: no fill may "
            "wait for a drain)",
            depth.note.empty() ? fmt::format("raised from {}", depth.depth) : depth.note, distance);
        depth.depth = static_cast<std::int32_t>(distance);
      }
    }
    if (readers.empty() && graph.footprints(op).empty()) {
      pipeline.valueCopies[op] = depth.depth;  // registers of its role, rotated
      continue;
    }
    Ring ring;
    ring.name = pipeline.opIdentifiers[op];
    ring.producer = op;
    ring.producerRole = pipeline.roleOf[op];
    ring.consumerRoles.assign(readers.begin(), readers.end());
    ring.lifetime = depth.lifetime;
    ring.liveBuffers = depth.liveBuffers;
    ring.depth = depth.depth;
    ring.depthNote = depth.note;
    ring.bytesPerSlot.assign(graph.footprints(op).begin(), graph.footprints(op).end());
    ring.slots = ring.depth;
    ring.fullArrivals = 1;
    ring.emptyArrivals = static_cast<std::int32_t>(ring.consumerRoles.size());
    pipeline.ringOf[op] = static_cast<std::int32_t>(pipeline.rings.size());
    pipeline.rings.push_back(std::move(ring));
  }
}

}  // namespace gaus::codegen::detail
