#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "model_fixtures.hpp"
#include "torch_catch.hpp"
#include "vector_math.hpp"
#include "window_distribution.hpp"

using namespace gaus;
using namespace gaus::differentiable;

namespace {

GausOptions windowOptions(double sigmaMax) {
  GausOptions options;
  options.sigmaMax = sigmaMax;
  return options;
}

// How many floats lie between a and b (both finite, of one sign or zero).
std::int64_t ulpDistance(float a, float b) {
  std::int32_t ia, ib;
  std::memcpy(&ia, &a, sizeof a);
  std::memcpy(&ib, &b, sizeof b);
  return std::abs(static_cast<std::int64_t>(ia) - ib);
}

}  // namespace

TEST_CASE("window: every P_i sums to 1 and equals Phi differences inside the window",
          "[differentiable][window]") {
  // D = 40, sigma_max = 2: W = 2 * ceil(4 * 2) + 1 = 17. Means near both ends and in the
  // middle, so the window is clamped at 0, at D - W and free.
  const WindowGeometry geometry = makeWindowGeometry(40, windowOptions(2.0));
  REQUIRE(geometry.width == 17);
  const torch::Tensor mu = fixture::row({0.3, 5.7, 19.2, 33.9, 39.4});
  const torch::Tensor sigma = fixture::row({0.5, 1.9, 1.2, 0.25, 2.0});
  for (bool fused : {true, false}) {
    const auto model =
        computeWindowedDistribution(mu, sigma, geometry, fixture::float64Settings(fused));
    const auto sums = fixture::toVector(model.pmf.sum(-1));
    for (double sum : sums) CHECK(sum == Approx(1.0).margin(1e-12));
    // a_i = clamp(floor(mu) - 8, 0, 23).
    CHECK(fixture::toVector(model.offset.to(torch::kFloat64)) ==
          std::vector<double>{0, 0, 11, 23, 23});
    // Inside the window (not its first or last step), P_i(t) is the Phi difference of GAUS.md.
    const double mean = 19.2, width = 1.2;
    const auto phi = [](double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); };
    for (int t = 12; t < 27; ++t) {
      const double expected = phi((t + 0.5 - mean) / width) - phi((t - 0.5 - mean) / width);
      CHECK(model.pmf[0][2][t - 11].item<double>() == Approx(expected).margin(1e-15));
    }
  }
}

TEST_CASE("window: windowed equals dense where the window covers the mass",
          "[differentiable][window]") {
  // sigma <= 0.9 and W = 17 around floor(mu): the cut tails lie beyond 8 / 0.9 = 8.9 standard
  // deviations (below 1e-18), so both models agree to 1e-12 on every step.
  GausOptions options = windowOptions(2.0);
  const std::int64_t horizon = 30;
  const WindowGeometry windowed = makeWindowGeometry(horizon, options);
  options.dense = true;
  const WindowGeometry dense = makeWindowGeometry(horizon, options);
  REQUIRE(dense.width == horizon);
  const torch::Tensor mu = fixture::row({0.2, 7.5, 14.1, 22.8, 29.6});
  const torch::Tensor sigma = fixture::row({0.3, 0.9, 0.6, 0.75, 0.4});
  for (bool fused : {true, false}) {
    const auto settings = fixture::float64Settings(fused);
    const auto windowedModel = computeWindowedDistribution(mu, sigma, windowed, settings);
    const auto denseModel = computeWindowedDistribution(mu, sigma, dense, settings);
    const auto fromWindow = fixture::denseProbabilities(windowedModel, horizon);
    const auto fromDense = fixture::denseProbabilities(denseModel, horizon);
    for (std::size_t i = 0; i < fromWindow.size(); ++i) {
      for (std::int64_t t = 0; t < horizon; ++t) {
        CHECK(fromWindow[i][t] == Approx(fromDense[i][t]).margin(1e-12));
      }
    }
  }
}

TEST_CASE("window: fused kernel equals the LibTorch composition, values and gradients",
          "[differentiable][window]") {
  const WindowGeometry geometry = makeWindowGeometry(60, windowOptions(3.0));
  torch::manual_seed(3);
  const torch::Tensor mu = (torch::rand({2, 50}, torch::kFloat64) * 59).requires_grad_(true);
  const torch::Tensor sigma = (0.2 + torch::rand({2, 50}, torch::kFloat64) * 2.8);
  const torch::Tensor cdfWeight = torch::randn({2, 50, geometry.width}, torch::kFloat64);
  const torch::Tensor pmfWeight = torch::randn({2, 50, geometry.width}, torch::kFloat64);
  std::vector<torch::Tensor> values, muGrads, sigmaGrads;
  for (bool fused : {true, false}) {
    const torch::Tensor m = mu.detach().clone().requires_grad_(true);
    const torch::Tensor s = sigma.detach().clone().requires_grad_(true);
    const auto model = computeWindowedDistribution(m, s, geometry, fixture::float64Settings(fused));
    const torch::Tensor loss = (model.cdf * cdfWeight).sum() + (model.pmf * pmfWeight).sum();
    loss.backward();
    values.push_back(torch::cat({model.cdf.detach(), model.pmf.detach()}));
    muGrads.push_back(m.grad());
    sigmaGrads.push_back(s.grad());
  }
  CHECK((values[0] - values[1]).abs().max().item<double>() < 1e-12);
  CHECK((muGrads[0] - muGrads[1]).abs().max().item<double>() < 1e-9);
  CHECK((sigmaGrads[0] - sigmaGrads[1]).abs().max().item<double>() < 1e-9);
}

TEST_CASE("window: the kernels' erfc and exp are the scalar functions within 4 ulp",
          "[differentiable][window]") {
  // The window kernels take erfc of z / -sqrt(2) for |z| <= 9 (the tail cutoff) and exp of
  // -z^2 / 2 there. glibc's vector functions (vector_math.hpp) are not the scalar ones: over
  // these ranges erfcf differed from the scalar call in about a fifth of the points, by at most
  // 3 ulp, when measured, and glibc states at most 4 ulp for its vector functions. Without
  // libmvec the loops call the scalar functions and every distance is 0.
  std::vector<float> erfcArguments, expArguments;
  for (int k = 0; k <= 40000; ++k) {
    const float z = -9.0f + 18.0f * static_cast<float>(k) / 40000.0f;
    erfcArguments.push_back(z * static_cast<float>(-M_SQRT1_2));
    expArguments.push_back(-0.5f * z * z);
  }
  std::vector<float> erfcValues = erfcArguments, expValues = expArguments;
  erfcOfEach(erfcValues.data(), static_cast<std::int64_t>(erfcValues.size()));
  expOfEach(expValues.data(), static_cast<std::int64_t>(expValues.size()));
  std::int64_t worstErfc = 0, worstExp = 0;
  for (std::size_t k = 0; k < erfcArguments.size(); ++k) {
    worstErfc = std::max(worstErfc, ulpDistance(erfcValues[k], std::erfc(erfcArguments[k])));
    worstExp = std::max(worstExp, ulpDistance(expValues[k], std::exp(expArguments[k])));
  }
  INFO("vector functions: " << (vectorMathAvailable() ? "libmvec" : "none, scalar loops"));
  CHECK(worstErfc <= 4);
  CHECK(worstExp <= 4);
  // Double precision: the same functions, compared as relative error (4 ulp of a double).
  std::vector<double> doubles = {-6.0, -1.5, -0.25, 0.0, 0.3, 2.0, 6.3};
  std::vector<double> erfcDoubles = doubles;
  erfcOfEach(erfcDoubles.data(), static_cast<std::int64_t>(erfcDoubles.size()));
  for (std::size_t k = 0; k < doubles.size(); ++k) {
    CHECK(erfcDoubles[k] == Approx(std::erfc(doubles[k])).epsilon(1e-15));
  }
}
