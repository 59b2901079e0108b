#include <fmt/format.h>

#include <gaus/core/instance.hpp>
#include <gaus/core/stage_objective.hpp>

namespace gaus {

Problem Instance::problem(ProblemKind kind, std::optional<Cycle> horizon,
                          std::optional<std::int32_t> ii) const {
  Problem result;
  result.graph = graph;
  result.machine = machine;
  result.kind = kind;
  result.horizon = horizon;
  result.ii = ii;
  // A graph that cannot be rebuilt stays as read; Problem::check then names what is wrong.
  if (kind == ProblemKind::kStages) {
    if (auto stages = stageGraph(*graph)) {
      result.graph = std::make_shared<const Graph>(std::move(stages).value());
    }
  }
  return withFacts(std::move(result));
}

Expected<Instance> rebindMachine(const Instance& instance, const Machine& machine) {
  const Graph& graph = *instance.graph;
  const Machine& old = *instance.machine;
  std::vector<ResourceId> resourceMap(old.resources.size(), -1);
  std::vector<MemoryId> memoryMap(old.memories.size(), -1);
  GraphBuilder builder(graph.name());
  builder.reserve(static_cast<std::size_t>(graph.numOps()),
                  static_cast<std::size_t>(graph.numEdges()));
  for (OpId op = 0; op < graph.numOps(); ++op) {
    OpAttributes attributes = graph.opAttributes(op);
    for (auto& block : attributes.reservation) {
      auto& mapped = resourceMap[block.resource];
      if (mapped < 0) {
        const auto found = machine.findResource(old.resources[block.resource].name);
        if (!found) {
          return Error{fmt::format("machine '{}' has no resource '{}', which op '{}' reserves",
                                   machine.name, old.resources[block.resource].name,
                                   attributes.name)};
        }
        mapped = *found;
      }
      block.resource = mapped;
    }
    for (auto& footprint : attributes.footprints) {
      auto& mapped = memoryMap[footprint.memory];
      if (mapped < 0) {
        const auto found = machine.findMemory(old.memories[footprint.memory].name);
        if (!found) {
          return Error{fmt::format("machine '{}' has no memory '{}', which op '{}' occupies",
                                   machine.name, old.memories[footprint.memory].name,
                                   attributes.name)};
        }
        mapped = *found;
      }
      footprint.memory = mapped;
    }
    builder.addOp(attributes);
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) builder.addEdge(graph.edgeAttributes(e));
  auto built = std::move(builder).build(true);
  if (!built) return Error{built.error()};
  Instance rebound = instance;
  rebound.graph = std::make_shared<const Graph>(std::move(built).value());
  rebound.machine = std::make_shared<const Machine>(machine);
  return rebound;
}

}  // namespace gaus
