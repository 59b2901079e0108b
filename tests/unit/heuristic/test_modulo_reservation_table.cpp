#include <random>

#include <catch2/catch.hpp>

#include <gaus/heuristic/modulo_reservation_table.hpp>
#include <gaus/heuristic/reservation_runs.hpp>

#include "resource_timeline.hpp"

using namespace gaus;
using namespace gaus::heuristic;

namespace {

Machine twoResources(std::int32_t aluUnits, std::int32_t mulUnits) {
  Machine machine;
  machine.name = "two";
  machine.addResource("ALU", aluUnits);
  machine.addResource("MUL", mulUnits);
  machine.addResource("WIRE", std::nullopt);
  return machine;
}

std::vector<ReservationRun> runsOf(const Machine& machine, std::optional<std::int32_t> ii,
                                   std::vector<ReservationBlock> blocks) {
  ReservationRunBuilder builder(machine, ii);
  builder.addOp(blocks);
  const auto runs = builder.runsOf(0);
  return {runs.begin(), runs.end()};
}

}  // namespace

TEST_CASE("runs: one block per resource is kept as is, unlimited and empty blocks are dropped",
          "[heuristic][runs]") {
  const Machine machine = twoResources(1, 1);
  const auto runs =
      runsOf(machine, std::nullopt, {{0, 0, 3, 1}, {1, 2, 1, 1}, {2, 0, 9, 1}, {0, 5, 0, 1}});
  CHECK(runs == std::vector<ReservationRun>{{0, 0, 3, 1}, {1, 2, 1, 1}});
}

TEST_CASE("runs: overlapping blocks on one resource add up", "[heuristic][runs]") {
  // ALU held 1 unit on [0, 2) and 1 unit on [1, 3): 1 unit at offset 0, 2 at 1, 1 at 2.
  const Machine machine = twoResources(2, 1);
  const auto runs = runsOf(machine, std::nullopt, {{0, 0, 2, 1}, {0, 1, 2, 1}});
  CHECK(runs == std::vector<ReservationRun>{{0, 0, 1, 1}, {0, 1, 1, 2}, {0, 2, 1, 1}});
  // With one ALU the op cannot be placed even alone.
  const Machine narrow = twoResources(1, 1);
  const auto overfull = describeOverfullRun(
      runsOf(narrow, std::nullopt, {{0, 0, 2, 1}, {0, 1, 2, 1}}), narrow, "op7", std::nullopt);
  REQUIRE(overfull);
  CHECK_THAT(*overfull, Catch::Contains("op7 needs 2 units of resource ALU at cycle offset 1") &&
                            Catch::Contains("its capacity is 1"));
}

TEST_CASE("runs folded modulo II: a block longer than II wraps onto every residue",
          "[heuristic][runs]") {
  const Machine machine = twoResources(4, 1);
  // Length 5 from offset 3 at II 2: two full turns (2 units everywhere) plus one more cycle at
  // residue 3 mod 2 = 1, so 3 units at residue 1 and 2 at residue 0.
  CHECK(runsOf(machine, 2, {{0, 3, 5, 1}}) ==
        std::vector<ReservationRun>{{0, 1, 1, 3}, {0, 0, 1, 2}});
  // Length 4 at II 2: exactly two turns, 2 units on the whole circle.
  CHECK(runsOf(machine, 2, {{0, 1, 4, 1}}) == std::vector<ReservationRun>{{0, 0, 2, 2}});
  // Two 1-cycle blocks II apart land on the same residue: 2 units at residue 1.
  CHECK(runsOf(machine, 3, {{0, 1, 1, 1}, {0, 4, 1, 1}}) ==
        std::vector<ReservationRun>{{0, 1, 1, 2}});
}

TEST_CASE("MRT: reserve, used, fits and release on a wrapping block", "[heuristic][mrt]") {
  const Machine machine = twoResources(3, 1);
  ModuloReservationTable table(machine, 2);
  const std::vector<ReservationBlock> longBlock{{0, 0, 5, 1}};
  // Cycles 3..7 are residues 1, 0, 1, 0, 1: 3 units at residue 1, 2 at residue 0.
  table.reserve(longBlock, 3);
  CHECK(table.used(0, 1) == 3);
  CHECK(table.used(0, 0) == 2);
  CHECK(table.used(1, 0) == 0);
  // One more ALU cycle fits only at residue 0.
  const std::vector<ReservationBlock> oneCycle{{0, 0, 1, 1}};
  CHECK(table.fits(oneCycle, 4));
  CHECK_FALSE(table.fits(oneCycle, 7));
  // An unlimited resource never conflicts.
  CHECK(table.fits(std::vector<ReservationBlock>{{2, 0, 100, 50}}, 0));
  table.release(longBlock, 3);
  CHECK(table.used(0, 0) == 0);
  CHECK(table.used(0, 1) == 0);
}

TEST_CASE("MRT: a multi-block table checks every block against its own resource",
          "[heuristic][mrt]") {
  const Machine machine = twoResources(1, 1);
  ModuloReservationTable table(machine, 4);
  // First op: ALU at its start, MUL two cycles later; placed at 0 it holds ALU residue 0 and
  // MUL residue 2.
  const std::vector<ReservationBlock> aluThenMul{{0, 0, 1, 1}, {1, 2, 1, 1}};
  table.reserve(aluThenMul, 0);
  // Second op: MUL at s, ALU at s + 1. It clashes when s = 2 (MUL) or s + 1 = 0 (ALU), mod 4.
  const std::vector<ReservationBlock> mulThenAlu{{1, 0, 1, 1}, {0, 1, 1, 1}};
  CHECK(table.fits(mulThenAlu, 0));
  CHECK(table.fits(mulThenAlu, 1));
  CHECK_FALSE(table.fits(mulThenAlu, 2));
  CHECK_FALSE(table.fits(mulThenAlu, 3));
  CHECK(table.fits(mulThenAlu, 4));
  const auto runs = runsOf(machine, 4, mulThenAlu);
  CHECK(table.earliestFit(runs, 2, 5) == Cycle{4});
  CHECK(table.earliestFit(runs, 2, 3) == std::nullopt);
}

// The slot search skips ahead on conflicts and over 64-residue blocks; it must find exactly the
// first start that a plain cell-by-cell test of every candidate finds. Random tables and random
// multi-block, multi-unit ops, with blocks shorter and longer than II, and II both below and
// well above the block size. The reference keeps its own usage table, filled cycle by cycle.
TEST_CASE("MRT: earliestFit equals the first fitting start found by testing every candidate",
          "[heuristic][mrt]") {
  std::mt19937 random(12345);
  auto uniform = [&](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  int found = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Machine machine = twoResources(uniform(1, 3), uniform(1, 2));
    const std::int32_t ii = trial % 2 == 0 ? uniform(1, 12) : uniform(65, 400);
    ModuloReservationTable table(machine, ii);
    std::vector<std::vector<std::int64_t>> reference(2, std::vector<std::int64_t>(ii, 0));
    auto demandOf = [&](const std::vector<ReservationBlock>& blocks, Cycle at) {
      std::vector<std::vector<std::int64_t>> demand(2, std::vector<std::int64_t>(ii, 0));
      for (const auto& block : blocks) {
        for (Cycle c = at + block.begin; c < at + block.begin + block.length; ++c) {
          demand[block.resource][c % ii] += block.units;
        }
      }
      return demand;
    };
    auto plainFits = [&](const std::vector<ReservationBlock>& blocks, Cycle at) {
      const auto demand = demandOf(blocks, at);
      for (ResourceId r = 0; r < 2; ++r) {
        for (std::int32_t residue = 0; residue < ii; ++residue) {
          if (reference[r][residue] + demand[r][residue] > *machine.resources[r].capacity) {
            return false;
          }
        }
      }
      return true;
    };
    auto randomBlocks = [&] {
      std::vector<ReservationBlock> blocks;
      const int count = uniform(1, 3);
      for (int b = 0; b < count; ++b) {
        const ResourceId resource = uniform(0, 1);
        const std::int32_t capacity = *machine.resources[resource].capacity;
        blocks.push_back({resource, uniform(0, 6), uniform(1, 2 * ii + 2), uniform(1, capacity)});
      }
      return blocks;
    };
    for (int placed = 0; placed < 6; ++placed) {
      const auto blocks = randomBlocks();
      const Cycle at = uniform(0, 20);
      if (!plainFits(blocks, at)) continue;
      table.reserve(blocks, at);
      const auto demand = demandOf(blocks, at);
      for (ResourceId r = 0; r < 2; ++r) {
        for (std::int32_t residue = 0; residue < ii; ++residue) {
          reference[r][residue] += demand[r][residue];
        }
      }
    }
    for (std::int32_t residue = 0; residue < ii; ++residue) {
      REQUIRE(table.used(0, residue) == reference[0][residue]);
      REQUIRE(table.used(1, residue) == reference[1][residue]);
    }
    for (int query = 0; query < 5; ++query) {
      const auto blocks = randomBlocks();
      const auto runs = runsOf(machine, ii, blocks);
      const Cycle from = uniform(0, 15);
      const Cycle last = from + uniform(0, 2 * ii);
      std::optional<Cycle> expected;
      for (Cycle s = from; s <= last && !expected; ++s) {
        if (plainFits(blocks, s)) expected = s;
      }
      INFO("trial " << trial << " query " << query << " II " << ii);
      REQUIRE(table.earliestFit(runs, from, last) == expected);
      REQUIRE(table.fits(blocks, from) == plainFits(blocks, from));
      found += expected ? 1 : 0;
    }
  }
  // Both outcomes occur, so both paths of the search were exercised.
  CHECK(found > 100);
  CHECK(found < 1400);
}

TEST_CASE("resource timeline: earliestFit equals the first fitting start of a plain table",
          "[heuristic][timeline]") {
  std::mt19937 random(777);
  auto uniform = [&](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  for (int trial = 0; trial < 200; ++trial) {
    const Machine machine = twoResources(uniform(1, 3), uniform(1, 2));
    detail::ResourceTimeline timeline(machine);
    // A plain usage table as the reference.
    std::vector<std::vector<std::int64_t>> usage(2, std::vector<std::int64_t>(400, 0));
    auto plainFits = [&](const std::vector<ReservationRun>& runs, Cycle s) {
      for (const auto& run : runs) {
        for (Cycle c = s + run.offset; c < s + run.offset + run.length; ++c) {
          if (usage[run.resource][c] + run.units > *machine.resources[run.resource].capacity) {
            return false;
          }
        }
      }
      return true;
    };
    for (int op = 0; op < 25; ++op) {
      std::vector<ReservationBlock> blocks;
      const int count = uniform(1, 3);
      for (int b = 0; b < count; ++b) {
        const ResourceId resource = uniform(0, 1);
        blocks.push_back({resource, uniform(0, 3), uniform(1, 4), 1});
      }
      const auto runs = runsOf(machine, std::nullopt, blocks);
      if (describeOverfullRun(runs, machine, "x", std::nullopt)) continue;
      const Cycle from = uniform(0, 30);
      Cycle expected = from;
      while (!plainFits(runs, expected)) ++expected;
      INFO("trial " << trial << " op " << op);
      REQUIRE(timeline.earliestFit(runs, from) == expected);
      REQUIRE(timeline.reserve(runs, expected).ok());
      for (const auto& run : runs) {
        for (Cycle c = expected + run.offset; c < expected + run.offset + run.length; ++c) {
          usage[run.resource][c] += run.units;
        }
      }
    }
  }
}

TEST_CASE("resource timeline: a table past its cell limit is an error naming the resource",
          "[heuristic][timeline]") {
  const Machine machine = twoResources(1, 1);
  detail::ResourceTimeline timeline(machine, 1000);
  const std::vector<ReservationRun> runs{{1, 0, 1, 1}};
  CHECK(timeline.reserve(runs, 500).ok());
  const Status tooFar = timeline.reserve(runs, 5000);
  REQUIRE_FALSE(tooFar.ok());
  CHECK_THAT(tooFar.error(), Catch::Contains("resource MUL") && Catch::Contains("cycle 5001"));
}
