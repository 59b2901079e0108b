// AIGER and-inverter graphs (../shared/benchmarks/epfl-combinational and hand-made files).
#include <catch2/catch.hpp>

#include <gaus/core/analysis.hpp>
#include <gaus/io/io.hpp>

#include "io_test_support.hpp"

using namespace gaus;

TEST_CASE("AIGER: the EPFL circuits match the README's nodes, edges and depth", "[io][aiger]") {
  struct Row {
    const char* file;
    OpId inputs;
    OpId ands;
    EdgeId edges;
    std::int64_t depth;  // AIG levels, inputs at level 0
  };
  // The table of benchmarks/epfl-combinational/README.md: DAG nodes = PIs + ANDs, DAG edges =
  // 2 x ANDs (no constant fan-ins), nodes on the longest path = depth + 1.
  const Row rows[] = {
      {"ctrl", 7, 174, 348, 10},       {"int2float", 11, 260, 520, 16},
      {"dec", 8, 304, 608, 3},         {"router", 60, 257, 514, 54},
      {"cavlc", 10, 693, 1386, 16},    {"priority", 128, 978, 1956, 250},
      {"adder", 256, 1020, 2040, 255}, {"i2c", 147, 1342, 2684, 20},
      {"max", 512, 2865, 5730, 287},   {"bar", 135, 3336, 6672, 12},
      {"sin", 24, 5416, 10832, 225},
  };
  for (const Row& row : rows) {
    INFO(row.file);
    const Instance instance = gaus::test::loadOne(
        gaus::test::sharedPath(std::string("benchmarks/epfl-combinational/") + row.file + ".aig"));
    const Graph& graph = *instance.graph;
    CHECK(graph.numOps() == row.inputs + row.ands);
    CHECK(graph.numEdges() == row.edges);
    OpId inputs = 0;
    for (OpId op = 0; op < graph.numOps(); ++op) inputs += graph.opKind(op) == "PI" ? 1 : 0;
    CHECK(inputs == row.inputs);
    const auto summary = summarizeGraph(graph, *instance.machine);
    REQUIRE(summary.ok());
    CHECK(summary->depth == row.depth + 1);         // nodes on the longest path
    CHECK(summary->criticalPath == row.depth + 1);  // latency 1 per node
  }
}

TEST_CASE("AIGER binary: a single AND gate decodes its deltas", "[io][aiger]") {
  // "aig 3 2 0 1 1", output 6, gate 3: lhs 6, deltas 2 and 2 -> rhs0 4 (input 1), rhs1 2 (input 0).
  const Instance instance = gaus::test::loadOne(gaus::test::dataPath("aiger/and2.aig"));
  const Graph& graph = *instance.graph;
  REQUIRE(graph.numOps() == 3);
  CHECK(graph.opName(0) == "i0");
  CHECK(graph.opName(2) == "a0");
  CHECK(graph.opKind(2) == "AND");
  CHECK(graph.mem(2) == 1.0);
  REQUIRE(graph.numEdges() == 2);
  CHECK(graph.edgeSource(0) == 1);  // rhs0 first
  CHECK(graph.edgeSource(1) == 0);
  CHECK(graph.edgeTarget(0) == 2);
  CHECK(graph.edgeDelay(0) == 1);
  CHECK_FALSE(instance.machine->resources[0].limited());
}

TEST_CASE("AIGER ASCII: a latch becomes a loop-carried edge", "[io][aiger]") {
  // latch.aag: i0 (var 1), l0 (var 2, next = var 4), a0 = i0 & l0 (var 3), a1 = a0 & !i0 (var 4).
  const Instance instance = gaus::test::loadOne(gaus::test::dataPath("aiger/latch.aag"));
  const Graph& graph = *instance.graph;
  REQUIRE(graph.numOps() == 4);
  CHECK(graph.opName(1) == "l0");
  CHECK(graph.opKind(1) == "LATCH");
  // Fan-ins i0, l0 -> a0; a0, i0 -> a1; a1 -> l0 with distance 1.
  REQUIRE(graph.numEdges() == 5);
  CHECK(graph.edgeSource(4) == 3);
  CHECK(graph.edgeTarget(4) == 1);
  CHECK(graph.edgeDistance(4) == 1);
  // The cycle l0 -> a0 -> a1 -> l0 has delay 3 over distance 1.
  CHECK(computeRecMii(graph).value == 3);
}
