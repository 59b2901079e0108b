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
#include "kernel_rows.hpp"
#include "row_order.hpp"
#include "step_buffers.hpp"
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

// The active columns of a row (fused path): the columns j <= W - 2 whose z = (a_i + j + 0.5 -
// mu_i) / sigma_i lies within the tail cutoff (|z| <= 9, normal_distribution.hpp), where the CDF
// is computed; they form one run [first, last] (last = first - 1 when there is none). Below it
// the CDF is exactly 0 and above it exactly 1, so the pmf is 0 outside [first, last + 1]: the
// fused terms skip those columns, and since the window's backward reads the gradient of the CDF
// on [first, last] and that of the pmf on [first, last + 1] only, the fused terms compute the
// gradients they send back to the tables there and leave 0 elsewhere (the gradients with
// respect to mu and sigma are the same).
struct WindowedDistribution {
  torch::Tensor offset;  // [B, V] int64: a_i
  torch::Tensor cdf;     // [B, V, W]: F_i(a_i + j); the last column is exactly 1
  torch::Tensor pmf;     // [B, V, W]: P_i(a_i + j) = cdf(j) - cdf(j - 1)
  torch::Tensor active;  // [B, V, 2] int32: first and last active column; undefined: all
  std::int64_t width = 1;
  // Where the terms take their outputs from (step_buffers.hpp); null: fresh tensors.
  StepBuffers* buffers = nullptr;
};

// A kernel's view of a distribution's active columns ([B, V, 2] int32, contiguous): the table,
// or every column when it is undefined or empty (tables that no fused window kernel made).
inline ActiveColumns activeColumns(const torch::Tensor& active, std::int64_t width) {
  const bool given = active.defined() && active.numel() > 0;
  return {given ? active.data_ptr<std::int32_t>() : nullptr, width};
}

// What a fused term hands its autograd function for the active columns: the table, or an empty
// one (autograd functions take no undefined tensors).
inline torch::Tensor activeOrEmpty(const torch::Tensor& active) {
  return active.defined() ? active : torch::empty({0}, torch::kInt);
}

// The LibTorch composition of the CDF table over ops [begin, end): the inputs' rows are mu,
// sigma and the offsets ([B, c] each), the output [B, c, W]. A model evaluates it in chunks
// (chunked_evaluation.hpp), so that the erfc's intermediates of all ops are never held at once.
class WindowCdfChunks final : public ChunkedTerm {
 public:
  // `rows`: the op of every output row (row_order.hpp).
  WindowCdfChunks(std::int64_t ops, std::int64_t width, const TensorSettings& settings,
                  const RowOrder& rows = RowOrder());
  std::int64_t rows() const override { return opIndex_.size(0); }
  std::vector<torch::Tensor> rowsRead(std::int64_t begin, std::int64_t end) const override;
  torch::Tensor evaluate(const std::vector<torch::Tensor>& gathered, std::int64_t begin,
                         std::int64_t end) const override;

 private:
  torch::Tensor opIndex_, rowIndex_;
  std::int64_t width_;
};

// Both tables from mu and sigma ([B, V] each). The fused path computes them and the active
// columns in one CPU pass and its backward in another, into `buffers` when given; the LibTorch
// path composes erfc and friends (any device), in the chunks of `chunks` when given (it must
// match the geometry's width and the op count), else in one piece. mu and sigma are in op order;
// the tables' rows follow `opOfRow` ([V] int64: the op of every row; undefined: rows are ops),
// and so do the offsets and active columns of the result.
WindowedDistribution computeWindowedDistribution(
    const torch::Tensor& mu, const torch::Tensor& sigma, const WindowGeometry& geometry,
    const TensorSettings& settings, const WindowCdfChunks* chunks = nullptr,
    StepBuffers* buffers = nullptr, const torch::Tensor& opOfRow = {});

// F_i(point_i) of the windowed model at one integer point per op ([V] or [B, V] int64), in
// closed form: no window table needed (the horizon term).
torch::Tensor windowedCdfAt(const torch::Tensor& mu, const torch::Tensor& sigma,
                            const torch::Tensor& offset, std::int64_t width,
                            const torch::Tensor& point);

}  // namespace gaus::differentiable
