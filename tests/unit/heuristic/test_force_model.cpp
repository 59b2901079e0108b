// The model of force-directed scheduling (src/heuristic/force_model.hpp, reader_products.hpp):
// the readers' products by hand and against their definition, and the forces of the prefix
// sums against the direct sums (the definitions summed term by term) after random narrowings.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/graph.hpp>

#include "force_model.hpp"
#include "live_memory_reference.hpp"
#include "reader_products.hpp"

using namespace gaus;
using heuristic::detail::ForceModel;
using heuristic::detail::ForceSums;
using heuristic::detail::frameCdf;
using heuristic::detail::NeighbourLists;
using heuristic::detail::ReaderProducts;

namespace {

// A value (op 0, mem 2) read by `readers` ops (1..readers) of latency 1 or 2, each read in turn
// by a chain of 0-3 ops; the chains' ops have mem 1. The readers' frames differ in width.
Graph fanGraph(std::uint64_t seed, std::int32_t readers) {
  std::mt19937_64 random(seed);  // the engine's output is fixed by the standard
  GraphBuilder builder("fan");
  const OpId hub = builder.addOp("hub", 1);
  builder.setMem(hub, 2.0);
  for (std::int32_t r = 0; r < readers; ++r) {
    OpId previous = builder.addOp(fmt::format("r{}", r), 1 + static_cast<int>(random() % 2));
    builder.setMem(previous, 1.0);
    builder.addEdge(hub, previous);
    const auto chain = static_cast<std::int32_t>(random() % 4);
    for (std::int32_t c = 0; c < chain; ++c) {
      const OpId next = builder.addOp(fmt::format("r{}_{}", r, c), 1);
      builder.setMem(next, 1.0);
      builder.addEdge(previous, next);
      previous = next;
    }
  }
  auto graph = std::move(builder).build();
  REQUIRE(graph.ok());
  return std::move(graph).value();
}

struct Frames {
  std::vector<Cycle> asap;
  std::vector<Cycle> alap;
};

Frames framesAt(const Graph& graph, Cycle horizon) {
  const auto order = topologicalOrder(graph);
  REQUIRE(order.ok());
  auto alap = alapTimes(graph, *order, horizon);
  REQUIRE(alap.ok());
  return {asapTimes(graph, *order), std::move(alap).value()};
}

// prod over readers r != excluded of F_r(t), from the definition.
double productByDefinition(const Graph& graph, OpId value, OpId excluded, const Frames& frames,
                           Cycle t) {
  double product = 1.0;
  for (EdgeId e : graph.outEdges(value)) {
    const OpId reader = graph.edgeTarget(e);
    if (reader != excluded) product *= frameCdf(frames.asap[reader], frames.alap[reader], t);
  }
  return product;
}

}  // namespace

TEST_CASE("reader products by hand: two readers, one left out", "[heuristic][fds]") {
  // v -> a (frame [1, 2]) and v -> b (frame [1, 3]): F_a = (0, 1/2, 1, 1), F_b = (0, 1/3, 2/3, 1)
  // at t = 0..3, so prod = (0, 1/6, 2/3, 1); without a it is F_b, without b it is F_a. Kept
  // (minKeptReaders 1) and swept (minKeptReaders 3) give the same numbers.
  GraphBuilder builder("two_readers");
  const OpId v = builder.addOp("v", 1);
  const OpId a = builder.addOp("a", 1);
  const OpId b = builder.addOp("b", 1);
  builder.addEdge(v, a);
  builder.addEdge(v, b);
  auto graph = std::move(builder).build();
  REQUIRE(graph.ok());
  const NeighbourLists successors(*graph, true);
  const std::vector<Cycle> asap{0, 1, 1};
  const std::vector<Cycle> alap{1, 2, 3};
  for (std::size_t minKept : {std::size_t{1}, std::size_t{3}}) {
    ReaderProducts products(successors, minKept);
    products.reset(asap, alap);
    CHECK(products.kept(v) == (minKept == 1));
    std::vector<double> out(4);
    products.fill(v, ReaderProducts::kNoOp, 0, 3, asap, alap, out.data());
    CHECK(out[0] == 0.0);
    CHECK(out[1] == Approx(1.0 / 6));
    CHECK(out[2] == Approx(2.0 / 3));
    CHECK(out[3] == 1.0);
    products.fill(v, a, 0, 3, asap, alap, out.data());
    CHECK(out[0] == 0.0);
    CHECK(out[1] == Approx(1.0 / 3));
    CHECK(out[2] == Approx(2.0 / 3));
    CHECK(out[3] == 1.0);
    products.fill(v, b, 0, 3, asap, alap, out.data());
    CHECK(out == std::vector<double>{0.0, 0.5, 1.0, 1.0});
  }
}

TEST_CASE("reader products kept per cycle follow every narrowing of a reader's frame",
          "[heuristic][fds]") {
  // A hub read by 12 ops: its products kept per cycle (counts and a product updated by
  // division) equal the definition after each of a random sequence of frame narrowings, with
  // every reader left out in turn.
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const Graph graph = fanGraph(seed, 12);
    const NeighbourLists successors(graph, true);
    const NeighbourLists predecessors(graph, false);
    Frames frames = framesAt(graph, 12);
    ReaderProducts products(successors);
    products.reset(frames.asap, frames.alap);
    REQUIRE(products.kept(0));
    std::mt19937_64 random(seed);
    std::vector<double> out(16);
    for (int step = 0; step < 30; ++step) {
      const auto reader = static_cast<OpId>(1 + random() % successors.size(0));
      const OpId op = successors.of(0)[static_cast<std::size_t>(reader - 1)].op;
      const Cycle lo = frames.asap[op];
      const Cycle hi = frames.alap[op];
      const Cycle newLo =
          lo + static_cast<Cycle>(random() % static_cast<std::uint64_t>(hi - lo + 1));
      const Cycle newHi =
          newLo + static_cast<Cycle>(random() % static_cast<std::uint64_t>(hi - newLo + 1));
      products.reframe(predecessors.of(op), lo, hi, newLo, newHi);
      frames.asap[op] = newLo;
      frames.alap[op] = newHi;
      for (OpId excluded = ReaderProducts::kNoOp; excluded < graph.numOps(); ++excluded) {
        if (excluded != ReaderProducts::kNoOp &&
            std::none_of(successors.of(0).begin(), successors.of(0).end(),
                         [&](const auto& n) { return n.op == excluded; })) {
          continue;
        }
        products.fill(0, excluded, 0, 15, frames.asap, frames.alap, out.data());
        for (Cycle t = 0; t <= 15; ++t) {
          INFO("seed " << seed << ", step " << step << ", excluded " << excluded << ", t " << t);
          CHECK(out[static_cast<std::size_t>(t)] ==
                Approx(productByDefinition(graph, 0, excluded, frames, t)).margin(1e-12));
        }
      }
    }
  }
}

TEST_CASE("fds forces: the prefix sums equal the direct sums after random narrowings",
          "[heuristic][fds]") {
  // Random layered memory graphs and fan graphs (a value with 10 readers, kept per cycle), the
  // memory and the resource distribution graphs: after each narrowing of a random op to a
  // random sub-frame, the force of fixing every open op at every step of its frame is the same
  // under both sums (up to rounding: 1e-9 of the total memory squared).
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const bool fan = seed % 3 == 0;
    const Graph graph =
        fan ? fanGraph(seed, 10) : test::layeredMemoryGraph(seed, 30, 1.6, 6, 3).graph;
    const Machine machine = test::layeredMemoryGraph(seed, 30, 1.6, 6, 3).machine;
    const bool memory = seed % 4 != 1;
    const auto order = topologicalOrder(graph);
    REQUIRE(order.ok());
    const Cycle horizon = criticalPathLength(graph, asapTimes(graph, *order)) + 4;
    Frames frames = framesAt(graph, horizon);
    ForceModel prefix(graph, machine, memory, ForceSums::kPrefix);
    ForceModel direct(graph, machine, memory, ForceSums::kDirect);
    prefix.reset(frames.asap, frames.alap);
    direct.reset(frames.asap, frames.alap);
    double scale = 1.0;
    for (OpId op = 0; op < graph.numOps(); ++op) scale += graph.mem(op);
    std::mt19937_64 random(seed);
    while (prefix.fixedCount() < graph.numOps()) {
      for (OpId op = 0; op < graph.numOps(); ++op) {
        if (prefix.fixed(op)) continue;
        for (Cycle step = prefix.asap(op); step <= prefix.alap(op); ++step) {
          INFO("seed " << seed << ", op " << op << ", step " << step);
          CHECK(prefix.narrowingForce(op, step, step) ==
                Approx(direct.narrowingForce(op, step, step)).margin(1e-9 * scale * scale));
        }
      }
      OpId op = static_cast<OpId>(random() % static_cast<std::uint64_t>(graph.numOps()));
      while (prefix.fixed(op)) op = (op + 1) % graph.numOps();
      const Cycle lo = prefix.asap(op);
      const Cycle hi = prefix.alap(op);
      const Cycle newLo =
          lo + static_cast<Cycle>(random() % static_cast<std::uint64_t>(hi - lo + 1));
      const Cycle newHi =
          newLo + static_cast<Cycle>(random() % static_cast<std::uint64_t>(hi - newLo + 1));
      prefix.narrow(op, newLo, newHi);
      direct.narrow(op, newLo, newHi);
      REQUIRE(prefix.asaps() == direct.asaps());
    }
  }
}
