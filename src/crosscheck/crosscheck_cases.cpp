// The five families of random cross-check cases (crosscheck_cases.hpp).

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/random_graph.hpp>
#include <gaus/crosscheck/crosscheck_cases.hpp>

namespace gaus::crosscheck {

namespace {

// Draws from the raw output of std::mt19937_64, whose sequence the standard fixes (its
// distributions it does not), so a seed means the same case everywhere.
class CaseRandom {
 public:
  explicit CaseRandom(std::uint64_t seed) : engine_(seed ^ 0xD1FF'E4E7'1A15'0000ULL) {}
  std::int32_t between(std::int32_t low, std::int32_t high) {  // inclusive
    return low + static_cast<std::int32_t>(engine_() % static_cast<std::uint64_t>(high - low + 1));
  }
  bool chance(double probability) {
    return static_cast<double>(engine_() >> 11) * 0x1.0p-53 < probability;
  }

 private:
  std::mt19937_64 engine_;
};

// Three cases in five are small enough for the exhaustive references; with `maxOps` every case
// has 3 to maxOps ops.
std::int32_t drawOpCount(CaseRandom& random, std::int32_t largest,
                         std::optional<std::int32_t> maxOps) {
  if (maxOps) return random.between(3, std::max(3, *maxOps));
  return random.chance(0.6) ? random.between(3, 8) : random.between(9, largest);
}

std::optional<std::int32_t> drawUnits(CaseRandom& random, std::int32_t low, std::int32_t high) {
  if (random.chance(0.15)) return std::nullopt;  // an unlimited unit now and then
  return random.between(low, high);
}

// HLS-like types: single-cycle ALUs, multipliers pipelined or busy two cycles, memory ports busy
// two cycles and an unpipelined divider (occupancy 0 = its whole latency).
RandomGraphOptions unitGraphOptions(CaseRandom& random, std::int32_t ops, std::uint64_t seed) {
  RandomGraphOptions options;
  options.ops = ops;
  options.seed = seed;
  options.averageDegree = 0.8 + 0.2 * random.between(0, 6);
  options.layered = random.chance(0.3);
  options.layers = std::max(2, ops / 3);
  options.opTypes = {{"ALU", 1, 2, 1, drawUnits(random, 1, 3), 3.0},
                     {"MUL", 2, 4, random.between(1, 2), drawUnits(random, 1, 2), 1.5},
                     {"MEM", 1, 3, 2, drawUnits(random, 1, 1), 1.0},
                     {"DIV", 3, 6, 0, drawUnits(random, 1, 1), 0.3}};
  return options;
}

// What the generator does not draw, applied op by op and edge by edge while the graph is
// copied into a builder.
struct Decoration {
  std::function<void(OpId, OpAttributes&)> op;
  std::function<void(EdgeAttributes&)> edge;
};

Expected<Graph> decorate(const Graph& graph, const Decoration& decoration) {
  return withEditedAttributes(graph, decoration.op, [&](EdgeId, EdgeAttributes& attributes) {
    if (decoration.edge) decoration.edge(attributes);
  });
}

// Multi-resource reservation tables (an op also holds a shared bus for a cycle or two, at an
// offset) and edge delays that differ from the source's latency (0 included).
Decoration unitDecoration(CaseRandom& random, Machine& machine) {
  const std::int32_t busCapacity = random.between(1, 2);
  const ResourceId bus = machine.addResource("BUS", busCapacity);
  Decoration decoration;
  decoration.op = [&random, bus, busCapacity](OpId, OpAttributes& op) {
    if (!random.chance(0.25)) return;
    ReservationBlock block;
    block.resource = bus;
    block.begin = random.between(0, std::max(0, op.latency));
    block.length = random.between(1, 2);
    block.units = random.between(1, busCapacity);
    op.reservation.push_back(block);
  };
  decoration.edge = [&random](EdgeAttributes& edge) {
    if (edge.delay && random.chance(0.2))
      edge.delay = std::max(0, *edge.delay + random.between(-1, 1));
  };
  return decoration;
}

struct Drawn {
  Graph graph;
  Machine machine;
};

Expected<Drawn> drawUnitGraph(CaseRandom& random, RandomGraphOptions options) {
  auto generated = generateRandomGraph(options);
  if (!generated) return Error{generated.error()};
  Drawn drawn{Graph{}, std::move(generated->machine)};
  Decoration decoration = unitDecoration(random, drawn.machine);
  auto graph = decorate(generated->graph, decoration);
  if (!graph) return Error{graph.error()};
  drawn.graph = std::move(graph).value();
  return drawn;
}

Cycle criticalPathOf(const Graph& graph) {
  const auto order = topologicalOrder(graph);
  return order ? criticalPathLength(graph, asapTimes(graph, *order)) : 0;
}

Expected<CrossCheckCase> assemble(std::uint64_t seed, Family family, Drawn drawn,
                                  ProblemKind kind) {
  CrossCheckCase result;
  result.seed = seed;
  result.family = family;
  result.instance.name = fmt::format("differential_{}", seed);
  result.instance.graph = std::make_shared<const Graph>(std::move(drawn.graph));
  result.instance.machine = std::make_shared<const Machine>(std::move(drawn.machine));
  result.problem = result.instance.problem(kind);
  return result;
}

Expected<CrossCheckCase> latencyCase(std::uint64_t seed, CaseRandom& random,
                                     std::optional<std::int32_t> maxOps) {
  auto drawn =
      drawUnitGraph(random, unitGraphOptions(random, drawOpCount(random, 40, maxOps), seed));
  if (!drawn) return Error{drawn.error()};
  return assemble(seed, Family::kLatency, std::move(drawn).value(), ProblemKind::kLatency);
}

// Memory weights on the values (integers, so that peak memories compare exactly) and a horizon
// between the critical path (or the units' bound) and three cycles beyond; one case in twenty
// gets a horizon below the critical path, where every method must say infeasible.
Expected<CrossCheckCase> latencyBoundedCase(std::uint64_t seed, CaseRandom& random,
                                            std::optional<std::int32_t> maxOps) {
  RandomGraphOptions options = unitGraphOptions(random, drawOpCount(random, 40, maxOps), seed);
  auto drawn = drawUnitGraph(random, options);
  if (!drawn) return Error{drawn.error()};
  Decoration memory;
  memory.op = [&random](OpId, OpAttributes& op) {
    if (random.chance(0.7)) op.mem = random.between(1, 4);
  };
  auto weighted = decorate(drawn->graph, memory);
  if (!weighted) return Error{weighted.error()};
  drawn->graph = std::move(weighted).value();
  const Cycle criticalPath = criticalPathOf(drawn->graph);
  const ResMii units = computeResMii(drawn->graph, drawn->machine);
  Cycle horizon = std::max<Cycle>(criticalPath, units.binding ? units.value : 0);
  horizon += random.between(0, 3);
  if (random.chance(0.05)) horizon = std::max<Cycle>(0, criticalPath - 1);
  auto result = assemble(seed, Family::kLatencyBounded, std::move(drawn).value(),
                         ProblemKind::kLatencyBounded);
  if (result) result->problem.horizon = horizon;
  return result;
}

Expected<CrossCheckCase> moduloCase(std::uint64_t seed, CaseRandom& random,
                                    std::optional<std::int32_t> maxOps) {
  RandomGraphOptions options = unitGraphOptions(random, drawOpCount(random, 40, maxOps), seed);
  options.backEdges = random.between(1, 3);
  options.maxDistance = 2;
  auto drawn = drawUnitGraph(random, options);
  if (!drawn) return Error{drawn.error()};
  const std::int64_t mii =
      std::max({std::int64_t{1}, computeResMii(drawn->graph, drawn->machine).value,
                computeRecMii(drawn->graph).value});
  const bool fixedIi = random.chance(0.2);
  const std::int32_t ii = static_cast<std::int32_t>(mii) + random.between(0, 1);
  auto result = assemble(seed, Family::kModulo, std::move(drawn).value(), ProblemKind::kModulo);
  if (result && fixedIi) result->problem.ii = ii;
  return result;
}

// A small warp-specialized loop: tensor-core, exp and ALU ops, variable-latency loads on warp 0
// when the machine has two warps or more, registers against a per-warp limit, a shared memory
// of a few units, spill costs, ops on warp groups of two or four and blocking edges.
Expected<CrossCheckCase> moduloWarpCase(std::uint64_t seed, CaseRandom& random,
                                        std::optional<std::int32_t> maxOps) {
  RandomGraphOptions options;
  options.ops = maxOps               ? random.between(3, std::max(3, *maxOps))
                : random.chance(0.7) ? random.between(3, 8)
                                     : random.between(9, 12);
  options.seed = seed;
  options.averageDegree = 0.8 + 0.2 * random.between(0, 4);
  options.backEdges = random.between(0, 2);
  options.opTypes = {{"TC", 1, 2, 1, 1, 2.0},
                     {"EXP", 1, 2, 1, 1, 1.0},
                     {"ALU", 1, 1, 1, random.between(1, 2), 1.0},
                     {"TMA", 1, 2, 1, 1, 1.0}};
  auto generated = generateRandomGraph(options);
  if (!generated) return Error{generated.error()};
  Machine machine = std::move(generated->machine);
  machine.name = "warps";
  // Mostly one to three warps, where the exhaustive search sees every warp set; sometimes the
  // 8 to 32 warps of a real block, with warp groups of four, where it leans on warp renaming.
  const bool wide = random.chance(0.25);
  machine.warps = wide ? random.between(8, 32) : random.between(1, 3);
  const bool isolateLoads = machine.warps >= 2 && random.chance(0.7);
  if (isolateLoads) machine.variableLatencyWarp = 0;
  if (random.chance(0.6)) machine.registerLimit = 32 * random.between(2, 8);
  std::optional<MemoryId> smem;
  if (random.chance(0.5)) {
    smem = static_cast<MemoryId>(machine.memories.size());
    machine.memories.push_back(Memory{"smem", random.between(2, 6)});
  }
  const ResourceId tma = *machine.findResource("TMA");
  // Ops on several warps take an aligned group (core isWarpGroup) that avoids the
  // variable-latency warp: four on a wide machine, two where {0, 1} is free.
  const std::int32_t groupSize = wide ? 4 : 2;
  const bool groupFits = wide || (machine.warps >= 2 && !isolateLoads);
  const Graph& base = generated->graph;
  Decoration decoration;
  decoration.op = [&](OpId id, OpAttributes& op) {
    const bool load = !op.reservation.empty() && op.reservation.front().resource == tma;
    op.variableLatency = load && isolateLoads;
    // A load with no incoming data edge may stream (its out-edges then get delay 0).
    const auto in = base.inEdges(id);
    const bool fed =
        std::any_of(in.begin(), in.end(), [&](EdgeId e) { return base.edgeDistance(e) == 0; });
    op.streaming = op.variableLatency && !fed && random.chance(0.5);
    if (random.chance(0.5)) op.regs = 32 * random.between(1, 4);
    if (smem && random.chance(0.4)) op.footprints.push_back({*smem, random.between(1, 2)});
    if (random.chance(0.3)) op.spillCost = random.between(1, 2);
    if (!op.variableLatency && groupFits && random.chance(wide ? 0.4 : 0.15)) {
      op.minWarps = groupSize;
    }
  };
  decoration.edge = [&](EdgeAttributes& edge) { edge.blocking = random.chance(0.15); };
  auto graph = decorate(base, decoration);
  if (!graph) return Error{graph.error()};
  Drawn drawn{std::move(graph).value(), std::move(machine)};
  return assemble(seed, Family::kModuloWarp, std::move(drawn), ProblemKind::kModuloWarp);
}

// GS-Schedule's random workloads in small: weights on most nodes, communication on half the
// edges, no resources; posed as the stage problem (ProblemKind::kStages) with 1 to 6 stages.
Expected<CrossCheckCase> stagesCase(std::uint64_t seed, CaseRandom& random,
                                    std::optional<std::int32_t> maxOps) {
  RandomGraphOptions options;
  options.ops = drawOpCount(random, 40, maxOps);
  options.seed = seed;
  options.averageDegree = 0.8 + 0.2 * random.between(0, 6);
  options.opTypes = {{"OP", 1, 1, 1, std::nullopt, 1.0}};
  options.weightedFraction = 0.8;
  options.minWeight = 1;
  options.maxWeight = 5;
  options.commFraction = 0.5;
  auto generated = generateRandomGraph(options);
  if (!generated) return Error{generated.error()};
  Decoration integral;
  integral.op = [](OpId, OpAttributes& op) {
    op.weight = std::round(op.weight);
    op.mem = op.weight;
  };
  auto graph = decorate(generated->graph, integral);
  if (!graph) return Error{graph.error()};
  Instance instance;
  instance.name = fmt::format("differential_{}", seed);
  instance.graph = std::make_shared<const Graph>(std::move(graph).value());
  instance.machine = std::make_shared<const Machine>(std::move(generated->machine));
  const Problem problem =
      instance.problem(ProblemKind::kStages, static_cast<Cycle>(random.between(1, 6)));
  return caseOf(seed, Family::kStages, problem, instance.name);
}

}  // namespace

CrossCheckCase caseOf(std::uint64_t seed, Family family, const Problem& problem, std::string name) {
  CrossCheckCase result;
  result.seed = seed;
  result.family = family;
  result.instance.name = std::move(name);
  result.instance.graph = problem.graph;
  result.instance.machine = problem.machine;
  result.problem = problem;
  return result;
}

Expected<CrossCheckCase> generateCase(std::uint64_t seed, std::optional<Family> family,
                                      std::optional<std::int32_t> maxOps) {
  CaseRandom random(seed);
  // Latency and modulo problems have the most methods to compare, warps the fewest.
  const std::int32_t draw = random.between(0, 19);
  const Family drawn = draw < 5    ? Family::kLatency
                       : draw < 9  ? Family::kLatencyBounded
                       : draw < 14 ? Family::kModulo
                       : draw < 17 ? Family::kModuloWarp
                                   : Family::kStages;
  switch (family.value_or(drawn)) {
    case Family::kLatency:
      return latencyCase(seed, random, maxOps);
    case Family::kLatencyBounded:
      return latencyBoundedCase(seed, random, maxOps);
    case Family::kModulo:
      return moduloCase(seed, random, maxOps);
    case Family::kModuloWarp:
      return moduloWarpCase(seed, random, maxOps);
    case Family::kStages:
      return stagesCase(seed, random, maxOps);
  }
  return Error{"unknown family"};
}

}  // namespace gaus::crosscheck
