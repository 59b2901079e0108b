// Seeded protocol faults (tests only; docs/codegen.md "Mutation test"). Each is a bug that
// warp-specialized compilers have shipped: a stage count one short, an arrival count that does
// not match the barrier's initial count, a consumer that starts on the wrong phase, a producer
// that exits while consumers still hold slots, a consumer that never hands a slot back. A
// fault changes the protocol as generated (Ring::slots, fullArrivals, consumerParityFlipped,
// RoleProgram::tails, a consumer's releases), never the specification the checker holds the
// run to (Ring::depth, the arrivals the protocol expects).

#include <algorithm>

#include <fmt/format.h>

#include <gaus/codegen/pipeline.hpp>

namespace gaus::codegen {

Status seedFault(Pipeline& pipeline, ProtocolFault fault) {
  // The deepest channel the fault applies to (the first of equal depth).
  const std::int32_t fewestSlots = fault == ProtocolFault::kRingSlotMissing ? 2 : 1;
  std::optional<std::size_t> target;
  for (std::size_t c = 0; c < pipeline.rings.size(); ++c) {
    const Ring& ring = pipeline.rings[c];
    if (!ring.channel() || ring.depth < fewestSlots) continue;
    if (!target || ring.depth > pipeline.rings[*target].depth) target = c;
  }
  if (!target) {
    return Error{fmt::format("{}: pipeline {} has no channel {}", toString(fault), pipeline.name,
                             fewestSlots > 1 ? "deeper than one slot" : "")};
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
      auto& tails = pipeline.programs[static_cast<std::size_t>(ring.producerRole)].tails;
      tails.erase(std::remove(tails.begin(), tails.end(), index), tails.end());
      pipeline.seededFault =
          fmt::format("the producer of ring {} exits without its tail", ring.name);
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
  }
  return Done{};
}

}  // namespace gaus::codegen
