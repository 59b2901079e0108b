// Iterative modulo scheduling on every loop of the Triton ddg dumps
// (../shared/benchmarks/triton-ddg), compared with the dump's min II and with the II that
// Triton's own heuristic chose (<stem>.schedule_graph.json, reference["heuristic_ii"]).
//
// The three numbers need not agree, for reasons the test checks rather than assumes:
// - The dump's min II may exceed gaus's MII. The dump counts every op on a unit as busy for at
//   least one cycle, gaus counts occupancies as given (an occupancy-0 op holds nothing), so the
//   dump's res_mii can be larger (docs/formats.md "Triton"); and the dump's min II includes the
//   latency of a super node (a nested loop as one op, `scf.for`), which gaus reads as an op of
//   that latency holding no unit, so iterations may overlap it. Where IMS goes below the dump's
//   min II, its schedule still passes verify(): the difference is the model, not an error.
// - Triton's heuristic II is the II of a schedule that also assigns warp groups, under
//   Triton's own reading of the units. Its start times, read as a gaus schedule, may break the
//   dump's edges or overlap units of capacity 1 (verify() says which), so a Triton II below
//   IMS's is no proof that gaus's model admits that II. Where IMS is above Triton's II, the
//   test requires exactly that: Triton's schedule fails verify().

#include <fstream>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <gaus/core/verify.hpp>

#include "shared_benchmarks.hpp"

using namespace gaus;

namespace {

// Measured with the default options (placement both, budget factor 6), II / MII per loop:
// case1_simple_gemm 256 / 256, case3_FA 1395 / 1325, case5_addmm_bias loop0 256 / 256 and loop1
// 1856 / 1856, case6_layernorm 515 / 511. IMS reaches MII on 3 of the 5 loops and stays within
// 6% of it on the others (FA: 1395 / 1325 = 1.053; a larger budget factor brings it to 1373).
constexpr int kMeasuredAtMii = 3;
constexpr double kLargestIiOverMii = 1.06;

// Triton's heuristic schedule of one loop, as a gaus schedule: the start cycle of every node of
// <stem>.schedule_graph.json, matched to the op the Triton reader named `<kind>_<node id>`
// (the op kind after its last '.'), at the II Triton chose.
Schedule tritonHeuristicSchedule(const Instance& instance) {
  const std::string stem = instance.name.substr(0, instance.name.find('/'));
  const std::string loopName = instance.name.substr(instance.name.find('/') + 1);
  std::ifstream in(test::sharedPath("benchmarks/triton-ddg/" + stem + ".schedule_graph.json"));
  REQUIRE(in);
  const auto document = nlohmann::json::parse(in);
  const Graph& graph = *instance.graph;
  for (const auto& loop : document.at("loops")) {
    if ("loop" + std::to_string(loop.at("loop_id").get<int>()) != loopName) continue;
    const auto& scheduled = loop.at("schedule_loop");
    Schedule schedule;
    schedule.ii = scheduled.at("II").get<std::int32_t>();
    schedule.start.assign(static_cast<std::size_t>(graph.numOps()), -1);
    for (const auto& node : scheduled.at("graph").at("nodes")) {
      const std::string kind = node.at("op_kind").get<std::string>();
      const std::string name =
          kind.substr(kind.rfind('.') + 1) + "_" + std::to_string(node.at("id").get<int>());
      const auto op = graph.findOp(name);
      INFO(name);
      REQUIRE(op);
      schedule.start[*op] = node.at("schedule").at("cycle").get<Cycle>();
    }
    return schedule;
  }
  FAIL("no loop " << loopName << " in the schedule graph of " << stem);
  return {};
}

// True when some op's latency equals the dump's min II and exceeds both of the dump's bounds:
// a super node, whose latency the dump adds to min II.
bool minIiIsSuperNodeLatency(const Instance& instance, double dumpMinIi, double dumpBounds) {
  const Graph& graph = *instance.graph;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (graph.latency(op) == dumpMinIi && dumpMinIi > dumpBounds) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("ims on every Triton loop: verified, II >= MII, compared with the dump and Triton",
          "[heuristic][ims][shared]") {
  int loops = 0;
  int atMii = 0;
  for (const auto& file : test::sharedBenchmarkFiles("triton-ddg", ".ddg.json")) {
    for (const Instance& instance : test::loadInstances(file)) {
      INFO(instance.name);
      ++loops;
      const std::int64_t ii = test::scheduleLoopWithIms(instance);
      const std::int64_t mii = test::minimumIi(instance);
      CHECK(static_cast<double>(ii) <= kLargestIiOverMii * static_cast<double>(mii));
      if (ii == mii) ++atMii;

      const auto& reference = instance.reference;
      REQUIRE(reference.contains("min_ii"));
      REQUIRE(reference.contains("res_mii"));
      REQUIRE(reference.contains("rec_mii"));
      REQUIRE(reference.contains("heuristic_ii"));
      const double dumpMinIi = reference.at("min_ii");
      const double dumpBounds = std::max(reference.at("res_mii"), reference.at("rec_mii"));
      const double tritonIi = reference.at("heuristic_ii");
      INFO("IMS II " << ii << ", MII " << mii << ", dump min II " << dumpMinIi << ", Triton's II "
                     << tritonIi);

      // The recurrences are read alike: the dump's rec_mii is core's RecMII.
      CHECK(computeRecMii(*instance.graph).value == reference.at("rec_mii"));
      if (static_cast<double>(ii) < dumpMinIi) {
        // Below the dump's bound only through the model differences of the file comment.
        CHECK(static_cast<double>(mii) < dumpMinIi);
        const bool unitsCountedApart =
            reference.at("res_mii") > computeResMii(*instance.graph, *instance.machine).value;
        CHECK((unitsCountedApart || minIiIsSuperNodeLatency(instance, dumpMinIi, dumpBounds)));
      }
      if (static_cast<double>(ii) > tritonIi) {
        const Problem problem = instance.problem(ProblemKind::kModulo);
        const VerificationReport triton = verify(problem, tritonHeuristicSchedule(instance));
        INFO(triton.summary());
        CHECK_FALSE(triton.ok());
      }
    }
  }
  // The folder's README lists case1 (1 loop), case3_FA (1), case5_addmm_bias (2), case6 (1).
  CHECK(loops == 5);
  CHECK(atMii >= kMeasuredAtMii);
}
