// read(write(x)) == x for the native JSON and YAML formats, on random graphs with every
// attribute of the model set (docs/formats.md promises an exact round trip), in the object form
// (<= 1000 ops, edges by name) and the compact form (edges as index arrays).
#include <random>

#include <catch2/catch.hpp>

#include <gaus/core/random_graph.hpp>
#include <gaus/io/io.hpp>

#include "io_test_support.hpp"

using namespace gaus;

namespace {

// A random graph (core's generator: typed ops, back edges, weights, comm) with everything the
// generator leaves at its default set as well: kinds, multi-block reservations, footprints,
// warp annotations, explicit delays, blocking edges, fractional weights, names that need
// quoting; plus a machine with memories and warps, a schedule with warps, reference figures.
Instance richRandomInstance(std::int32_t ops, std::uint64_t seed) {
  RandomGraphOptions options;
  options.ops = ops;
  options.averageDegree = 2.5;
  options.opTypes = {{"ALU", 1, 3, 0, 2, 2.0}, {"MUL", 2, 5, 1, 1, 1.0}, {"LD", 0, 4, 0, {}, 1.0}};
  options.backEdges = ops / 10;
  options.maxDistance = 3;
  options.weightedFraction = 0.5;
  options.minWeight = 0.5;
  options.maxWeight = 4000.25;
  options.commFraction = 0.3;
  options.seed = seed;
  auto random = generateRandomGraph(options);
  REQUIRE(random.ok());
  const Graph& base = random->graph;

  Machine machine = random->machine;
  machine.name = "rich \"machine\"";
  const ResourceId tc = machine.addResource("TC", 1);
  machine.memories = {Memory{"smem", 232448}, Memory{"tmem", 262144}};
  machine.warps = 4;
  machine.threadsPerWarp = 32;
  machine.registerLimit = 240;
  machine.registerFile = 65536;
  machine.variableLatencyWarp = 0;

  std::mt19937_64 rng(seed);
  const auto chance = [&](int percent) { return static_cast<int>(rng() % 100) < percent; };
  const std::vector<std::string> trickyNames = {"quote\"d",
                                                "back\\slash",
                                                "\xc3\xbcnic\xc3\xb6"
                                                "de",
                                                "with space",
                                                "123",
                                                "true",
                                                "null",
                                                "a:b#c",
                                                "- dash",
                                                "",
                                                "percent%s{}",
                                                "{x}"};
  GraphBuilder builder(base.name());
  for (OpId op = 0; op < base.numOps(); ++op) {
    OpAttributes attributes = base.opAttributes(op);
    if (static_cast<std::size_t>(op) < trickyNames.size()) attributes.name = trickyNames[op];
    if (chance(20)) attributes.kind.clear();
    if (chance(10)) {
      attributes.reservation = {ReservationBlock{tc, 0, 1, 1}, ReservationBlock{0, 2, 3, 2}};
    } else if (chance(10)) {
      attributes.reservation = {ReservationBlock{1, 1, 2, 1}};  // begins late: not shorthand
    }
    attributes.mem = chance(50) ? static_cast<double>(rng() % 1000) * 0.37 : 0.0;
    attributes.weight = chance(50) ? static_cast<double>(rng() % 1000) / 3.0 : attributes.weight;
    attributes.regs = chance(30) ? static_cast<std::int32_t>(rng() % 200) : 0;
    if (chance(30)) attributes.footprints.push_back(MemoryFootprint{0, 16384});
    if (chance(10)) attributes.footprints.push_back(MemoryFootprint{1, 8192});
    attributes.variableLatency = chance(10);
    attributes.streaming = attributes.variableLatency && chance(50);
    attributes.spillCost = chance(20) ? static_cast<std::int32_t>(rng() % 50) : 0;
    attributes.minWarps = chance(20) ? 1 + static_cast<std::int32_t>(rng() % 4) : 1;
    builder.addOp(attributes);
  }
  for (EdgeId e = 0; e < base.numEdges(); ++e) {
    EdgeAttributes attributes = base.edgeAttributes(e);
    if (chance(30)) attributes.delay = static_cast<std::int32_t>(rng() % 9);
    attributes.blocking = chance(10);
    if (chance(20)) attributes.comm = static_cast<double>(rng() % 100) / 7.0;
    builder.addEdge(attributes);
  }
  auto graph = std::move(builder).build();
  REQUIRE(graph.ok());

  Instance instance;
  instance.name = base.name();
  instance.graph = std::make_shared<const Graph>(std::move(graph).value());
  instance.machine = std::make_shared<const Machine>(machine);
  Schedule schedule;
  schedule.ii = 7;
  std::vector<WarpSet> warps;
  for (OpId op = 0; op < ops; ++op) {
    schedule.start.push_back(static_cast<Cycle>(rng() % 1000));
    warps.push_back(rng() % 16);
  }
  schedule.warps = warps;
  instance.schedule = schedule;
  instance.reference = {{"min_ii", 3}, {"trip_count", 4.5}, {"heuristic_ii", 1325}};
  return instance;
}

void checkRoundTrip(const Instance& original, io::Format format, const std::string& fileName) {
  gaus::test::TempFolder folder;
  const auto path = folder.file(fileName);
  const auto written = io::writeInstance(path, original, format);
  if (!written) FAIL(written.error());
  const Instance reread = gaus::test::loadOne(path);
  CHECK(gaus::test::firstDifference(original, reread) == "");
  // Writing what was read gives the same text: the writer is a function of the instance alone.
  CHECK(io::formatInstance(reread, format).value() == io::formatInstance(original, format).value());
}

}  // namespace

TEST_CASE("native JSON round-trips every field (object form, edges by name)",
          "[io][native][roundtrip]") {
  for (std::uint64_t seed : {1, 2, 3}) {
    INFO("seed " << seed);
    checkRoundTrip(richRandomInstance(200, seed), io::Format::kNativeJson, "rich.json");
  }
}

TEST_CASE("native YAML round-trips every field (object form, edges by name)",
          "[io][native][roundtrip]") {
  for (std::uint64_t seed : {1, 2, 3}) {
    INFO("seed " << seed);
    checkRoundTrip(richRandomInstance(200, seed), io::Format::kNativeYaml, "rich.yaml");
  }
}

TEST_CASE("native JSON and YAML round-trip the compact form above 1000 ops",
          "[io][native][roundtrip]") {
  const Instance original = richRandomInstance(1500, 11);
  checkRoundTrip(original, io::Format::kNativeJson, "big.json");
  checkRoundTrip(original, io::Format::kNativeYaml, "big.yaml");
  // The compact form: plain edges are arrays of op indices; edges with comm or blocking are
  // objects with indices.
  const std::string text = io::formatInstance(original, io::Format::kNativeJson).value();
  const std::string edges = text.substr(text.find("\"edges\": ["));
  CHECK(edges.find("\n    [") != std::string::npos);
  CHECK(edges.find("\n    {\"from\": ") != std::string::npos);
  CHECK(edges.find("\n    {\"from\": \"") == std::string::npos);
}

TEST_CASE("every shared benchmark round-trips through native JSON", "[io][native][roundtrip]") {
  // Instances from each reader, with their reference figures.
  for (const char* file :
       {"benchmarks/heurigym-operator-scheduling/demo/hal.json",
        "benchmarks/gs-schedule-icml24-rw/rand_graph_sparse_1000_1.gml",
        "benchmarks/epfl-combinational/ctrl.aig", "benchmarks/triton-ddg/case3_FA.ddg.json",
        "benchmarks/hatschet-machsuite/aes2/graph1.graphml"}) {
    INFO(file);
    const Instance original = gaus::test::loadOne(gaus::test::sharedPath(file));
    checkRoundTrip(original, io::Format::kNativeJson, "bench.json");
  }
}

TEST_CASE("a weight JSON cannot hold is refused by the writer, naming the op", "[io][native]") {
  const Instance instance = gaus::test::oneOpInstance(
      [](GraphBuilder& builder) { builder.setMem(0, std::numeric_limits<double>::infinity()); });
  const auto text = io::formatInstance(instance, io::Format::kNativeJson);
  REQUIRE_FALSE(text.ok());
  CHECK(text.error() == "instance 'g': expected a finite number for mem of op 'a', found inf");
}
