// The layout target: the memory layout of a pipeline (memory_layout.cpp) as JSON, for tools and
// for people who size tiles by hand: each ring's memory, base, bytes per slot, stride and slots,
// the barriers, and per memory the total against the capacity. docs/codegen.md "Memory layout"
// describes the fields.

#include <nlohmann/json.hpp>

#include <gaus/codegen/targets.hpp>

namespace gaus::codegen {

std::string renderLayoutJson(const Pipeline& pipeline) {
  const MemoryLayout& layout = pipeline.layout;
  nlohmann::ordered_json rings = nlohmann::ordered_json::array();
  for (const RingPlacement& placement : layout.placements) {
    const Ring& ring = pipeline.rings[static_cast<std::size_t>(placement.ring)];
    nlohmann::ordered_json entry{
        {"ring", ring.name},
        {"producer", pipeline.graph->opName(ring.producer)},
        {"memory", toString(placement.memory)},
        {"base", placement.offset},
        {"bytes_per_slot", placement.bytesPerSlot},
        {"stride", placement.slotStride},
        {"slots", placement.slots},
        {"bytes", placement.bytes()},
        {"holds", placement.stagedRegisters ? "staged registers" : "tile"}};
    if (placement.memory == MemorySpace::kTensor) {
      entry["base_column"] = tensorMemoryColumn(placement.offset);
      entry["columns_per_slot"] = tensorMemoryColumn(placement.slotStride);
    }
    rings.push_back(std::move(entry));
  }
  nlohmann::ordered_json barriers = nlohmann::ordered_json::array();
  for (const BarrierPlacement& barrier : layout.barriers) {
    barriers.push_back({{"ring", pipeline.rings[static_cast<std::size_t>(barrier.ring)].name},
                        {"memory", "smem"},
                        {"full", barrier.fullOffset},
                        {"empty", barrier.emptyOffset},
                        {"slots", barrier.slots}});
  }
  nlohmann::ordered_json memories = nlohmann::ordered_json::array();
  for (const MemoryUse& use : layout.memories) {
    nlohmann::ordered_json entry{{"memory", toString(use.memory)},
                                 {"total", use.total},
                                 {"capacity", use.capacity ? nlohmann::ordered_json(*use.capacity)
                                                           : nlohmann::ordered_json(nullptr)},
                                 {"tiles", use.tileBytes},
                                 {"staged_registers", use.stagedBytes},
                                 {"barriers", use.barrierBytes},
                                 {"alignment", use.paddingBytes}};
    if (use.memory == MemorySpace::kTensor) {
      entry["columns"] = tensorMemoryColumn(use.total);
      entry["allocated_columns"] = tensorMemoryColumnsAllocated(use);
    }
    memories.push_back(std::move(entry));
  }
  const nlohmann::ordered_json document{{"kernel", pipeline.name},
                                        {"ii", pipeline.ii},
                                        {"sharing", "none: every ring has a range of its own"},
                                        {"rings", rings},
                                        {"barriers", barriers},
                                        {"memories", memories}};
  return document.dump(2) + "\n";
}

}  // namespace gaus::codegen
