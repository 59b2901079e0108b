// The in-process executor of a pipeline's protocol (protocol_executor.hpp). It walks the role
// programs of pipeline.hpp exactly as the generated CPU program's loops do (cpu_target.cpp):
// kernel iterations [0, trips + stages - 1), the blocks of each, an op of stage s working on
// iteration k - s when that is in [0, trips); then the drains and the producer tail.

#include <algorithm>

#include <gaus/codegen/protocol_executor.hpp>

namespace gaus::codegen {

namespace {

class RoleWalker {
 public:
  RoleWalker(const Pipeline& pipeline, std::vector<gaus_protocol::Ring*> rings, std::int64_t trips)
      : pipeline_(pipeline), rings_(std::move(rings)), trips_(trips) {}

  void operator()(gaus_protocol::Role& role) const {
    const RoleProgram& program = pipeline_.programs[static_cast<std::size_t>(role.index())];
    const gaus_protocol::LoopBounds bounds = gaus_protocol::loopBounds(trips_, pipeline_.stages);
    for (std::int64_t k = 0; k < bounds.epilogueEnd; ++k) {
      for (const OpBlock& block : program.blocks) {
        const std::int64_t iteration = k - block.stage;
        if (gaus_protocol::inRange(iteration, trips_)) runBlock(role, block, iteration);
      }
    }
    role.atExit();
    for (const Drain& drain : program.drains) {
      gaus_protocol::Ring& ring = *rings_[static_cast<std::size_t>(drain.ring)];
      for (std::int64_t fill = std::max<std::int64_t>(0, trips_ - drain.fromEnd); fill < trips_;
           ++fill) {
        role.wait(ring.full(ring.slot(fill)), ring.phase(fill));
        role.arrive(ring.empty(ring.slot(fill)));
      }
    }
    for (std::int32_t tail : program.tails) {
      gaus_protocol::Ring& ring = *rings_[static_cast<std::size_t>(tail)];
      for (std::int64_t fill = std::max<std::int64_t>(0, trips_ - ring.slots()); fill < trips_;
           ++fill) {
        role.wait(ring.empty(ring.slot(fill)), ring.phase(fill));
      }
    }
  }

 private:
  void runBlock(gaus_protocol::Role& role, const OpBlock& block, std::int64_t iteration) const {
    role.at(block.op, iteration);
    for (const ProtocolStep& step : blockSteps(pipeline_, block)) {
      const std::int64_t fill = iteration - step.distance;
      if (fill < 0 || !syncApplies(step.when, fill, trips_)) continue;
      if (step.kind == ProtocolStep::Kind::kRun) {
        role.run(accesses(block, iteration));
        continue;
      }
      gaus_protocol::Ring& ring = *rings_[static_cast<std::size_t>(step.ring)];
      const int slot = ring.slot(fill);
      const std::uint32_t phase = ring.phase(fill);
      const auto tx = static_cast<std::uint32_t>(pipeline_.rings[step.ring].txBytes);
      switch (step.kind) {
        case ProtocolStep::Kind::kWaitFull:
          role.wait(ring.full(slot), phase ^ (step.flipParity ? 1U : 0U));
          break;
        case ProtocolStep::Kind::kWaitEmpty:
          role.wait(ring.empty(slot), phase ^ 1U);
          break;
        case ProtocolStep::Kind::kArriveExpectTx:
          role.arriveExpectTx(ring.full(slot), tx);
          break;
        case ProtocolStep::Kind::kCompleteTx:
          role.completeTx(ring.full(slot), tx);
          break;
        case ProtocolStep::Kind::kArriveFull:
          role.arrive(ring.full(slot));
          break;
        case ProtocolStep::Kind::kArriveEmpty:
          role.arrive(ring.empty(slot));
          break;
        case ProtocolStep::Kind::kRun:
          break;
      }
    }
  }

  // The slots the op reads (fills iteration - distance that exist) and the one it writes.
  std::vector<gaus_protocol::Access> accesses(const OpBlock& block, std::int64_t iteration) const {
    std::vector<gaus_protocol::Access> list;
    for (const RingRead& read : block.reads) {
      const std::int64_t fill = iteration - read.distance;
      if (fill < 0) continue;
      gaus_protocol::Ring& ring = *rings_[static_cast<std::size_t>(read.ring)];
      list.push_back(ring.read(ring.slot(fill), fill));
    }
    if (block.fills) {
      gaus_protocol::Ring& ring = *rings_[static_cast<std::size_t>(*block.fills)];
      list.push_back(ring.write(ring.slot(iteration), iteration));
    }
    return list;
  }

  const Pipeline& pipeline_;
  std::vector<gaus_protocol::Ring*> rings_;
  std::int64_t trips_;
};

}  // namespace

gaus_protocol::Spec protocolSpec(const Pipeline& pipeline) {
  const Graph& graph = *pipeline.graph;
  gaus_protocol::Spec spec;
  spec.kernel = pipeline.name;
  spec.ii = pipeline.ii;
  spec.stages = pipeline.stages;
  for (const PipelineRole& role : pipeline.roles) spec.roles.push_back(role.name);
  for (OpId op = 0; op < graph.numOps(); ++op) {
    spec.ops.push_back({graph.opName(op), pipeline.roleOf[op], pipeline.schedule.start[op],
                        pipeline.topologicalPosition[op]});
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    spec.edges.push_back({graph.edgeSource(e), graph.edgeTarget(e), graph.edgeDistance(e)});
  }
  for (const Ring& ring : pipeline.rings) {
    spec.rings.push_back({ring.name, ring.producer, ring.depth, ring.consumerRoles,
                          static_cast<std::uint32_t>(ring.asyncFill ? ring.txBytes : 0)});
  }
  return spec;
}

std::vector<gaus_protocol::Placement> protocolPlacements(const Pipeline& pipeline,
                                                         std::int32_t ring) {
  const std::int32_t addressedAs = pipeline.rings[static_cast<std::size_t>(ring)].addressedAs >= 0
                                       ? pipeline.rings[static_cast<std::size_t>(ring)].addressedAs
                                       : ring;
  std::vector<gaus_protocol::Placement> placements;
  for (const RingPlacement& placement : pipeline.layout.placements) {
    if (placement.ring != ring) continue;
    const RingPlacement* base = pipeline.layout.find(addressedAs, placement.memory);
    placements.push_back({std::string(toString(placement.memory)),
                          base != nullptr ? base->offset : placement.offset, placement.slotStride,
                          placement.bytesPerSlot});
  }
  return placements;
}

ProtocolRun runProtocol(const Pipeline& pipeline, const ProtocolRunOptions& options) {
  gaus_protocol::RunOptions runOptions;
  runOptions.trips = options.trips;
  runOptions.watchdogSeconds = options.watchdogSeconds;
  gaus_protocol::Runtime runtime(protocolSpec(pipeline), runOptions);
  std::vector<gaus_protocol::Ring*> rings;
  for (std::size_t c = 0; c < pipeline.rings.size(); ++c) {
    const Ring& ring = pipeline.rings[c];
    rings.push_back(&runtime.ring(static_cast<int>(c), ring.slots, ring.fullArrivals,
                                  ring.emptyArrivals,
                                  protocolPlacements(pipeline, static_cast<std::int32_t>(c))));
  }
  const RoleWalker walker(pipeline, rings, options.trips);
  const std::vector<std::function<void(gaus_protocol::Role&)>> roles(pipeline.roles.size(), walker);
  runtime.run(roles);
  return {runtime.faults(), runtime.trace(), runtime.report(), runtime.traceText()};
}

}  // namespace gaus::codegen
