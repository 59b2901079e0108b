#include "gaus_workload.hpp"

#include <cmath>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

namespace gaus::bench {

RandomGraphOptions gausWorkloadOptions(std::int32_t ops, std::uint64_t seed) {
  RandomGraphOptions options;
  options.ops = ops;
  options.averageDegree = 3.0;
  options.maxIdSpan = 2000;
  options.opTypes = {
      {"ALU", 1, 1, 1, 8, 3.0}, {"MUL", 2, 4, 1, 2, 1.0}, {"MEM", 1, 3, 2, std::nullopt, 1.0}};
  options.seed = seed;
  return options;
}

namespace {

Instance generateWorkload(const RandomGraphOptions& options, std::string_view family) {
  auto generated = generateRandomGraph(options);
  if (!generated) throw std::runtime_error("generating the workload failed: " + generated.error());
  Instance instance = toInstance(std::move(generated).value());
  instance.name = fmt::format("{}-{}-seed{}", family, options.ops, options.seed);
  instance.sourcePath = "(generated)";
  return instance;
}

}  // namespace

Instance generateGausWorkload(std::int32_t ops, std::uint64_t seed) {
  return generateWorkload(gausWorkloadOptions(ops, seed), "random");
}

RandomGraphOptions aigWorkloadOptions(std::int32_t ops, std::uint64_t seed) {
  constexpr double kHypNodes = 256 + 214335;
  constexpr double kHypLevels = 24801;  // AIG levels + 1: nodes on the longest path
  RandomGraphOptions options;
  options.ops = ops;
  options.layered = true;
  options.layers =
      std::max(1, static_cast<std::int32_t>(std::lround(ops * kHypLevels / kHypNodes)));
  options.faninPerOp = 2;
  // The second fan-in's distance in levels: median 1-9 on the shared EPFL arithmetic circuits
  // (adder, max, sin, priority), with a tail of inputs read deep down; uniform in 1-16 here.
  options.maxLayerSpan = 16;
  options.opTypes = {{"AND", 1, 1, 1, std::nullopt, 1.0}};
  options.weightedFraction = 1.0;  // mem 1: one bit per value
  options.seed = seed;
  return options;
}

Instance generateAigWorkload(std::int32_t ops, std::uint64_t seed) {
  return generateWorkload(aigWorkloadOptions(ops, seed), "aig");
}

std::vector<std::int64_t> attemptedHorizons(const Result& result) {
  std::vector<std::int64_t> horizons;
  for (const Attempt& attempt : result.attempts) {
    if (attempt.phase == "horizon" && attempt.horizon) horizons.push_back(*attempt.horizon);
  }
  return horizons;
}

void requireVerified(const Result& result, std::string_view method, std::string_view instance) {
  if (!result.schedule || !result.verified()) {
    throw std::runtime_error(fmt::format("{} on {}: no verified schedule ({}: {})", method,
                                         instance, result.statusText(), result.message));
  }
}

std::string optionalText(const std::optional<double>& value, int decimals) {
  return value ? fmt::format("{:.{}f}", *value, decimals) : std::string("-");
}

}  // namespace gaus::bench
