// The memory layout of a pipeline (docs/codegen.md "Memory layout"): one pass that gives every
// ring its memory, its offset and its slots, and the channels their mbarriers, computed once in
// buildPipeline and read by every target.
//
// - Shared memory holds, in ring order, the slots of each value with a shared-memory footprint
//   and of each register value staged between roles (regs x 4 bytes per thread of the producing
//   role; a value without registers carries no data, only its barriers), each range aligned to
//   128 bytes as CUTLASS aligns its sm90 TensorStorage; then the full and empty mbarriers of
//   every channel, 8 bytes each. The total is what sizeof(SharedStorage) comes to by the C++
//   layout rules (the struct's size rounded up to its alignment), and the CUDA kernel asserts
//   it.
// - Tensor memory (Blackwell) is 128 lanes x 512 columns of 4 bytes: a value's bytes take
//   bytes / 512 columns, every slot a whole number of columns; tcgen05.alloc then takes the next
//   power of two of at least 32 columns.
// - Each ring has a range of its own. Sharing an address between two rings would be sound only
//   where the schedule proves their lifetimes disjoint; no layout here shares, and the protocol
//   checker (protocol_runtime.hpp) reports any write over a fill still to be read.
// Footprints in a memory other than smem and tmem have no place in the generated kernel, and
// the pipeline is refused naming them.

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "pipeline_steps.hpp"

namespace gaus::codegen {

const RingPlacement* MemoryLayout::find(std::int32_t ring, MemorySpace memory) const {
  for (const RingPlacement& placement : placements) {
    if (placement.ring == ring && placement.memory == memory) return &placement;
  }
  return nullptr;
}

const MemoryUse* MemoryLayout::use(MemorySpace memory) const {
  for (const MemoryUse& used : memories) {
    if (used.memory == memory) return &used;
  }
  return nullptr;
}

std::int64_t tensorMemoryColumnsAllocated(const MemoryUse& tensor) {
  const auto columns = static_cast<std::uint64_t>(tensor.total / kTensorMemoryColumnBytes);
  return std::max<std::int64_t>(kTensorMemoryFewestColumns,
                                static_cast<std::int64_t>(std::bit_ceil(columns)));
}

namespace detail {

namespace {

std::int64_t roundUp(std::int64_t value, std::int64_t step) {
  return (value + step - 1) / step * step;
}

std::optional<MemorySpace> spaceOf(std::string_view memoryName) {
  return kMemorySpaceNames.parse(memoryName);
}

// Lays out one memory: the placements of `space` get their offsets in ring order.
MemoryUse layOut(MemoryLayout& layout, MemorySpace space, std::int64_t alignment,
                 std::optional<std::int64_t> capacity) {
  MemoryUse use;
  use.memory = space;
  use.capacity = capacity;
  std::int64_t end = 0;
  for (RingPlacement& placement : layout.placements) {
    if (placement.memory != space) continue;
    placement.slotStride = roundUp(placement.bytesPerSlot, alignment);
    placement.offset = roundUp(end, alignment);
    end = placement.offset + placement.bytes();
    (placement.stagedRegisters ? use.stagedBytes : use.tileBytes) +=
        placement.bytesPerSlot * placement.slots;
  }
  use.total = end;
  return use;
}

}  // namespace

Status layOutMemory(Pipeline& pipeline) {
  const Graph& graph = *pipeline.graph;
  const Machine& machine = *pipeline.machine;
  MemoryLayout layout;
  for (std::size_t r = 0; r < pipeline.rings.size(); ++r) {
    Ring& ring = pipeline.rings[r];
    const auto index = static_cast<std::int32_t>(r);
    for (const MemoryFootprint& print : ring.bytesPerSlot) {
      const std::string& name = machine.memories[static_cast<std::size_t>(print.memory)].name;
      const auto space = spaceOf(name);
      if (!space) {
        return Error{fmt::format(
            "{} has a footprint in memory '{}'; the generated kernel lays out shared memory "
            "(smem) and tensor memory (tmem) only",
            graph.opName(ring.producer), name)};
      }
      layout.placements.push_back({index, *space, 0, print.amount, 0, ring.depth, false});
    }
    // A register value read by another role travels through shared memory: each thread of the
    // producing role stages its registers there.
    const std::int64_t stagedBytes = static_cast<std::int64_t>(graph.regs(ring.producer)) * 4 *
                                     pipeline.roles[ring.producerRole].threads();
    if (ring.bytesPerSlot.empty() && ring.channel() && stagedBytes > 0) {
      layout.placements.push_back(
          {index, MemorySpace::kShared, 0, stagedBytes, 0, ring.depth, true});
    }
  }
  std::stable_sort(
      layout.placements.begin(), layout.placements.end(),
      [](const RingPlacement& a, const RingPlacement& b) { return a.memory < b.memory; });

  const auto capacityOf = [&](MemorySpace space) -> std::optional<std::int64_t> {
    if (const auto id = machine.findMemory(toString(space))) {
      return machine.memories[static_cast<std::size_t>(*id)].capacity;
    }
    return std::nullopt;
  };
  MemoryUse shared =
      layOut(layout, MemorySpace::kShared, kSharedAlignment, capacityOf(MemorySpace::kShared));
  const bool anyShared = shared.total > 0;
  std::int64_t end = shared.total;
  for (std::size_t r = 0; r < pipeline.rings.size(); ++r) {
    const Ring& ring = pipeline.rings[r];
    if (!ring.channel()) continue;
    BarrierPlacement barriers{static_cast<std::int32_t>(r), end, end + ring.depth * kBarrierBytes,
                              ring.depth};
    end = barriers.emptyOffset + ring.depth * kBarrierBytes;
    shared.barrierBytes += 2 * ring.depth * kBarrierBytes;
    layout.barriers.push_back(barriers);
  }
  // sizeof(SharedStorage): its end rounded up to its alignment, the largest of its members'.
  shared.total = roundUp(end, anyShared ? kSharedAlignment : kBarrierBytes);
  shared.paddingBytes = shared.total - shared.tileBytes - shared.stagedBytes - shared.barrierBytes;
  layout.memories.push_back(shared);
  const bool anyTensor =
      std::any_of(layout.placements.begin(), layout.placements.end(),
                  [](const RingPlacement& p) { return p.memory == MemorySpace::kTensor; });
  if (anyTensor) {
    MemoryUse tensor = layOut(layout, MemorySpace::kTensor, kTensorMemoryColumnBytes,
                              capacityOf(MemorySpace::kTensor));
    tensor.paddingBytes = tensor.total - tensor.tileBytes;
    layout.memories.push_back(tensor);
  }

  for (std::size_t r = 0; r < pipeline.rings.size(); ++r) {
    Ring& ring = pipeline.rings[r];
    const RingPlacement* tile = layout.find(static_cast<std::int32_t>(r), MemorySpace::kShared);
    // The copy brings one slot of the value's tile into shared memory: the bytes its full
    // barrier expects (CUTLASS's transaction bytes, the tile sizes of one stage).
    ring.txBytes = tile != nullptr && !tile->stagedRegisters ? tile->bytesPerSlot : 0;
    ring.asyncFill = graph.streaming(ring.producer) && ring.channel() && ring.txBytes > 0;
  }
  pipeline.layout = std::move(layout);
  return Done{};
}

Status layoutFitsMemories(const Pipeline& pipeline) {
  const MemoryLayout& layout = pipeline.layout;
  for (const MemoryUse& use : layout.memories) {
    if (!use.capacity || use.total <= *use.capacity) continue;
    std::vector<const RingPlacement*> largest;
    for (const RingPlacement& placement : layout.placements) {
      if (placement.memory == use.memory) largest.push_back(&placement);
    }
    std::stable_sort(
        largest.begin(), largest.end(),
        [](const RingPlacement* a, const RingPlacement* b) { return a->bytes() > b->bytes(); });
    constexpr std::size_t kNamed = 4;
    std::string rings;
    for (std::size_t i = 0; i < largest.size() && i < kNamed; ++i) {
      const RingPlacement& placement = *largest[i];
      rings += fmt::format("{}{} {} x {}{}", i == 0 ? "" : ", ",
                           pipeline.rings[static_cast<std::size_t>(placement.ring)].name,
                           placement.slots, placement.slotStride,
                           placement.stagedRegisters ? " (staged registers)" : "");
    }
    if (largest.size() > kNamed) rings += fmt::format(", and {} more", largest.size() - kNamed);
    const std::string parts =
        use.memory == MemorySpace::kShared
            ? fmt::format("tiles {}, staged registers {}, barriers {}, alignment {}", use.tileBytes,
                          use.stagedBytes, use.barrierBytes, use.paddingBytes)
            : fmt::format("tiles {}, column rounding {}", use.tileBytes, use.paddingBytes);
    return Error{fmt::format(
        "the memory layout of {} needs {} bytes of {} ({}), more than its capacity {}; largest "
        "rings (slots x bytes): {}. The schedule keeps more iterations in flight, or stages more "
        "values between roles, than the memory holds (schedule with a memory model, e.g. gaus "
        "twill, or with fewer cycles between producers and readers)",
        pipeline.name, use.total, toString(use.memory), parts, *use.capacity, rings)};
  }
  return Done{};
}

}  // namespace detail
}  // namespace gaus::codegen
