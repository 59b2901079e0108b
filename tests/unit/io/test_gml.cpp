// networkx GML, as in the GS-Schedule random workloads
// (../shared/benchmarks/gs-schedule-icml24-rw).
#include <catch2/catch.hpp>

#include <gaus/core/analysis.hpp>
#include <gaus/io/io.hpp>

#include "io_test_support.hpp"

using namespace gaus;

TEST_CASE("GML: the six GS-Schedule graphs match the README's counts", "[io][gml]") {
  struct Row {
    const char* file;
    OpId nodes;
    EdgeId edges;
    EdgeId comm;
    std::int64_t depth;
    double sumP;
  };
  // The table of benchmarks/gs-schedule-icml24-rw/README.md (computed there with networkx).
  const Row rows[] = {
      {"rand_graph_1000_1", 949, 2730, 1092, 15, 1134096},
      {"rand_graph_1000_2", 941, 2790, 1116, 16, 1102143},
      {"rand_graph_1000_3", 929, 2762, 1104, 16, 1106211},
      {"rand_graph_sparse_1000_1", 810, 946, 378, 9, 947733},
      {"rand_graph_sparse_1000_2", 819, 988, 395, 8, 954525},
      {"rand_graph_sparse_1000_3", 829, 1070, 428, 8, 1026289},
  };
  for (const Row& row : rows) {
    INFO(row.file);
    const Instance instance = gaus::test::loadOne(gaus::test::sharedPath(
        std::string("benchmarks/gs-schedule-icml24-rw/") + row.file + ".gml"));
    const Graph& graph = *instance.graph;
    CHECK(graph.numOps() == row.nodes);
    CHECK(graph.numEdges() == row.edges);
    EdgeId comm = 0;
    for (EdgeId e = 0; e < graph.numEdges(); ++e) comm += graph.edgeComm(e) == 1.0 ? 1 : 0;
    CHECK(comm == row.comm);
    double sumP = 0;
    for (OpId op = 0; op < graph.numOps(); ++op) sumP += graph.weight(op);
    CHECK(sumP == row.sumP);
    // Latency 1 per op: the critical path in cycles is the number of nodes on the longest path.
    const auto order = topologicalOrder(graph);
    REQUIRE(order.ok());
    CHECK(criticalPathLength(graph, asapTimes(graph, *order)) == row.depth);
  }
}

TEST_CASE("GML: names, weights and comm of a hand-made graph", "[io][gml]") {
  const auto path = gaus::test::dataPath("gml/tiny.gml");
  const Instance instance = gaus::test::loadOne(path);
  const Graph& graph = *instance.graph;
  REQUIRE(graph.numOps() == 3);
  CHECK(graph.opName(0) == "a");
  CHECK(graph.opName(2) == "7");  // no label: named by its id
  CHECK(graph.weight(0) == 5);
  CHECK(graph.mem(0) == 5);
  CHECK(graph.weight(2) == 2.5);
  CHECK(graph.latency(1) == 1);
  REQUIRE(graph.numEdges() == 3);
  // parameter 30000 -> 1 (binarized), 0 -> 0, none -> 0.
  CHECK(graph.edgeComm(0) == 1.0);
  CHECK(graph.edgeComm(1) == 0.0);
  CHECK(graph.edgeComm(2) == 0.0);
  CHECK(graph.edgeTarget(2) == 2);

  io::ReadOptions raw;
  raw.binarizeComm = false;
  CHECK(gaus::test::loadOne(path, raw).graph->edgeComm(0) == 30000.0);
}
