// Seeded protocol faults (tests only; docs/codegen.md "Mutation test"). Each is a bug that
// warp-specialized compilers have shipped: a stage count one short, an arrival count that does
// not match the barrier's initial count, a consumer that starts on the wrong phase, a producer
// that exits while consumers still hold slots, a consumer that never hands a slot back, two
// values placed at one address (every tensor-memory value at column 0, as the first Blackwell
// kernels were generated). A
// fault changes the protocol as generated (Ring::slots, fullArrivals, consumerParityFlipped,
// RoleProgram::tails, a consumer's releases, Ring::addressedAs), never the specification the
// checker holds the run to (Ring::depth, the arrivals the protocol expects).

#include <algorithm>

#include <fmt/format.h>

#include <gaus/codegen/pipeline.hpp>

namespace gaus::codegen {

namespace {

// Places the second-largest tile of a memory at the base of the largest (tensor memory first,
// where the values of a Blackwell kernel all live at once).
Status aliasRings(Pipeline& pipeline) {
  for (MemorySpace memory : {MemorySpace::kTensor, MemorySpace::kShared}) {
    std::vector<const RingPlacement*> tiles;
    for (const RingPlacement& placement : pipeline.layout.placements) {
      if (placement.memory == memory && !placement.stagedRegisters) tiles.push_back(&placement);
    }
    if (tiles.size() < 2) continue;
    std::stable_sort(tiles.begin(), tiles.end(),
                     [](const auto* a, const auto* b) { return a->bytes() > b->bytes(); });
    const Ring& base = pipeline.rings[static_cast<std::size_t>(tiles[0]->ring)];
    Ring& moved = pipeline.rings[static_cast<std::size_t>(tiles[1]->ring)];
    moved.addressedAs = tiles[0]->ring;
    pipeline.seededFault = fmt::format("ring {} is addressed at the base of ring {} in {}",
                                       moved.name, base.name, toString(memory));
    return Done{};
  }
  return Error{fmt::format("{}: pipeline {} has no memory holding two tiles",
                           toString(ProtocolFault::kAliasedRings), pipeline.name)};
}

}  // namespace

Status seedFault(Pipeline& pipeline, ProtocolFault fault) {
  if (fault == ProtocolFault::kAliasedRings) return aliasRings(pipeline);
  // The deepest channel the fault applies to (the first of equal depth).
  const std::int32_t fewestSlots = fault == ProtocolFault::kRingSlotMissing ? 2 : 1;
  std::optional<std::size_t> target;
  for (std::size_t c = 0; c < pipeline.rings.size(); ++c) {
    const Ring& ring = pipeline.rings[c];
    if (!ring.channel() || ring.depth < fewestSlots) continue;
    if (!target || ring.depth > pipeline.rings[*target].depth) target = c;
  }
  if (!target) {
    return Error{fmt::format("{}: pipeline {} has no channel{}", toString(fault), pipeline.name,
                             fewestSlots > 1 ? " deeper than one slot" : "")};
  }
  Ring& ring = pipeline.rings[*target];
  const auto index = static_cast<std::int32_t>(*target);
  switch (fault) {
    case ProtocolFault::kRingSlotMissing:
      ring.slots = ring.depth - 1;
      pipeline.seededFault =
          fmt::format("ring {} has {} slots for depth {}", ring.name, ring.slots, ring.depth);
      break;
    case ProtocolFault::kWrongArrivalCount:
      ring.fullArrivals = 2;
      pipeline.seededFault = fmt::format(
          "the full barriers of ring {} expect 2 arrivals; its producer makes 1", ring.name);
      break;
    case ProtocolFault::kWrongFirstParity:
      ring.consumerParityFlipped = true;
      pipeline.seededFault =
          fmt::format("the consumers of ring {} wait on full with parity phase ^ 1", ring.name);
      break;
    case ProtocolFault::kMissingProducerTail: {
      // Every tail of the role, not only this ring's: a role that produces two rings read by
      // one op (gemm's load_a and load_b) has them released together, so the other ring's tail
      // covered a missing one, and on an H200 the self-test rightly passed such a copy.
      const auto producer = static_cast<std::size_t>(ring.producerRole);
      pipeline.programs[producer].tails.clear();
      pipeline.seededFault = fmt::format("the producer role {} of ring {} exits without its tails",
                                         pipeline.roles[producer].name, ring.name);
      break;
    }
    case ProtocolFault::kSkippedRelease: {
      const std::int32_t consumer = ring.consumerRoles.front();
      RoleProgram& program = pipeline.programs[static_cast<std::size_t>(consumer)];
      for (OpBlock& block : program.blocks) {
        for (RingRead& read : block.reads) {
          if (read.ring == index) read.release = {};
        }
      }
      for (Drain& drain : program.drains) {
        if (drain.ring == index) drain.fromEnd = 0;
      }
      pipeline.seededFault =
          fmt::format("role {} never releases the slots of ring {}",
                      pipeline.roles[static_cast<std::size_t>(consumer)].name, ring.name);
      break;
    }
    case ProtocolFault::kAliasedRings:
      break;
  }
  return Done{};
}

}  // namespace gaus::codegen
