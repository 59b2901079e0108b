// The live-memory model (live_memory::PeakMemoryModel) with every op moving is formulation B
// itself: against brute force over every start of tiny graphs, and its start, bound and size
// estimate.
#include <catch2/catch.hpp>

#include <gaus/core/analysis.hpp>
#include <gaus/live_memory/cut_bound.hpp>
#include <gaus/live_memory/model.hpp>

#include "live_memory_reference.hpp"

using namespace gaus;
using namespace gaus::test;

namespace {

live_memory::PeakMemoryModelInput wholeGraph(const MemoryCase& memory,
                                             const std::vector<Cycle>& asap,
                                             const std::vector<Cycle>& alap) {
  live_memory::PeakMemoryModelInput input;
  input.graph = &memory.generated.graph;
  input.horizon = memory.horizon;
  input.start = memory.list.start;
  for (OpId op = 0; op < memory.generated.graph.numOps(); ++op) {
    input.moving.push_back({op, asap[op], alap[op]});
  }
  return input;
}

}  // namespace

TEST_CASE("live-memory model: every op moving, the optimum is brute force's",
          "[live_memory][milp]") {
  // Random layered graphs of 4 to 6 ops (mem in [1, 3], latencies 1-2) at D = the list
  // schedule's latency + 0, 1 or 2: every start in [0, D - duration] is enumerated, and the
  // MILP over the ASAP/ALAP windows must prove the same smallest peak, with a legal schedule
  // at it; the list schedule's encoding is a feasible start at its own peak.
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const MemoryCase memory = memoryCase(seed, 4 + static_cast<std::int32_t>(seed % 3), 1.2, 3, 2,
                                         static_cast<Cycle>(seed % 3));
    const Graph& graph = memory.generated.graph;
    const auto order = topologicalOrder(graph);
    REQUIRE(order.ok());
    const std::vector<Cycle> asap = asapTimes(graph, *order);
    const auto alap = alapTimes(graph, *order, memory.horizon);
    REQUIRE(alap.ok());
    live_memory::PeakMemoryModelInput input = wholeGraph(memory, asap, *alap);
    const auto combinatorial = live_memory::mandatoryLifetimeBound(graph, memory.horizon);
    REQUIRE(combinatorial.ok());
    input.peakFloor = *combinatorial;
    live_memory::PeakMemoryModel model(input);
    INFO("seed " << seed << ", D " << memory.horizon);
    const std::vector<double> start = model.encode(memory.list.start);
    CHECK(start.back() == Approx(scoreOf(graph, memory.list.start, memory.horizon).peak));
    model.model().setStart(start);
    const milp::MilpSolution solution = model.model().solve(30.0);
    REQUIRE(solution.status == ModelStatus::kOptimal);
    const std::vector<Cycle> found = model.decode(solution);
    REQUIRE(legal(memory.problem, found));
    const double optimum = bruteForcePeak(memory.problem);
    CHECK(scoreOf(graph, found, memory.horizon).peak == Approx(optimum));
    REQUIRE(model.boundOf(solution).has_value());
    CHECK(*model.boundOf(solution) == Approx(optimum));
    CHECK(optimum >= *combinatorial - 1e-9);
    // The estimate counts what the constructor builds, never less.
    const milp::ModelSize size = live_memory::PeakMemoryModel::estimateSize(input);
    CHECK(size.variables == model.model().numVariables());
  }
}

TEST_CASE(
    "live-memory model: a fixed op keeps its start, and a cap below the optimum is "
    "infeasible",
    "[live_memory][milp]") {
  // p1 -> q1 and p2 -> q2, every op 1 cycle, mem 1 on the producers, D = 4. With p1 fixed at 0
  // and q1 at 1, the others moving in [0, 3]: p2 at 2 and q2 at 3 keep one value live at a
  // time, so the peak is 1; capped at 0.5 no placement fits (p1 is live at cycle 0 whatever
  // the others do).
  const Graph graph = twoProducerPairs();
  const OpId p1 = 0, q1 = 1, p2 = 2, q2 = 3;
  const std::vector<Cycle> start = {0, 1, 0, 1};
  live_memory::PeakMemoryModelInput input;
  input.graph = &graph;
  input.horizon = 4;
  input.start = start;
  input.moving = {{p2, 0, 2}, {q2, 1, 3}};
  live_memory::PeakMemoryModel model(input);
  CHECK(model.constantPeak() == Approx(1.0));
  const milp::MilpSolution solution = model.model().solve(10.0);
  REQUIRE(solution.status == ModelStatus::kOptimal);
  const std::vector<Cycle> found = model.decode(solution);
  CHECK(found[p1] == 0);
  CHECK(found[q1] == 1);
  CHECK(found[p2] >= 1);
  CHECK(scoreOf(graph, found, 4).peak == Approx(1.0));
  CHECK(*solution.objective == Approx(1.0));

  input.peakCap = 0.5;
  live_memory::PeakMemoryModel capped(input);
  CHECK(capped.model().solve(10.0).status == ModelStatus::kInfeasible);
}
