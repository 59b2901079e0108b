#include <memory>

#include <gaus/io/gs_schedule.hpp>

namespace gaus::io {

Expected<Problem> gsScheduleProblem(const Instance& instance, Cycle stages) {
  const Graph& read = *instance.graph;
  GraphBuilder builder(read.name());
  for (OpId op = 0; op < read.numOps(); ++op) {
    const OpId copy = builder.addOp(read.opName(op), 1);
    builder.setWeight(copy, read.weight(op));
  }
  for (EdgeId e = 0; e < read.numEdges(); ++e) {
    const EdgeId copy = builder.addEdge(read.edgeSource(e), read.edgeTarget(e), 0, 0);
    builder.setEdgeComm(copy, read.edgeComm(e));
  }
  auto graph = std::move(builder).build();
  if (!graph) return Error{instance.name + ": " + graph.error()};
  Problem problem;
  problem.graph = std::make_shared<const Graph>(std::move(graph).value());
  problem.machine = instance.machine;
  problem.kind = ProblemKind::kLatencyBounded;
  problem.horizon = stages;
  return problem;
}

}  // namespace gaus::io
