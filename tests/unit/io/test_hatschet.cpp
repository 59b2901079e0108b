// HatScheT GraphML + resource models (../shared/benchmarks/hatschet-machsuite and a hand-made
// pair).
#include <catch2/catch.hpp>

#include <gaus/core/analysis.hpp>
#include <gaus/io/io.hpp>

#include "io_test_support.hpp"

using namespace gaus;

TEST_CASE("HatScheT: a hand-made loop maps latencies, blocking times and edge delays",
          "[io][hatschet]") {
  // tiny_RM.xml: add (unlimited, latency 0), mul (1 unit, latency 3, blocking 1), mem_read (2
  // units, latency 2, blocking 2). Edges load -> mul (delay 0), mul -> add (delay 1),
  // add -> load (delay 0, distance 1).
  const Instance instance = gaus::test::loadOne(gaus::test::dataPath("hatschet/tiny.graphml"));
  CHECK(instance.name == "hatschet/tiny");
  const Graph& graph = *instance.graph;
  const Machine& machine = *instance.machine;
  REQUIRE(graph.numOps() == 3);
  CHECK(graph.opName(0) == "load");
  CHECK(graph.opKind(0) == "mem_read");
  CHECK(graph.latency(0) == 2);
  CHECK(graph.latency(1) == 3);
  CHECK(graph.latency(2) == 0);
  const ResourceId memRead = machine.findResource("mem_read").value();
  CHECK(machine.resources[memRead].capacity == 2);
  REQUIRE(graph.reservation(0).size() == 1);
  CHECK(graph.reservation(0)[0] == ReservationBlock{memRead, 0, 2, 1});
  CHECK(graph.reservation(2).empty());  // unlimited: nothing to reserve
  CHECK_FALSE(machine.resources[machine.findResource("mem_read_unlimited").value()].limited());
  // delay = latency(res(source)) + delay: 2 + 0, 3 + 1, 0 + 0.
  CHECK(graph.edgeDelay(0) == 2);
  CHECK(graph.edgeDelay(1) == 4);
  CHECK(graph.edgeDelay(2) == 0);
  CHECK(graph.edgeDistance(2) == 1);
  // The recurrence load -> mul -> add -> load: delay 6 over distance 1.
  CHECK(computeRecMii(graph).value == 6);
  CHECK(computeResMii(graph, machine).value == 1);
}

TEST_CASE("HatScheT: the resource model can be given explicitly", "[io][hatschet]") {
  io::ReadOptions options;
  options.resourceModel = gaus::test::dataPath("hatschet/tiny_RM.xml");
  const Instance instance =
      gaus::test::loadOne(gaus::test::dataPath("bad/no_model.graphml"), options);
  CHECK(instance.graph->numOps() == 3);
}

TEST_CASE("HatScheT: all 91 MachSuite loops load within the README's ranges", "[io][hatschet]") {
  // README: 91 loop bodies, 20-300 ops, 31-683 edges, 2-158 loop-carried edges, all of
  // distance 1; MinII = max(ResMII, RecMII) from 2 to 73, mostly bound by recurrences.
  std::size_t loops = 0;
  OpId minOps = 1 << 30, maxOps = 0;
  EdgeId minEdges = 1 << 30, maxEdges = 0, minCarried = 1 << 30, maxCarried = 0;
  std::int64_t minMii = 1 << 30, maxMii = 0;
  std::size_t recurrenceBound = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(
           gaus::test::sharedPath("benchmarks/hatschet-machsuite"))) {
    if (entry.path().extension() != ".graphml") continue;
    INFO(entry.path().string());
    const Instance instance = gaus::test::loadOne(entry.path());
    const Graph& graph = *instance.graph;
    ++loops;
    minOps = std::min(minOps, graph.numOps());
    maxOps = std::max(maxOps, graph.numOps());
    minEdges = std::min(minEdges, graph.numEdges());
    maxEdges = std::max(maxEdges, graph.numEdges());
    EdgeId carried = 0;
    for (EdgeId e = 0; e < graph.numEdges(); ++e) {
      if (graph.edgeDistance(e) > 0) {
        ++carried;
        CHECK(graph.edgeDistance(e) == 1);
      }
    }
    minCarried = std::min(minCarried, carried);
    maxCarried = std::max(maxCarried, carried);
    const auto resMii = computeResMii(graph, *instance.machine);
    const auto recMii = computeRecMii(graph);
    CHECK_FALSE(resMii.infeasible.has_value());
    CHECK_FALSE(recMii.infeasible.has_value());
    const std::int64_t mii = std::max(resMii.value, recMii.value);
    minMii = std::min(minMii, mii);
    maxMii = std::max(maxMii, mii);
    recurrenceBound += recMii.value >= resMii.value ? 1 : 0;
  }
  CHECK(loops == 91);
  CHECK(minOps == 20);
  CHECK(maxOps == 300);
  CHECK(minEdges == 31);
  CHECK(maxEdges == 683);
  CHECK(minCarried == 2);
  CHECK(maxCarried == 158);
  CHECK(minMii == 2);
  CHECK(maxMii == 73);
  CHECK(recurrenceBound > loops / 2);  // "in most loops the recurrences bind II"
}

TEST_CASE("HatScheT: a chained variant graphN.200MHz.graphml reads with its base graph's model",
          "[io][hatschet]") {
  // HatScheT's layout (github.com/SpeedyBK/hatschet, benchmarks/MachSuite/stencil3d):
  // graph9.graphml, graph9.200MHz.graphml and one graph9_RM.xml for both. The shared copy holds
  // the base graph and its model; the variant is that graph under the variant's name, so the
  // reader must find graph9_RM.xml without --resources, say so in the notes, and read the same
  // loop as the base graph.
  const std::filesystem::path machsuite =
      gaus::test::sharedPath("benchmarks/hatschet-machsuite/stencil3d");
  const gaus::test::TempFolder folder;
  std::filesystem::copy_file(machsuite / "graph9.graphml", folder.file("graph9.200MHz.graphml"));
  std::filesystem::copy_file(machsuite / "graph9_RM.xml", folder.file("graph9_RM.xml"));
  const Instance base = gaus::test::loadOne(machsuite / "graph9.graphml");
  const Instance variant = gaus::test::loadOne(folder.file("graph9.200MHz.graphml"));
  CHECK(base.notes.empty());
  CHECK(variant.machine->name == "graph9_RM");
  REQUIRE(variant.notes.size() == 1);
  CHECK_THAT(variant.notes.front(),
             Catch::StartsWith("resource model " + folder.file("graph9_RM.xml").string() +
                               ": graph9.200MHz.graphml has none of its own"));
  REQUIRE(variant.graph->numOps() == base.graph->numOps());
  REQUIRE(variant.graph->numEdges() == base.graph->numEdges());
  for (OpId op = 0; op < base.graph->numOps(); ++op) {
    CHECK(variant.graph->latency(op) == base.graph->latency(op));
  }
  CHECK(computeResMii(*variant.graph, *variant.machine).value ==
        computeResMii(*base.graph, *base.machine).value);

  // A variant with a model of its own takes that one, and there is nothing to say.
  std::filesystem::copy_file(machsuite / "graph9_RM.xml", folder.file("graph9.200MHz_RM.xml"));
  const Instance own = gaus::test::loadOne(folder.file("graph9.200MHz.graphml"));
  CHECK(own.machine->name == "graph9.200MHz_RM");
  CHECK(own.notes.empty());

  // Without either, the message lists both files looked for.
  std::filesystem::remove(folder.file("graph9.200MHz_RM.xml"));
  std::filesystem::remove(folder.file("graph9_RM.xml"));
  CHECK(gaus::test::loadError(folder.file("graph9.200MHz.graphml")) ==
        folder.file("graph9.200MHz.graphml").string() + ": expected the resource model " +
            folder.file("graph9.200MHz_RM.xml").string() + " or " +
            folder.file("graph9_RM.xml").string() +
            " (beside the graph; or pass --resources), found no such file");
}
