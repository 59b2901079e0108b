#include <algorithm>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include <gaus/core/option_table.hpp>
#include <gaus/core/random_graph.hpp>

#include "random_stream.hpp"

namespace gaus {

namespace {

using detail::RandomStream;

// Layered DAGs with a fixed fan-in: every op past the first layer draws options.faninPerOp
// distinct predecessors as (from position, to position) pairs. The first is uniform in the layer
// above (it sets the depth). An op that no op of the next layer reads that way is promised a
// reader g layers down, g uniform in [2, maxLayerSpan]: the other fan-ins serve these promises
// first, then draw uniformly within the span. So few values dangle (an and-inverter graph has few
// outputs), and about a third of the ops have slack, as in real circuits; were every op read
// by the next layer, every op would lie on a longest path and a horizon at the critical path
// would leave no choice.
void addFixedFanin(const RandomGraphOptions& options, const std::vector<std::int32_t>& layerStart,
                   RandomStream& random,
                   std::vector<std::pair<std::int32_t, std::int32_t>>& forward) {
  const auto layers = static_cast<std::int32_t>(layerStart.size()) - 1;
  std::vector<char> read(static_cast<std::size_t>(layerStart.back()), 0);
  std::vector<std::vector<std::int32_t>> promised(static_cast<std::size_t>(layers));
  std::vector<std::vector<std::int32_t>> chosen;
  for (std::int32_t l = 1; l < layers; ++l) {
    const std::int32_t size = layerStart[l + 1] - layerStart[l];
    chosen.assign(static_cast<std::size_t>(size), {});
    for (auto& predecessors : chosen) {
      const auto first =
          static_cast<std::int32_t>(random.between(layerStart[l - 1], layerStart[l] - 1));
      predecessors.push_back(first);
      read[first] = 1;
    }
    if (options.maxLayerSpan >= 2) {
      for (std::int32_t p = layerStart[l - 1]; p < layerStart[l]; ++p) {
        if (read[p]) continue;
        const auto target =
            l - 1 + static_cast<std::int32_t>(random.between(2, options.maxLayerSpan));
        if (target < layers) promised[target].push_back(p);
      }
    }
    std::vector<std::int32_t>& due = promised[l];
    const std::int32_t firstLayer = std::max(0, l - options.maxLayerSpan);
    const std::int32_t fanin = std::min(options.faninPerOp, layerStart[l] - layerStart[firstLayer]);
    for (auto& predecessors : chosen) {
      while (static_cast<std::int32_t>(predecessors.size()) < fanin) {
        std::int32_t from = 0;
        if (!due.empty()) {  // from layers <= l - 2: never the first fan-in
          from = due.back();
          due.pop_back();
        } else {
          const auto fromLayer = static_cast<std::int32_t>(random.between(firstLayer, l - 1));
          from = static_cast<std::int32_t>(
              random.between(layerStart[fromLayer], layerStart[fromLayer + 1] - 1));
        }
        if (std::find(predecessors.begin(), predecessors.end(), from) == predecessors.end()) {
          predecessors.push_back(from);
        }
      }
    }
    // Promises this layer could not keep pass to the next one (the value lives a layer longer).
    if (l + 1 < layers) {
      promised[l + 1].insert(promised[l + 1].end(), due.begin(), due.end());
    }
    std::vector<std::int32_t>().swap(due);
    for (std::int32_t i = 0; i < size; ++i) {
      for (const std::int32_t from : chosen[static_cast<std::size_t>(i)]) {
        forward.emplace_back(from, layerStart[l] + i);
      }
    }
  }
}

std::optional<std::string> validate(const RandomGraphOptions& options) {
  if (options.ops < 1) return fmt::format("ops must be >= 1, got {}", options.ops);
  if (options.averageDegree < 0) return "averageDegree must be >= 0";
  if (options.edgeProbability < 0 || options.edgeProbability > 1) {
    return "edgeProbability must be in [0, 1]";
  }
  if (options.edgeProbability > 0 && options.ops > 20000) {
    return fmt::format("edgeProbability draws every pair: use averageDegree for {} ops",
                       options.ops);
  }
  if (options.layered && (options.layers < 1 || options.maxLayerSpan < 1)) {
    return "layered graphs need layers >= 1 and maxLayerSpan >= 1";
  }
  if (options.faninPerOp < 0) return "faninPerOp must be >= 0";
  if (options.faninPerOp > 0 && !options.layered) {
    return "faninPerOp applies to layered graphs only";
  }
  if (options.opTypes.empty()) return "at least one op type is needed";
  for (const auto& type : options.opTypes) {
    if (type.minLatency < 0 || type.maxLatency < type.minLatency) {
      return fmt::format("op type {}: latency range [{}, {}] is invalid", type.name,
                         type.minLatency, type.maxLatency);
    }
    if (type.occupancy < 0) return fmt::format("op type {}: occupancy must be >= 0", type.name);
    if (type.share <= 0) return fmt::format("op type {}: share must be > 0", type.name);
  }
  if (options.backEdges < 0 || options.maxDistance < 1) {
    return "backEdges must be >= 0 and maxDistance >= 1";
  }
  if (options.weightedFraction < 0 || options.weightedFraction > 1 || options.commFraction < 0 ||
      options.commFraction > 1 || options.maxWeight < options.minWeight) {
    return "weight fractions must be in [0, 1] and minWeight <= maxWeight";
  }
  return std::nullopt;
}

}  // namespace

Expected<RandomOpType> parseRandomOpType(std::string_view spec) {
  std::vector<std::string_view> fields;
  for (std::size_t begin = 0;;) {
    const auto colon = spec.find(':', begin);
    fields.push_back(spec.substr(begin, colon == std::string_view::npos ? colon : colon - begin));
    if (colon == std::string_view::npos) break;
    begin = colon + 1;
  }
  const auto wrong = [&](std::string_view what, std::string_view text) {
    return Error{
        fmt::format("op type '{}': expected {}, found '{}' (form: "
                    "NAME:MIN-MAX[:OCCUPANCY[:UNITS[:SHARE]]], e.g. MUL:2-4:1:2:0.5)",
                    spec, what, text)};
  };
  if (fields.size() < 2 || fields.size() > 5 || fields[0].empty()) {
    return wrong("a name and a latency range", spec);
  }
  const auto count = [&](std::string_view text, std::int32_t& out) {
    const auto parsed = option_text::parseInteger(text);
    if (!parsed || *parsed < 0 || *parsed > std::numeric_limits<std::int32_t>::max()) return false;
    out = static_cast<std::int32_t>(*parsed);
    return true;
  };
  RandomOpType type;
  type.name = std::string(fields[0]);
  const auto dash = fields[1].find('-');
  const std::string_view low = fields[1].substr(0, dash);
  const std::string_view high = dash == std::string_view::npos ? low : fields[1].substr(dash + 1);
  if (!count(low, type.minLatency) || !count(high, type.maxLatency)) {
    return wrong("a latency MIN or MIN-MAX of nonnegative integers", fields[1]);
  }
  if (fields.size() > 2 && !count(fields[2], type.occupancy)) {
    return wrong("a nonnegative integer occupancy", fields[2]);
  }
  if (fields.size() > 3 && fields[3] != "inf") {
    std::int32_t units = 0;
    if (!count(fields[3], units)) return wrong("a unit count or inf", fields[3]);
    type.units = units;
  }
  if (fields.size() > 4) {
    const auto share = option_text::parseNumber(fields[4]);
    if (!share || *share <= 0) return wrong("a positive share", fields[4]);
    type.share = *share;
  }
  return type;
}

Instance toInstance(RandomInstance&& generated) {
  Instance instance;
  instance.name = generated.graph.name();
  instance.graph = std::make_shared<const Graph>(std::move(generated.graph));
  instance.machine = std::make_shared<const Machine>(std::move(generated.machine));
  return instance;
}

Expected<RandomInstance> generateRandomGraph(const RandomGraphOptions& options) {
  if (const auto problem = validate(options)) return Error{"random graph: " + *problem};
  RandomStream random(options.seed);
  const std::int32_t n = options.ops;

  RandomInstance instance;
  instance.machine.name = "random";
  std::vector<ResourceId> typeResource;
  for (const auto& type : options.opTypes) {
    typeResource.push_back(instance.machine.addResource(type.name, type.units));
  }
  std::vector<double> cumulativeShare;
  double totalShare = 0;
  for (const auto& type : options.opTypes) cumulativeShare.push_back(totalShare += type.share);

  // Position p in `order` is the p-th op of a hidden topological order; ids are shuffled so
  // that edge ids are not topologically sorted (like the GS-Schedule graphs).
  std::vector<OpId> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  for (std::int32_t i = n - 1; i > 0; --i) {
    std::swap(order[i],
              order[static_cast<std::int32_t>(random.below(static_cast<std::uint64_t>(i) + 1))]);
  }

  GraphBuilder builder(fmt::format("random_{}_{}", n, options.seed));
  const auto expectedEdges = static_cast<std::size_t>(n * options.averageDegree) +
                             static_cast<std::size_t>(options.backEdges);
  builder.reserve(static_cast<std::size_t>(n), expectedEdges);
  for (std::int32_t id = 0; id < n; ++id) {
    const double pick = random.unit() * totalShare;
    const auto typeIndex = static_cast<std::size_t>(
        std::upper_bound(cumulativeShare.begin(), cumulativeShare.end() - 1, pick) -
        cumulativeShare.begin());
    const RandomOpType& type = options.opTypes[typeIndex];
    const auto latency =
        static_cast<std::int32_t>(random.between(type.minLatency, type.maxLatency));
    const OpId op = builder.addOp(fmt::format("n{}", id), latency);
    builder.setKind(op, type.name);
    const std::int32_t occupancy = type.occupancy > 0 ? type.occupancy : latency;
    if (occupancy > 0) builder.addReservation(op, {typeResource[typeIndex], 0, occupancy, 1});
    if (options.weightedFraction > 0 && random.unit() < options.weightedFraction) {
      const double weight =
          options.minWeight + random.unit() * (options.maxWeight - options.minWeight);
      builder.setWeight(op, weight);
      builder.setMem(op, weight);
    }
  }

  std::vector<std::pair<std::int32_t, std::int32_t>> forward;  // (from position, to position)
  if (options.edgeProbability > 0) {
    for (std::int32_t j = 1; j < n; ++j) {
      for (std::int32_t i = 0; i < j; ++i) {
        if (random.unit() < options.edgeProbability) forward.emplace_back(i, j);
      }
    }
  } else if (options.layered) {
    // Layer l holds positions [layerStart[l], layerStart[l + 1]). Every op past the first layer
    // gets one predecessor in the previous layer, so the depth is the number of layers.
    const std::int32_t layers = std::min(options.layers, n);
    std::vector<std::int32_t> layerStart(static_cast<std::size_t>(layers) + 1);
    for (std::int32_t l = 0; l <= layers; ++l) {
      layerStart[l] = static_cast<std::int32_t>(static_cast<std::int64_t>(n) * l / layers);
    }
    std::vector<std::int32_t> layerOf(static_cast<std::size_t>(n));
    for (std::int32_t l = 0; l < layers; ++l) {
      for (std::int32_t p = layerStart[l]; p < layerStart[l + 1]; ++p) layerOf[p] = l;
    }
    if (options.faninPerOp > 0) {
      addFixedFanin(options, layerStart, random, forward);
    } else {
      for (std::int32_t p = layerStart[std::min(1, layers)]; p < n; ++p) {
        const std::int32_t l = layerOf[p];
        forward.emplace_back(
            static_cast<std::int32_t>(random.between(layerStart[l - 1], layerStart[l] - 1)), p);
      }
    }
    const auto target = static_cast<std::int64_t>(n * options.averageDegree);
    if (layers > 1 && options.faninPerOp == 0) {
      while (static_cast<std::int64_t>(forward.size()) < target) {
        const auto to = static_cast<std::int32_t>(random.between(layerStart[1], n - 1));
        const std::int32_t toLayer = layerOf[to];
        const std::int32_t fromLayer = static_cast<std::int32_t>(
            random.between(std::max(0, toLayer - options.maxLayerSpan), toLayer - 1));
        const auto from = static_cast<std::int32_t>(
            random.between(layerStart[fromLayer], layerStart[fromLayer + 1] - 1));
        forward.emplace_back(from, to);
      }
    }
  } else if (n > 1) {
    const auto target = static_cast<std::int64_t>(n * options.averageDegree);
    for (std::int64_t k = 0; k < target; ++k) {
      const auto to = static_cast<std::int32_t>(random.between(1, n - 1));
      const std::int32_t low = options.maxIdSpan > 0 ? std::max(0, to - options.maxIdSpan) : 0;
      forward.emplace_back(static_cast<std::int32_t>(random.between(low, to - 1)), to);
    }
  }
  // Drop repeated pairs (a repeated dependence adds nothing) while keeping the draw order.
  std::sort(forward.begin(), forward.end());
  forward.erase(std::unique(forward.begin(), forward.end()), forward.end());
  for (const auto& [from, to] : forward) {
    const EdgeId e = builder.addEdge(order[from], order[to]);
    if (options.commFraction > 0 && random.unit() < options.commFraction) {
      builder.setEdgeComm(e, 1.0);
    }
  }

  for (std::int32_t k = 0; k < options.backEdges && n > 0; ++k) {
    const auto to = static_cast<std::int32_t>(random.between(0, n - 1));
    const auto from = static_cast<std::int32_t>(random.between(to, n - 1));
    const auto distance = static_cast<std::int32_t>(random.between(1, options.maxDistance));
    builder.addEdge(order[from], order[to], std::nullopt, distance);
  }

  auto graph = std::move(builder).build();
  if (!graph) return Error{"random graph: " + graph.error()};
  instance.graph = std::move(graph).value();
  return instance;
}

}  // namespace gaus
