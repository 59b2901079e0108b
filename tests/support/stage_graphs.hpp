// Stage problems written by hand for tests (ProblemKind::kStages): ops of latency 1 with their
// weights, delay-0 edges with their comm, as core's stageGraph builds them from a graph as read.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/core/problem.hpp>

namespace gaus::test {

struct StageGraphSpec {
  std::vector<double> weights;
  std::vector<std::pair<OpId, OpId>> edges;
  std::vector<double> comm;  // per edge
};

inline Graph stageGraphOf(const StageGraphSpec& spec) {
  GraphBuilder builder("stages");
  for (std::size_t op = 0; op < spec.weights.size(); ++op) {
    builder.setWeight(builder.addOp("op" + std::to_string(op), 1), spec.weights[op]);
  }
  for (std::size_t e = 0; e < spec.edges.size(); ++e) {
    const EdgeId edge = builder.addEdge(spec.edges[e].first, spec.edges[e].second, 0, 0);
    builder.setEdgeComm(edge, spec.comm[e]);
  }
  auto graph = std::move(builder).build();
  REQUIRE(graph.ok());
  return std::move(graph).value();
}

inline Problem stageProblem(const Graph& graph, Cycle stages, double ratio) {
  Problem problem;
  problem.graph = std::make_shared<const Graph>(graph);
  problem.machine = std::make_shared<const Machine>();
  problem.kind = ProblemKind::kStages;
  problem.horizon = stages;
  problem.stageRatio = ratio;
  return problem;
}

}  // namespace gaus::test
