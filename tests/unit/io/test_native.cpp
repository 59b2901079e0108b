// The native format (docs/formats.md "Native format"): the example of the documentation, its
// YAML twin, members in any order, and machines named by file.
#include <catch2/catch.hpp>

#include <gaus/core/analysis.hpp>
#include <gaus/io/io.hpp>

#include "io_test_support.hpp"

using namespace gaus;
using gaus::test::dataPath;
using gaus::test::loadOne;

TEST_CASE("native JSON reads the example of docs/formats.md field by field", "[io][native]") {
  const Instance instance = loadOne(dataPath("native/toy_fa.json"));
  CHECK(instance.name == "toy_fa");
  const Machine& machine = *instance.machine;
  CHECK(machine.name == "toy");
  REQUIRE(machine.resources.size() == 2);
  CHECK(machine.resources[0] == Resource{"TC", 1});
  CHECK(machine.resources[1] == Resource{"EXP", 1});
  REQUIRE(machine.memories.size() == 1);
  CHECK(machine.memories[0] == Memory{"smem", 232448});
  CHECK(machine.warps == 4);
  CHECK(machine.registerLimit == 240);
  CHECK(machine.variableLatencyWarp == 0);

  const Graph& graph = *instance.graph;
  REQUIRE(graph.numOps() == 3);
  CHECK(graph.name() == "toy_fa");
  CHECK(graph.opName(0) == "S");
  CHECK(graph.opKind(0) == "mma");
  // S: one explicit block on TC; P: `uses` EXP, occupancy defaults to max(1, latency) = 1.
  REQUIRE(graph.reservation(0).size() == 1);
  CHECK(graph.reservation(0)[0] == ReservationBlock{0, 0, 1, 1});
  REQUIRE(graph.reservation(1).size() == 1);
  CHECK(graph.reservation(1)[0] == ReservationBlock{1, 0, 1, 1});
  CHECK(graph.regs(2) == 64);
  REQUIRE(graph.footprints(2).size() == 1);
  CHECK(graph.footprints(2)[0] == MemoryFootprint{0, 16384});

  REQUIRE(graph.numEdges() == 3);
  CHECK(graph.edgeDelay(0) == 1);
  CHECK(graph.edgeDelay(1) == 1);  // no delay given: latency(P) = 1
  CHECK(graph.edgeDistance(2) == 1);
  // TWILL.md's toy loop: ResMII 2 (two 1-cycle TC ops on one TC), RecMII 1 (O -> O).
  CHECK(computeResMii(graph, machine).value == 2);
  CHECK(computeRecMii(graph).value == 1);

  REQUIRE(instance.schedule.has_value());
  CHECK(instance.schedule->ii == 2);
  CHECK(instance.schedule->start == std::vector<Cycle>{0, 2, 3});
  CHECK_FALSE(instance.schedule->warps.has_value());
  CHECK(instance.reference.at("min_ii") == 2);
}

TEST_CASE("the YAML twin of the example reads to the same instance", "[io][native]") {
  const Instance json = loadOne(dataPath("native/toy_fa.json"));
  const Instance yaml = loadOne(dataPath("native/toy_fa.yaml"));
  CHECK(gaus::test::firstDifference(json, yaml) == "");
}

TEST_CASE("native members may come in any order", "[io][native]") {
  // Edges first (by name and by index), then ops naming resources, then the machine.
  const Instance instance = loadOne(dataPath("native/any_order.json"));
  const Graph& graph = *instance.graph;
  REQUIRE(graph.numOps() == 3);
  REQUIRE(graph.numEdges() == 3);
  CHECK(instance.name == "any_order");  // no "name": the file's stem
  CHECK(graph.edgeSource(0) == 0);
  CHECK(graph.edgeTarget(0) == 1);
  CHECK(graph.edgeDelay(0) == 2);  // latency(a)
  CHECK(graph.edgeDelay(1) == 5);
  CHECK(graph.edgeSource(2) == 2);  // [2, 0, 1, 1]: indices, delay 1, distance 1
  CHECK(graph.edgeTarget(2) == 0);
  CHECK(graph.edgeDistance(2) == 1);
  // b uses MUL (the machine's resource #1) for occupancy 1, although its latency is 3.
  REQUIRE(graph.reservation(1).size() == 1);
  CHECK(graph.reservation(1)[0] == ReservationBlock{1, 0, 1, 1});
  CHECK_FALSE(instance.machine->resources[1].capacity.has_value());
}

TEST_CASE("a machine named by a string is found in configs/machines", "[io][native]") {
  // "hls_small": not beside the document, so configs/machines/ of a folder above it (the
  // source tree) holds it.
  const Instance instance = loadOne(dataPath("native/machine_by_name.json"));
  CHECK(instance.machine->name == "hls_small");
  const auto mul = instance.machine->findResource("MUL");
  REQUIRE(mul.has_value());
  CHECK(instance.machine->resources[*mul].capacity == 1);
  CHECK(instance.graph->reservation(0)[0].resource == *mul);
}

TEST_CASE("a machine named by a relative path is read beside the document", "[io][native]") {
  const Instance instance = loadOne(dataPath("native/machine_by_path.json"));
  CHECK(instance.machine->name == "two_alus");
  CHECK(instance.machine->resources[0] == Resource{"ALU", 2});
}

TEST_CASE("a machine name that matches no file says where it was looked for", "[io][native]") {
  const auto path = dataPath("native/machine_missing.json");
  const std::string error = gaus::test::loadError(path);
  CHECK_THAT(error, Catch::StartsWith(path.string() + ":3: expected a machine file "
                                                      "\"no_such_machine\" (looked for it"));
  CHECK_THAT(error, Catch::EndsWith("found none"));
}

TEST_CASE("GAUS_CONFIG_DIR adds folders to the machine search", "[io][native]") {
  gaus::test::TempFolder folder;
  std::filesystem::create_directories(folder.file("configs_elsewhere/machines"));
  folder.write("configs_elsewhere/machines/tiny_unit.yaml",
               "name: tiny_unit\nresources:\n  - {name: U, capacity: 3}\n");
  const auto document = folder.write(
      "doc.json",
      R"({"format": "gaus-0.1", "machine": "tiny_unit", "ops": [{"name": "x", "uses": "U"}]})");
  CHECK_FALSE(io::readInstances(document).ok());  // not found without the variable
  ::setenv("GAUS_CONFIG_DIR", ("/nonexistent:" + folder.file("configs_elsewhere").string()).c_str(),
           1);
  const Instance instance = loadOne(document);
  ::unsetenv("GAUS_CONFIG_DIR");
  CHECK(instance.machine->resources[0] == Resource{"U", 3});
  // An op with no latency and `uses`: occupancy max(1, 0) = 1.
  CHECK(instance.graph->reservation(0)[0] == ReservationBlock{0, 0, 1, 1});
}
