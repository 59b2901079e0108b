// The model (GAUS.md "Variables", "Windows"): op i starts at X_i ~ N(mu_i, sigma_i^2), and
// P_i(t) = Phi((t + 0.5 - mu_i) / sigma_i) - Phi((t - 0.5 - mu_i) / sigma_i) is the probability
// that round(X_i) = t. P is kept on a window of W steps per op, [a_i, a_i + W) with
// a_i = clamp(floor(mu_i) - (W - 1) / 2, 0, D - W), recomputed every step (a_i carries no
// gradient). The mass below the window is folded into its first step and the mass above into its
// last step, so every row is a distribution and its CDF is
//   F_i(t) = 0 for t < a_i,  Phi((t + 0.5 - mu_i) / sigma_i) inside,  1 for t >= a_i + W - 1.
// With a_i = 0 or a_i = D - W this is exactly GAUS.md's folding at steps 0 and D - 1; elsewhere
// the window cuts the tails beyond k * sigma_max (k = 4: under 3.2e-5 of the mass at sigma_max).
// The dense model is the same with W = D (a_i = 0 always).
#pragma once

#include <cstdint>

#include <torch/torch.h>

#include <gaus/differentiable/gaus_options.hpp>

#include "chunked_evaluation.hpp"
#include "tensor_support.hpp"

namespace gaus::differentiable {

struct WindowGeometry {
  std::int64_t horizon = 1;  // D: the model's steps are 0 .. D - 1
  std::int64_t width = 1;    // W, at most D
};

// W = min(D, 2 * ceil(k * sigma_max) + 1), or D for the dense model.
WindowGeometry makeWindowGeometry(std::int64_t horizon, const GausOptions& options);

// sigma = sigma_min + (sigma_max - sigma_min) * sigmoid(raw): smooth and bounded.
torch::Tensor sigmaFromRaw(const torch::Tensor& raw, double sigmaMin, double sigmaMax);
// The inverse, with sigma clamped a little inside (sigma_min, sigma_max) so raw stays finite.
torch::Tensor rawFromSigma(const torch::Tensor& sigma, double sigmaMin, double sigmaMax);

// a_i = clamp(floor(mu_i) - (W - 1) / 2, 0, D - W), [B, V] int64, no gradient.
torch::Tensor windowOffsets(const torch::Tensor& mu, const WindowGeometry& geometry);

struct WindowedDistribution {
  torch::Tensor offset;  // [B, V] int64: a_i
  torch::Tensor cdf;     // [B, V, W]: F_i(a_i + j); the last column is exactly 1
  torch::Tensor pmf;     // [B, V, W]: P_i(a_i + j) = cdf(j) - cdf(j - 1)
  std::int64_t width = 1;
};

// The LibTorch composition of the CDF table over ops [begin, end): the inputs' rows are mu,
// sigma and the offsets ([B, c] each), the output [B, c, W]. A model evaluates it in chunks
// (chunked_evaluation.hpp), so that the erfc's intermediates of all ops are never held at once.
class WindowCdfChunks final : public ChunkedTerm {
 public:
  WindowCdfChunks(std::int64_t ops, std::int64_t width, const TensorSettings& settings);
  std::int64_t rows() const override { return opIndex_.size(0); }
  std::vector<torch::Tensor> rowsRead(std::int64_t begin, std::int64_t end) const override;
  torch::Tensor evaluate(const std::vector<torch::Tensor>& gathered, std::int64_t begin,
                         std::int64_t end) const override;

 private:
  torch::Tensor opIndex_;
  std::int64_t width_;
};

// Both tables from mu and sigma ([B, V] each). The fused path computes them in one CPU pass
// and its backward in another; the LibTorch path composes erfc and friends (any device), in
// the chunks of `chunks` when given (it must match the geometry's width and the op count), else
// in one piece.
WindowedDistribution computeWindowedDistribution(const torch::Tensor& mu,
                                                 const torch::Tensor& sigma,
                                                 const WindowGeometry& geometry,
                                                 const TensorSettings& settings,
                                                 const WindowCdfChunks* chunks = nullptr);

// F_i(point_i) of the windowed model at one integer point per op ([V] or [B, V] int64), in
// closed form: no window table needed (the horizon term).
torch::Tensor windowedCdfAt(const torch::Tensor& mu, const torch::Tensor& sigma,
                            const torch::Tensor& offset, std::int64_t width,
                            const torch::Tensor& point);

}  // namespace gaus::differentiable
