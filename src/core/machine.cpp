#include <limits>

#include <gaus/core/machine.hpp>

namespace gaus {

std::optional<ResourceId> Machine::findResource(std::string_view resourceName) const {
  for (ResourceId r = 0; r < numResources(); ++r) {
    if (resources[r].name == resourceName) return r;
  }
  return std::nullopt;
}

std::optional<MemoryId> Machine::findMemory(std::string_view memoryName) const {
  for (MemoryId m = 0; m < static_cast<MemoryId>(memories.size()); ++m) {
    if (memories[m].name == memoryName) return m;
  }
  return std::nullopt;
}

ResourceId Machine::addResource(std::string_view resourceName,
                                std::optional<std::int32_t> capacity) {
  if (const auto existing = findResource(resourceName)) return *existing;
  resources.push_back(Resource{std::string(resourceName), capacity});
  return numResources() - 1;
}

std::int64_t Machine::capacityOrMax(ResourceId r) const {
  const auto& capacity = resources[r].capacity;
  return capacity ? *capacity : std::numeric_limits<std::int64_t>::max();
}

}  // namespace gaus
