// The CUDA kernel's SharedStorage (cuda_target.cpp): each ring's slots at the offset the memory
// layout gives it, then the mbarriers, with static_asserts that hold the compiler to those
// offsets and to the size.

#include <fmt/format.h>

#include <gaus/codegen/targets.hpp>

#include "cuda_text.hpp"

namespace gaus::codegen::detail {

std::string cudaSharedStorage(const Pipeline& pipeline) {
  const MemoryUse& shared = *pipeline.layout.use(MemorySpace::kShared);
  if (shared.total == 0) {
    return "// Shared memory: nothing (no ring and no barrier in it).\nstruct SharedStorage {};\n"
           "constexpr std::size_t kSharedBytes = 0;\n\n";
  }
  std::string text =
      "// Shared memory as the memory layout places it (docs/codegen.md \"Memory layout\"): "
      "each\n// ring's slots at its offset, then the mbarriers. The static_asserts hold the "
      "compiler to it\n// (each ring's offset, the first barrier's, the size).\nstruct "
      "SharedStorage {\n";
  std::vector<std::pair<std::string, std::int64_t>> members;  // name, offset
  for (const RingPlacement& placement : pipeline.layout.placements) {
    if (placement.memory != MemorySpace::kShared) continue;
    const Ring& ring = pipeline.rings[static_cast<std::size_t>(placement.ring)];
    if (placement.stagedRegisters) {
      const PipelineRole& producer = pipeline.roles[static_cast<std::size_t>(ring.producerRole)];
      text += fmt::format(
          "  alignas({}) {}_value {}[{}][{}];  // offset {}: staged from the registers of {}'s "
          "{} threads\n",
          kSharedAlignment, ring.name, ring.name, placement.slots, producer.threads(),
          placement.offset, producer.name, producer.threads());
    } else {
      const std::string stride = placement.slotStride == placement.bytesPerSlot
                                     ? ring.name + "_smem_bytes"
                                     : fmt::format("{}", placement.slotStride);
      text += fmt::format("  alignas({}) unsigned char {}[{}][{}];  // offset {}\n",
                          kSharedAlignment, ring.name, placement.slots, stride, placement.offset);
    }
    members.emplace_back(ring.name, placement.offset);
  }
  bool first = true;
  for (const BarrierPlacement& barriers : pipeline.layout.barriers) {
    const std::string& name = pipeline.rings[static_cast<std::size_t>(barriers.ring)].name;
    text += fmt::format(
        "  {}std::uint64_t full_{}[{}];  // offset {}\n  std::uint64_t empty_{}[{}];  // offset "
        "{}\n",
        first ? fmt::format("alignas({}) ", kBarrierBytes) : "", name, barriers.slots,
        barriers.fullOffset, name, barriers.slots, barriers.emptyOffset);
    // The barrier arrays follow each other at 8 bytes each: the first one's offset fixes all.
    if (first) members.emplace_back("full_" + name, barriers.fullOffset);
    first = false;
  }
  text += "};\n";
  for (const auto& [member, offset] : members) {
    text += fmt::format(
        "static_assert(offsetof(SharedStorage, {}) == {}, \"{} is not where the memory "
        "layout puts it\");\n",
        member, offset, member);
  }
  text += fmt::format(
      "static_assert(sizeof(SharedStorage) == {}, \"SharedStorage is not the size of the "
      "memory layout\");\nconstexpr std::size_t kSharedBytes = sizeof(SharedStorage);\n\n",
      shared.total);
  return text;
}

}  // namespace gaus::codegen::detail
