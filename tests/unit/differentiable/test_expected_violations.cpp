// Every expected-violation and objective term against an independent computation: brute-force
// enumeration of all integer schedules of a five-op graph (exact to 1e-9, both evaluation
// paths, acyclic and modulo), Monte-Carlo sampling on a thirty-op graph (within 3 standard
// errors), numerical quadrature for the closed-form communication, and the two paths against
// each other with their gradients against central differences.
#include <random>

#include <gaus/core/schedule.hpp>

#include "model_fixtures.hpp"
#include "term_fixtures.hpp"
#include "torch_catch.hpp"

using namespace gaus;
using namespace gaus::differentiable;

namespace {

constexpr std::int64_t kHorizon = 8;

GausOptions narrowWindow() {
  GausOptions options;
  options.sigmaMax = 0.5;  // W = 2 * ceil(4 * 0.5) + 1 = 5 < D = 8
  return options;
}

// What enumeration (or sampling) accumulates for one weighted schedule.
struct Expectations {
  std::vector<double> precedence, horizon, usage, memory, stageWeight;
};

Expectations zeroExpectations(const fixture::AllTerms& terms, std::int64_t horizon) {
  Expectations e;
  e.precedence.assign(terms.precedence.size(), 0.0);
  e.horizon.assign(terms.horizon.size(), 0.0);
  e.usage.assign(terms.resources.size(), 0.0);
  e.memory.assign(0, 0.0);
  e.stageWeight.assign(horizon, 0.0);
  return e;
}

// Adds `weight` times the outcome of integer schedule `start` to `sum`, computing every quantity
// from the definitions (the verifier's precedence rule, reservation tables, core's
// liveInterval), not from the model.
void accumulate(const Instance& instance, const fixture::AllTerms& terms,
                std::optional<std::int64_t> ii, std::int64_t horizon,
                const std::vector<std::int64_t>& start, double weight, Expectations& sum) {
  const Graph& graph = *instance.graph;
  const std::int64_t period = ii.value_or(0);
  for (std::int64_t k = 0; k < terms.precedence.size(); ++k) {
    const EdgeId e = terms.precedence.graphEdge(k);
    const bool violated = start[graph.edgeTarget(e)] + graph.edgeDistance(e) * period <
                          start[graph.edgeSource(e)] + graph.edgeDelay(e);
    if (violated) sum.precedence[k] += weight;
  }
  for (std::int64_t k = 0; k < terms.horizon.size(); ++k) {
    const OpId op = terms.horizon.op(k);
    if (start[op] + graph.duration(op) > horizon) sum.horizon[k] += weight;
  }
  const std::int64_t steps = terms.resources.steps();
  for (OpId op = 0; op < graph.numOps(); ++op) {
    for (const auto& block : graph.reservation(op)) {
      for (std::int64_t c = 0; c < terms.resources.channels(); ++c) {
        if (terms.resources.resource(c) != block.resource) continue;
        for (std::int64_t t = start[op] + block.begin; t < start[op] + block.begin + block.length;
             ++t) {
          sum.usage[c * steps + (ii ? t % *ii : t)] += weight * block.units;
        }
      }
    }
    sum.stageWeight[start[op]] += weight * graph.weight(op);
  }
  Schedule schedule;
  schedule.start = start;
  if (ii) schedule.ii = static_cast<std::int32_t>(*ii);
  for (OpId op = 0; op < graph.numOps(); ++op) {
    const LiveInterval live = liveInterval(graph, schedule, op);
    for (Cycle t = live.begin; t < live.end; ++t) {
      const auto slot = static_cast<std::size_t>(ii ? t % *ii : t);
      if (slot >= sum.memory.size()) sum.memory.resize(slot + 1, 0.0);
      sum.memory[slot] += weight * graph.mem(op);
    }
  }
}

void requireClose(const std::vector<double>& model, const std::vector<double>& exact,
                  double tolerance, const char* what) {
  INFO(what);
  REQUIRE(model.size() >= exact.size());
  for (std::size_t k = 0; k < model.size(); ++k) {
    const double expected = k < exact.size() ? exact[k] : 0.0;
    INFO("element " << k);
    CHECK(model[k] == Approx(expected).margin(tolerance));
  }
}

GausOptions thirtyOpWindow() {
  GausOptions options;
  options.sigmaMax = 2.0;  // W = 17
  return options;
}

// Means in [1, D - 2] with fractional parts in [0.2, 0.8] (a central-difference step of 1e-6
// never moves a window) and widths in [0.3, 1.9].
void randomParameters(std::int64_t ops, std::int64_t horizon, std::mt19937_64& random,
                      std::vector<double>& means, std::vector<double>& widths) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (std::int64_t i = 0; i < ops; ++i) {
    means.push_back(std::floor(1.0 + unit(random) * (horizon - 3.0)) + 0.2 + 0.6 * unit(random));
    widths.push_back(0.3 + unit(random) * 1.6);
  }
}

}  // namespace

TEST_CASE("terms equal brute-force enumeration over all integer schedules of five ops",
          "[differentiable][terms]") {
  const Instance instance = fixture::fiveOpGraph();
  const WindowGeometry geometry = makeWindowGeometry(kHorizon, narrowWindow());
  REQUIRE(geometry.width == 5);
  // Means with fractional parts away from .5 and widths inside (sigma_min, sigma_max).
  const torch::Tensor mu = fixture::row({0.8, 2.3, 1.6, 4.7, 6.2});
  const torch::Tensor sigma = fixture::row({0.45, 0.3, 0.5, 0.35, 0.4});
  for (std::optional<std::int64_t> ii :
       {std::optional<std::int64_t>{}, std::optional<std::int64_t>{3}}) {
    for (bool fused : {true, false}) {
      INFO((ii ? "modulo II=3" : "acyclic") << (fused ? ", fused" : ", LibTorch"));
      const auto settings = fixture::float64Settings(fused);
      const fixture::AllTerms terms(instance, geometry, ii, settings);
      const auto model = computeWindowedDistribution(mu, sigma, geometry, settings);
      Expectations exact = zeroExpectations(terms, kHorizon);
      fixture::enumerateSchedules(fixture::denseProbabilities(model, kHorizon),
                                  [&](const std::vector<std::int64_t>& start, double weight) {
                                    accumulate(instance, terms, ii, kHorizon, start, weight, exact);
                                  });
      // The edges modelled: acyclic 7 of 9 (no loop-carried), modulo 8 (no self-loop).
      CHECK(terms.precedence.size() == (ii ? 8 : 7));
      requireClose(fixture::toVector(terms.precedence.evaluate(model)), exact.precedence, 1e-9,
                   "precedence");
      requireClose(fixture::toVector(terms.horizon.evaluate(mu, sigma, model)), exact.horizon, 1e-9,
                   "horizon");
      requireClose(fixture::toVector(terms.resources.usage(model)), exact.usage, 1e-9, "usage");
      std::vector<double> relu;
      for (std::size_t k = 0; k < exact.usage.size(); ++k) {
        const double cap = 1.0;  // both limited resources have one unit
        relu.push_back(std::max(0.0, exact.usage[k] - cap));
      }
      requireClose(fixture::toVector(terms.resources.evaluate(model)), relu, 1e-9,
                   "resource violation");
      requireClose(fixture::toVector(terms.memory.expectedLiveMemory(model)), exact.memory, 1e-9,
                   "live memory");
      requireClose(fixture::toVector(terms.stageWeight.stageWeights(model)), exact.stageWeight,
                   1e-9, "stage weight");
    }
  }
}

TEST_CASE("communication closed form equals numerical integration", "[differentiable][terms]") {
  // E[(X_v - X_u)^+] for X_v - X_u ~ N(m, s^2): the integral of y * density over y > 0, by
  // Simpson's rule on 200,000 intervals up to m + 14 s (the rest is below 1e-40).
  const Instance instance = fixture::fiveOpGraph();
  const torch::Tensor mu = fixture::row({0.8, 2.3, 1.6, 4.7, 6.2});
  const torch::Tensor sigma = fixture::row({0.45, 0.3, 0.5, 0.35, 0.4});
  const auto edgeExpectation = [](double m, double s) {
    const double upper = std::max(0.0, m) + 14 * s;
    const int intervals = 200000;
    const double h = upper / intervals;
    double sum = 0.0;
    for (int k = 0; k <= intervals; ++k) {
      const double y = k * h;
      const double f = y * std::exp(-0.5 * (y - m) * (y - m) / (s * s)) / (s * std::sqrt(2 * M_PI));
      sum += f * (k == 0 || k == intervals ? 1 : (k % 2 == 1 ? 4 : 2));
    }
    return sum * h / 3;
  };
  // Edge 0: a -> b, weight 1; edge 5: d -> e, weight 2.5.
  const double expected = 1.0 * edgeExpectation(2.3 - 0.8, std::hypot(0.45, 0.3)) +
                          2.5 * edgeExpectation(6.2 - 4.7, std::hypot(0.35, 0.4));
  const CommunicationTerm term(*instance.graph, fixture::float64Settings(false));
  CHECK(term.evaluate(mu, sigma).item<double>() == Approx(expected).margin(1e-9));
}

TEST_CASE("terms agree with Monte-Carlo sampling on thirty ops within 3 standard errors",
          "[differentiable][terms]") {
  // One scalar per term (a fixed random combination of its elements), estimated from 20,000
  // sampled schedules: X_i ~ N(mu_i, sigma_i), rounded and clamped into the window (the
  // model's folding of the tails). Fixed seeds make the test deterministic.
  const Instance instance = fixture::thirtyOpGraph();
  const std::int64_t horizon = 40;
  const WindowGeometry geometry = makeWindowGeometry(horizon, thirtyOpWindow());
  const std::int64_t ops = instance.graph->numOps();
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<double> means, widths;
  randomParameters(ops, horizon, random, means, widths);
  const torch::Tensor mu = fixture::row(means);
  const torch::Tensor sigma = fixture::row(widths);
  for (std::optional<std::int64_t> ii :
       {std::optional<std::int64_t>{}, std::optional<std::int64_t>{7}}) {
    INFO((ii ? "modulo II=7" : "acyclic"));
    const auto settings = fixture::float64Settings(true);
    const fixture::AllTerms terms(instance, geometry, ii, settings);
    const auto model = computeWindowedDistribution(mu, sigma, geometry, settings);
    const auto offsets = fixture::toVector(model.offset.to(torch::kFloat64));

    const auto precedence = fixture::toVector(terms.precedence.evaluate(model));
    const auto horizonViolation = fixture::toVector(terms.horizon.evaluate(mu, sigma, model));
    const auto usage = fixture::toVector(terms.resources.usage(model));
    const auto memory = fixture::toVector(terms.memory.expectedLiveMemory(model));
    const auto stage = fixture::toVector(terms.stageWeight.stageWeights(model));
    // Fixed weights per element turn each term into one number.
    const auto weightsFor = [&](std::size_t n) {
      std::vector<double> w;
      for (std::size_t k = 0; k < n; ++k) w.push_back(unit(random));
      return w;
    };
    const auto wPrecedence = weightsFor(precedence.size());
    const auto wHorizon = weightsFor(horizonViolation.size());
    const auto wUsage = weightsFor(usage.size());
    const auto wMemory = weightsFor(memory.size());
    const auto wStage = weightsFor(stage.size());
    const auto dot = [](const std::vector<double>& w, const std::vector<double>& x) {
      double s = 0.0;
      for (std::size_t k = 0; k < w.size() && k < x.size(); ++k) s += w[k] * x[k];
      return s;
    };
    const std::vector<double> modelValue = {dot(wPrecedence, precedence),
                                            dot(wHorizon, horizonViolation), dot(wUsage, usage),
                                            dot(wMemory, memory), dot(wStage, stage)};

    const int samples = 20000;
    std::vector<double> sum(5, 0.0), sumSquares(5, 0.0);
    std::normal_distribution<double> normal(0.0, 1.0);
    for (int n = 0; n < samples; ++n) {
      std::vector<std::int64_t> start(ops);
      for (std::int64_t i = 0; i < ops; ++i) {
        const double x = std::round(means[i] + widths[i] * normal(random));
        start[i] = static_cast<std::int64_t>(
            std::clamp(x, offsets[i], offsets[i] + static_cast<double>(geometry.width - 1)));
      }
      Expectations outcome = zeroExpectations(terms, horizon);
      outcome.memory.assign(memory.size(), 0.0);
      accumulate(instance, terms, ii, horizon, start, 1.0, outcome);
      const std::vector<double> values = {dot(wPrecedence, outcome.precedence),
                                          dot(wHorizon, outcome.horizon),
                                          dot(wUsage, outcome.usage), dot(wMemory, outcome.memory),
                                          dot(wStage, outcome.stageWeight)};
      for (int k = 0; k < 5; ++k) {
        sum[k] += values[k];
        sumSquares[k] += values[k] * values[k];
      }
    }
    const char* names[] = {"precedence", "horizon", "usage", "memory", "stage weight"};
    for (int k = 0; k < 5; ++k) {
      const double mean = sum[k] / samples;
      const double variance = sumSquares[k] / samples - mean * mean;
      const double standardError = std::sqrt(std::max(variance, 0.0) / samples);
      INFO(names[k] << ": model " << modelValue[k] << ", sampled " << mean << " +- "
                    << standardError);
      CHECK(std::abs(modelValue[k] - mean) <= 3 * standardError + 1e-12);
    }
  }
}

TEST_CASE("fused kernels equal the LibTorch path, and gradients equal central differences",
          "[differentiable][terms][gradients]") {
  const Instance instance = fixture::thirtyOpGraph();
  const std::int64_t horizon = 40;
  const WindowGeometry geometry = makeWindowGeometry(horizon, thirtyOpWindow());
  const std::int64_t ops = instance.graph->numOps();
  std::mt19937_64 random(9);
  std::vector<double> means, widths;
  randomParameters(ops, horizon, random, means, widths);
  for (std::optional<std::int64_t> ii :
       {std::optional<std::int64_t>{}, std::optional<std::int64_t>{7}}) {
    INFO((ii ? "modulo II=7" : "acyclic"));
    torch::manual_seed(4);
    std::vector<torch::Tensor> weights;
    const auto lossOf = [&](const fixture::AllTerms& terms, const torch::Tensor& m,
                            const torch::Tensor& s, const TensorSettings& settings) {
      const auto model = computeWindowedDistribution(m, s, geometry, settings);
      const std::vector<torch::Tensor> parts = {
          terms.precedence.evaluate(model),      terms.horizon.evaluate(m, s, model),
          terms.resources.evaluate(model),       terms.memory.expectedLiveMemory(model),
          terms.stageWeight.stageWeights(model), terms.communication.evaluate(m, s)};
      if (weights.empty()) {
        for (const auto& part : parts)
          weights.push_back(torch::rand(part.sizes(), torch::kFloat64));
      }
      torch::Tensor loss = torch::zeros({}, torch::kFloat64);
      for (std::size_t k = 0; k < parts.size(); ++k) loss = loss + (parts[k] * weights[k]).sum();
      return loss;
    };
    std::vector<double> losses;
    std::vector<std::vector<double>> muGrads, sigmaGrads;
    for (bool fused : {true, false}) {
      const auto settings = fixture::float64Settings(fused);
      const fixture::AllTerms terms(instance, geometry, ii, settings);
      const torch::Tensor m = fixture::row(means).requires_grad_(true);
      const torch::Tensor s = fixture::row(widths).requires_grad_(true);
      const torch::Tensor loss = lossOf(terms, m, s, settings);
      loss.backward();
      losses.push_back(loss.item<double>());
      muGrads.push_back(fixture::toVector(m.grad()));
      sigmaGrads.push_back(fixture::toVector(s.grad()));
      // Central differences of the same loss (no autograd involved).
      torch::NoGradGuard noGrad;
      const auto numericMu = fixture::centralDifferences(
          [&](const torch::Tensor& at) {
            return lossOf(terms, at, fixture::row(widths), settings).item<double>();
          },
          fixture::row(means));
      const auto numericSigma = fixture::centralDifferences(
          [&](const torch::Tensor& at) {
            return lossOf(terms, fixture::row(means), at, settings).item<double>();
          },
          fixture::row(widths));
      INFO((fused ? "fused" : "LibTorch"));
      requireClose(muGrads.back(), numericMu, 1e-6, "d loss / d mu");
      requireClose(sigmaGrads.back(), numericSigma, 1e-6, "d loss / d sigma");
    }
    CHECK(losses[0] == Approx(losses[1]).margin(1e-9));
    requireClose(muGrads[0], muGrads[1], 1e-9, "fused vs LibTorch d/dmu");
    requireClose(sigmaGrads[0], sigmaGrads[1], 1e-9, "fused vs LibTorch d/dsigma");
  }
}
