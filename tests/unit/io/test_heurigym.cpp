// HeuriGym operator scheduling graphs (../shared/benchmarks/heurigym-operator-scheduling).
#include <catch2/catch.hpp>

#include <gaus/core/analysis.hpp>
#include <gaus/io/io.hpp>

#include "io_test_support.hpp"

using namespace gaus;

TEST_CASE("HeuriGym: every instance matches the README's ops, edges, critical path and baseline",
          "[io][heurigym]") {
  struct Row {
    const char* file;
    OpId ops;
    EdgeId edges;
    Cycle criticalPath;
    double baseline;
  };
  // The table of benchmarks/heurigym-operator-scheduling/README.md.
  const Row rows[] = {
      {"demo/demo", 3, 2, 4, 4},
      {"demo/hal", 11, 8, 6, 7},
      {"demo/horner", 18, 16, 11, 18},
      {"small/arf", 28, 30, 11, 16},
      {"small/motion", 32, 29, 7, 12},
      {"small/ewf", 34, 47, 17, 21},
      {"small/fir2", 40, 39, 12, 17},
      {"small/fir1", 44, 43, 12, 16},
      {"small/h2v2", 51, 52, 17, 23},
      {"small/feedback", 53, 50, 9, 13},
      {"small/collapse", 56, 73, 8, 11},
      {"small/cosine1", 66, 76, 10, 15},
      {"small/cosine2", 82, 91, 10, 20},
      {"medium/write", 106, 88, 8, 11},
      {"medium/interpolate", 108, 104, 10, 14},
      {"medium/matmul", 109, 116, 11, 16},
      {"medium/idctcol", 114, 164, 19, 22},
      {"medium/jpeg_idct", 122, 162, 17, 26},
      {"medium/jpeg_fdct", 134, 169, 16, 23},
      {"medium/smooth", 197, 196, 15, 21},
      {"medium/invert", 333, 354, 15, 23},
  };
  for (const Row& row : rows) {
    INFO(row.file);
    const Instance instance = gaus::test::loadOne(gaus::test::sharedPath(
        std::string("benchmarks/heurigym-operator-scheduling/") + row.file + ".json"));
    const Graph& graph = *instance.graph;
    CHECK(graph.numOps() == row.ops);
    CHECK(graph.numEdges() == row.edges);
    const auto order = topologicalOrder(graph);
    REQUIRE(order.ok());
    CHECK(criticalPathLength(graph, asapTimes(graph, *order)) == row.criticalPath);
    REQUIRE(instance.reference.count("baseline_latency") == 1);
    CHECK(instance.reference.at("baseline_latency") == row.baseline);
  }
}

TEST_CASE("HeuriGym: hal maps types to resources held for the whole delay", "[io][heurigym]") {
  // hal.json: delay {mul 2, sub 1, add 1, les 1}, resource {mul 2, sub 1, add 1, les 1}; node
  // "3" is a mul fed by "1" and "2"; the instance takes the file's name, not "hal1".
  const Instance instance = gaus::test::loadOne(
      gaus::test::sharedPath("benchmarks/heurigym-operator-scheduling/demo/hal.json"));
  CHECK(instance.name == "hal");
  const Machine& machine = *instance.machine;
  REQUIRE(machine.resources.size() == 4);
  CHECK(machine.resources[0] == Resource{"mul", 2});
  CHECK(machine.resources[1] == Resource{"sub", 1});
  const Graph& graph = *instance.graph;
  const OpId three = graph.findOp("3").value();
  CHECK(graph.opKind(three) == "mul");
  CHECK(graph.latency(three) == 2);
  REQUIRE(graph.reservation(three).size() == 1);
  CHECK(graph.reservation(three)[0] == ReservationBlock{0, 0, 2, 1});
  // Edge "1" -> "3": delay = latency of the source, a mul: 2.
  CHECK(graph.edgeSource(0) == graph.findOp("1").value());
  CHECK(graph.edgeTarget(0) == three);
  CHECK(graph.edgeDelay(0) == 2);
  // ResMII: 6 mul ops x 2 cycles / 2 units = 6.
  CHECK(computeResMii(graph, machine).value == 6);
}

TEST_CASE("HeuriGym: no baseline figure without a baseline.json above the file", "[io][heurigym]") {
  gaus::test::TempFolder folder;
  const auto path =
      folder.write("tiny.json", R"({"name": "t", "delay": {"add": 1}, "resource": {"add": 1},
                       "nodes": [["a", "add"], ["b", "add"]], "edges": [["a", "b", "0"]]})");
  const Instance instance = gaus::test::loadOne(path);
  CHECK(instance.reference.empty());
  // With one beside it, the figure under the file's stem.
  folder.write("baseline.json", R"({"tiny": 3, "other": 9})");
  CHECK(gaus::test::loadOne(path).reference.at("baseline_latency") == 3);
}
