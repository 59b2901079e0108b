// Triton ddg-0.1 dumps (../shared/benchmarks/triton-ddg): counts per loop, the reference
// figures, and how core's ResMII/RecMII compare with the dump's own.
#include <fstream>
#include <map>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <gaus/core/analysis.hpp>
#include <gaus/io/io.hpp>

#include "io_test_support.hpp"

using namespace gaus;
using gaus::test::sharedPath;

namespace {

std::filesystem::path dump(const std::string& stem) {
  return sharedPath("benchmarks/triton-ddg/" + stem + ".ddg.json");
}

// The dump's resource bound recomputed from its raw nodes: per pipeline, the sum over its ops
// of max(1, occupancy) (`zeroAsOne`) or of occupancy as given.
std::int64_t rawResourceBound(const nlohmann::json& loop, bool zeroAsOne) {
  std::map<std::string, std::int64_t> busy;
  for (const auto& node : loop["ddg"]["nodes"]) {
    const std::string pipeline = node["pipeline"];
    if (pipeline == "NONE") continue;
    const std::int64_t occupancy = node["occupancy"];
    busy[pipeline] += zeroAsOne ? std::max<std::int64_t>(1, occupancy) : occupancy;
  }
  std::int64_t bound = 0;
  for (const auto& [pipeline, cycles] : busy) bound = std::max(bound, cycles);
  return bound;
}

}  // namespace

TEST_CASE("Triton: loops, nodes and edges match the README", "[io][triton]") {
  // README table: loops nodes/edges (duplicate edges of the dumps included).
  const std::map<std::string, std::vector<std::pair<OpId, EdgeId>>> expected = {
      {"case1_simple_gemm", {{5, 5}}},
      {"case3_FA", {{31, 40}}},
      {"case5_addmm_bias", {{6, 7}, {20, 24}}},
      {"case6_layernorm", {{23, 28}}},
  };
  for (const auto& [stem, loops] : expected) {
    INFO(stem);
    const auto instances = io::readInstances(dump(stem));
    REQUIRE(instances.ok());
    REQUIRE(instances->size() == loops.size());
    for (std::size_t i = 0; i < loops.size(); ++i) {
      const Instance& instance = (*instances)[i];
      CHECK(instance.name == stem + "/loop" + std::to_string(i));
      CHECK(instance.graph->numOps() == loops[i].first);
      CHECK(instance.graph->numEdges() == loops[i].second);
    }
  }
}

TEST_CASE("Triton: nodes map to units held for their occupancy", "[io][triton]") {
  // case1 loop 0, node 4: ttng.tc_gen5_mma on TC, latency 559, occupancy 256; node 1:
  // ttg.local_alloc on NONE (no reservation); edge 4 -> 4: latency 256, distance 1.
  const Instance instance = gaus::test::loadOne(dump("case1_simple_gemm"));
  const Graph& graph = *instance.graph;
  const OpId mma = graph.findOp("tc_gen5_mma_4").value();
  CHECK(graph.opKind(mma) == "ttng.tc_gen5_mma");
  CHECK(graph.latency(mma) == 559);
  const ResourceId tc = instance.machine->findResource("TC").value();
  REQUIRE(graph.reservation(mma).size() == 1);
  CHECK(graph.reservation(mma)[0] == ReservationBlock{tc, 0, 256, 1});
  CHECK(graph.reservation(graph.findOp("local_alloc_1").value()).empty());
  CHECK(graph.edgeDelay(4) == 256);
  CHECK(graph.edgeDistance(4) == 1);
  CHECK(instance.machine->resources[tc].capacity == 1);
  CHECK(instance.machine->findMemory("smem").has_value());
  // case3: the tmem_load ops run on 4 warps.
  const Instance fa = gaus::test::loadOne(dump("case3_FA"));
  CHECK(fa.graph->minWarps(fa.graph->findOp("tmem_load_8").value()) == 4);
}

TEST_CASE("Triton: reference figures from the dump and Triton's heuristic schedule",
          "[io][triton]") {
  // The README's table: min II (ResMII, RecMII) and the II Triton's heuristic chose.
  const auto loops = io::readInstances(dump("case5_addmm_bias")).value();
  const auto& outer = loops[1].reference;
  CHECK(outer.at("min_ii") == 8192);
  CHECK(outer.at("res_mii") == 1856);
  CHECK(outer.at("rec_mii") == 1);
  CHECK(outer.at("trip_count") == 4);
  CHECK(outer.at("heuristic_ii") == 8192);
  const auto layernorm = gaus::test::loadOne(dump("case6_layernorm")).reference;
  CHECK(layernorm.at("min_ii") == 517);
  CHECK(layernorm.at("heuristic_ii") == 534);
  CHECK(layernorm.at("heuristic_max_stage") == 4);
  CHECK(layernorm.at("heuristic_warp_groups") == 3);
}

TEST_CASE("Triton: core's RecMII equals the dump's, its ResMII differs where occupancy is 0",
          "[io][triton]") {
  // Core's ResMII sums each unit's occupancy as given. The dump counts every op on a unit as
  // busy for at least one cycle: recomputing max over units of sum(max(1, occupancy)) from the
  // raw nodes gives the dump's res_mii in every loop, and plain sums give core's value. They
  // differ in two loops: case3_FA, whose ttg.convert_layout (node 21, CUDA) has occupancy 0
  // (1198 vs 1199), and case6_layernorm, with six CUDA ops of occupancy 0 (511 vs 517).
  // The dump's min_ii is max(res_mii, rec_mii, latency of a super node): case5's outer loop
  // holds the inner loop as one scf.for node of latency 8192, hence 8192 while core's
  // max(ResMII, RecMII) is 1856.
  struct Row {
    const char* stem;
    std::size_t loop;
    std::int64_t resMii;  // core
    std::int64_t recMii;  // core (equal to the dump's)
  };
  const Row rows[] = {{"case1_simple_gemm", 0, 256, 256},
                      {"case3_FA", 0, 1198, 1325},
                      {"case5_addmm_bias", 0, 256, 256},
                      {"case5_addmm_bias", 1, 1856, 1},
                      {"case6_layernorm", 0, 511, 0}};
  for (const Row& row : rows) {
    INFO(row.stem << " loop " << row.loop);
    const auto instances = io::readInstances(dump(row.stem)).value();
    const Instance& instance = instances[row.loop];
    const auto resMii = computeResMii(*instance.graph, *instance.machine);
    const auto recMii = computeRecMii(*instance.graph);
    CHECK(resMii.value == row.resMii);
    CHECK(recMii.value == row.recMii);
    CHECK(recMii.value == instance.reference.at("rec_mii"));

    std::ifstream stream(dump(row.stem));
    const auto raw = nlohmann::json::parse(stream)["loops"][row.loop];
    CHECK(rawResourceBound(raw, false) == resMii.value);
    CHECK(rawResourceBound(raw, true) == instance.reference.at("res_mii"));
    std::int64_t superNodeLatency = 0;
    for (const auto& node : raw["ddg"]["nodes"]) {
      if (node["is_super_node"].get<bool>()) superNodeLatency = node["latency"];
    }
    CHECK(std::max({instance.reference.at("res_mii"), instance.reference.at("rec_mii"),
                    static_cast<double>(superNodeLatency)}) == instance.reference.at("min_ii"));
  }
}

TEST_CASE("Triton: a file of several loops needs a selector", "[io][triton]") {
  const std::string file = dump("case5_addmm_bias").string();
  const auto byIndex = io::readInstance(file + "#1");
  REQUIRE(byIndex.ok());
  CHECK(byIndex->name == "case5_addmm_bias/loop1");
  const auto byName = io::readInstance(file + "#loop0");
  REQUIRE(byName.ok());
  CHECK(byName->graph->numOps() == 6);
  const auto byFullName = io::readInstance(file + "#case5_addmm_bias/loop1");
  REQUIRE(byFullName.ok());
  CHECK(byFullName->graph->numOps() == 20);

  const auto none = io::readInstance(file);
  REQUIRE_FALSE(none.ok());
  CHECK(none.error() == file +
                            ": expected one instance, or a selector FILE#INDEX or FILE#NAME, "
                            "found 2 instances: #0 case5_addmm_bias/loop0, #1 "
                            "case5_addmm_bias/loop1");
  const auto wrong = io::readInstance(file + "#7");
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error() == file +
                             ": expected an instance index or name (#0 "
                             "case5_addmm_bias/loop0, #1 case5_addmm_bias/loop1), found "
                             "selector \"7\"");
}

TEST_CASE("Triton: each loop runs on the warps of Triton's own warp groups", "[io][triton]") {
  // The companion *.schedule_graph.json lists each loop's warp_groups with their num_warps; the
  // loop's machine gets their sum. From the shared files: case1 loop 0 has three groups of one
  // warp (two TMA, one TC); case3_FA six groups: 1 + 1 + 1 (TMA, TMA, TC) + 4 + 4 (CUDA/SFU) +
  // 1 (TC) = 12; case5 loop 0 three groups of one, loop 1 one group of four; case6 1 + 4 + 1.
  struct Row {
    const char* stem;
    std::size_t loop;
    std::int32_t warps;
    double groups;
  };
  const Row rows[] = {{"case1_simple_gemm", 0, 3, 3},
                      {"case3_FA", 0, 12, 6},
                      {"case5_addmm_bias", 0, 3, 3},
                      {"case5_addmm_bias", 1, 4, 1},
                      {"case6_layernorm", 0, 6, 3}};
  for (const Row& row : rows) {
    INFO(row.stem << " loop " << row.loop);
    const auto instances = io::readInstances(dump(row.stem)).value();
    const Instance& instance = instances[row.loop];
    CHECK(instance.machine->warps == row.warps);
    CHECK(instance.reference.at("heuristic_warps") == row.warps);
    CHECK(instance.reference.at("heuristic_warp_groups") == row.groups);
  }
}

TEST_CASE("Triton: the default machine is the one of the dump's architecture", "[io][triton]") {
  // Every shared dump declares a tensor-memory budget (config.tmem_budget_bytes 262144), which
  // only Blackwell has: triton_blackwell, with the dump's budgets as memory capacities.
  for (const char* stem :
       {"case1_simple_gemm", "case3_FA", "case5_addmm_bias", "case6_layernorm"}) {
    INFO(stem);
    const auto instances = io::readInstances(dump(stem));
    REQUIRE(instances.ok());
    const Instance& instance = instances->front();
    CHECK(instance.machine->name == "triton_blackwell");
    CHECK(instance.machine->findResource("TMEM").has_value());
    CHECK(instance.machine->memories[*instance.machine->findMemory("smem")].capacity == 232448);
    CHECK(instance.machine->memories[*instance.machine->findMemory("tmem")].capacity == 262144);
  }
  // No tensor memory and no tcgen05 op: a Hopper dump. A tc_gen5_mma op alone makes it Blackwell.
  const gaus::test::TempFolder folder;
  const auto dumpWith = [&](const std::string& name, const std::string& kind) {
    return folder.write(name, R"({"schema_version": "ddg-0.1", "loops": [{"loop_id": 0, "ddg": {
        "nodes": [{"id": 0, "op_kind": ")" +
                                  kind + R"(", "pipeline": "TC", "latency": 9,
                   "occupancy": 4}], "edges": []}}]})");
  };
  CHECK(gaus::test::loadOne(dumpWith("h.ddg.json", "ttng.warp_group_dot")).machine->name ==
        "triton_hopper");
  CHECK(gaus::test::loadOne(dumpWith("b.ddg.json", "ttng.tc_gen5_mma")).machine->name ==
        "triton_blackwell");
}

TEST_CASE("Triton: a malformed companion file is a one-line error naming it", "[io][triton]") {
  // The dump is read fine alone; its companion's warp groups are checked field by field.
  const gaus::test::TempFolder folder;
  const auto dumpPath = folder.write("k.ddg.json", R"({"schema_version": "ddg-0.1", "loops": [
    {"loop_id": 0, "ddg": {"nodes": [{"id": 0, "op_kind": "tt.load", "pipeline": "TMA",
     "latency": 5, "occupancy": 2}], "edges": []}}]})");
  REQUIRE(io::readInstances(dumpPath).ok());
  const auto companion = [&](const std::string& warpGroups) {
    folder.write(
        "k.schedule_graph.json",
        "{\"loops\": [{\"loop_id\": 0, \"schedule_loop\": {\"II\": 7},\n" + warpGroups + "}]}");
    return gaus::test::loadError(dumpPath);
  };
  const std::string file = folder.file("k.schedule_graph.json").string();
  CHECK(companion(R"("warp_groups": [{"id": 0, "pipelines": ["TMA"]}])") ==
        file + ":2: expected a member \"num_warps\" in warp group 0, found none");
  CHECK(companion(R"("warp_groups": [{"id": 0, "num_warps": 0, "pipelines": ["TMA"]}])") ==
        file + ":2: expected a positive integer num_warps of warp group 0, found 0");
  CHECK(companion(R"("warp_groups": [{"id": 0, "num_warps": 1, "pipelines": "TMA"}])") ==
        file + ":2: expected an array for pipelines of warp group 0, found \"TMA\"");
  CHECK(companion(R"("warp_groups": [{"id": 0, "num_warps": 40, "pipelines": []},
                                     {"id": 1, "num_warps": 40, "pipelines": []}])") ==
        file + ":2: expected warp groups holding 1 to 64 warps, found 80 warps");
  CHECK(companion(R"("other": 1)") ==
        file + ":1: expected a member \"warp_groups\" in loop 0, found none");
}

TEST_CASE("Triton: every shared loop passes the input check on its machine", "[io][triton]") {
  // The joint problem (modulo-warp) of each loop on its default machine: every op's min_warps
  // fits the warps of Triton's warp groups, and every pipeline is a resource of the machine.
  for (const char* stem :
       {"case1_simple_gemm", "case3_FA", "case5_addmm_bias", "case6_layernorm"}) {
    const auto instances = io::readInstances(dump(stem));
    REQUIRE(instances.ok());
    for (const Instance& instance : *instances) {
      INFO(instance.name);
      CHECK(instance.problem(ProblemKind::kModuloWarp).check().empty());
    }
  }
}
