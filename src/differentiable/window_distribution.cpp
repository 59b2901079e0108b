#include "window_distribution.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <ATen/Parallel.h>

#include "normal_distribution.hpp"
#include "vector_math.hpp"

namespace gaus::differentiable {

WindowGeometry makeWindowGeometry(std::int64_t horizon, const GausOptions& options) {
  WindowGeometry geometry;
  geometry.horizon = std::max<std::int64_t>(horizon, 1);
  const auto halfWidth = static_cast<std::int64_t>(std::ceil(options.windowK * options.sigmaMax));
  geometry.width = options.dense ? geometry.horizon : std::min(geometry.horizon, 2 * halfWidth + 1);
  return geometry;
}

torch::Tensor sigmaFromRaw(const torch::Tensor& raw, double sigmaMin, double sigmaMax) {
  return sigmaMin + (sigmaMax - sigmaMin) * torch::sigmoid(raw);
}

torch::Tensor rawFromSigma(const torch::Tensor& sigma, double sigmaMin, double sigmaMax) {
  // 1e-4 inside the bounds: the logit stays within about +-9.2.
  const torch::Tensor unit = ((sigma - sigmaMin) / (sigmaMax - sigmaMin)).clamp(1e-4, 1 - 1e-4);
  return torch::log(unit) - torch::log1p(-unit);
}

torch::Tensor windowOffsets(const torch::Tensor& mu, const WindowGeometry& geometry) {
  torch::NoGradGuard noGrad;
  return (mu.detach().floor() - static_cast<double>((geometry.width - 1) / 2))
      .clamp(0, static_cast<double>(geometry.horizon - geometry.width))
      .to(torch::kLong);
}

namespace {

// One pass over the rows (ops of every batch row): cdf and pmf of the window, and the run of
// active columns (|z| <= cutoff, the only ones where an erfc is evaluated).
// Row r of batch row b is op opOfRow[r] (row_order.hpp), whose mu and sigma are read in op order;
// without `opOfRow` rows are ops.
struct RowOps {
  const std::int64_t* opOfRow = nullptr;
  std::int64_t ops = 1;
  std::int64_t operator()(std::int64_t row) const {
    return opOfRow == nullptr ? row : row - row % ops + opOfRow[row % ops];
  }
};

// With rows by latest start, a row's mu and sigma are read out of op order, and the tables the
// kernels stream through evict them from the caches: each row asks for those of the row this
// many ahead.
constexpr std::int64_t kPrefetchRows = 8;

template <typename Real>
void prefetchParameters(const Real* mu, const Real* sigma, const RowOps& opOf, std::int64_t row,
                        std::int64_t end) {
  if (row >= end) return;
  const std::int64_t op = opOf(row);
  __builtin_prefetch(mu + op);
  __builtin_prefetch(sigma + op);
}

// The kernels take a row's erfc and exp over blocks of this many columns, on the stack.
constexpr std::int64_t kColumnBlock = 64;

// 0, 1, ..., W - 1 as reals: the column of a window step, read (not converted) so that the loops
// over columns vectorize.
template <typename Real>
std::vector<Real> columnValues(std::int64_t width) {
  std::vector<Real> columns(static_cast<std::size_t>(width));
  for (std::int64_t j = 0; j < width; ++j) columns[j] = static_cast<Real>(j);
  return columns;
}

template <typename Real>
void windowForwardKernel(const Real* mu, const Real* sigma, const std::int64_t* offset,
                         const RowOps& opOf, std::int64_t rows, std::int64_t width, Real* cdf,
                         Real* pmf, std::int32_t* active) {
  const std::vector<Real> columns = columnValues<Real>(width);
  at::parallel_for(0, rows, kParallelGrain / 8, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t r = begin; r < end; ++r) {
      prefetchParameters(mu, sigma, opOf, r + kPrefetchRows, end);
      const std::int64_t op = opOf(r);
      const Real base = static_cast<Real>(offset[r]) + Real(0.5) - mu[op];
      const Real inverseSigma = Real(1) / sigma[op];
      Real* cdfRow = cdf + r * width;
      Real* pmfRow = pmf + r * width;
      // z rises with j, so the columns beyond the cutoff are a run at each end and the active
      // ones the run between them: z is counted first, then its erfc taken over that run in
      // blocks (a block's arguments are stored and loaded at the same offsets, so that the loads
      // take them from the store buffer: loads that straddle two earlier stores wait for both).
      std::int32_t below = 0;
      std::int32_t above = 0;
#pragma omp simd reduction(+ : below, above)
      for (std::int64_t j = 0; j < width - 1; ++j) {
        const Real z = (base + columns[j]) * inverseSigma;
        below += z < -kNormalTailCutoff<Real>;
        above += z > kNormalTailCutoff<Real>;
      }
      const std::int64_t lastActive = width - 2 - above;
      std::fill(cdfRow, cdfRow + below, Real(0));
      Real argument[kColumnBlock];
      for (std::int64_t blockBegin = below; blockBegin <= lastActive; blockBegin += kColumnBlock) {
        const std::int64_t count = std::min(kColumnBlock, lastActive + 1 - blockBegin);
#pragma omp simd
        for (std::int64_t k = 0; k < count; ++k) {
          argument[k] = (base + columns[blockBegin + k]) * inverseSigma * Real(-M_SQRT1_2);
        }
        erfcOfEach(argument, count);
        for (std::int64_t k = 0; k < count; ++k) cdfRow[blockBegin + k] = Real(0.5) * argument[k];
      }
      std::fill(cdfRow + lastActive + 1, cdfRow + width, Real(1));
      pmfRow[0] = cdfRow[0];
      for (std::int64_t j = 1; j < width; ++j) pmfRow[j] = cdfRow[j] - cdfRow[j - 1];
      active[2 * r] = below;
      active[2 * r + 1] = static_cast<std::int32_t>(width - 2) - above;
    }
  });
}

// The chain from the tables back to mu and sigma. cdf(W-1) is the constant 1, so only columns
// 0..W-2 depend on the parameters, and of those only the active ones (outside, the CDF is a
// constant 0 or 1); pmf(j) = cdf(j) - cdf(j-1) routes its gradient to both.
template <typename Real>
void windowBackwardKernel(const Real* mu, const Real* sigma, const std::int64_t* offset,
                          const RowOps& opOf, const std::int32_t* active, std::int64_t rows,
                          std::int64_t width, const Real* gradCdf, const Real* gradPmf,
                          Real* gradMu, Real* gradSigma) {
  const std::vector<Real> columns = columnValues<Real>(width);
  at::parallel_for(0, rows, kParallelGrain / 8, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t r = begin; r < end; ++r) {
      prefetchParameters(mu, sigma, opOf, r + kPrefetchRows, end);
      const std::int64_t op = opOf(r);
      const Real base = static_cast<Real>(offset[r]) + Real(0.5) - mu[op];
      const Real inverseSigma = Real(1) / sigma[op];
      const Real* gc = gradCdf != nullptr ? gradCdf + r * width : nullptr;
      const Real* gp = gradPmf != nullptr ? gradPmf + r * width : nullptr;
      Real sumMu = 0;
      Real sumSigma = 0;
      // The density's exp over blocks of the active run, then the sums in column order.
      Real z[kColumnBlock];
      Real density[kColumnBlock];
      for (std::int64_t blockBegin = active[2 * r]; blockBegin <= active[2 * r + 1];
           blockBegin += kColumnBlock) {
        const std::int64_t count = std::min(kColumnBlock, active[2 * r + 1] + 1 - blockBegin);
#pragma omp simd
        for (std::int64_t k = 0; k < count; ++k) {
          z[k] = (base + columns[blockBegin + k]) * inverseSigma;
          density[k] = Real(-0.5) * z[k] * z[k];
        }
        expOfEach(density, count);
        for (std::int64_t k = 0; k < count; ++k) {
          const std::int64_t j = blockBegin + k;
          Real g = gc != nullptr ? gc[j] : Real(0);
          if (gp != nullptr) g += gp[j] - gp[j + 1];
          // g * dF/dz / sigma, dF/dz the standard normal density
          const Real slope = g * (kInverseSqrtTwoPi<Real> * density[k]) * inverseSigma;
          sumMu -= slope;
          sumSigma -= slope * z[k];
        }
      }
      gradMu[op] = sumMu;
      gradSigma[op] = sumSigma;
    }
  });
}

RowOps rowOps(const torch::Tensor& opOfRow, const torch::Tensor& mu) {
  return {opOfRow.numel() > 0 ? opOfRow.data_ptr<std::int64_t>() : nullptr, mu.size(-1)};
}

// The window's tables in the step's buffers: one owner (a model has one window), three slots.
constexpr char kWindowOwner = 0;
enum WindowSlot : int { kCdfSlot, kPmfSlot, kActiveSlot };

class WindowDistributionFunction : public torch::autograd::Function<WindowDistributionFunction> {
 public:
  // mu and sigma in op order, the offsets in rows, `opOfRow` the op of each row ([V] int64, or
  // empty: rows are ops). The third output, the active columns, carries no gradient.
  static torch::autograd::variable_list forward(torch::autograd::AutogradContext* context,
                                                const torch::Tensor& mu, const torch::Tensor& sigma,
                                                const torch::Tensor& offset,
                                                const torch::Tensor& opOfRow, std::int64_t width,
                                                std::int64_t buffersAddress) {
    auto* buffers = reinterpret_cast<StepBuffers*>(buffersAddress);
    const torch::Tensor muC = mu.contiguous();
    const torch::Tensor sigmaC = sigma.contiguous();
    const torch::Tensor offsetC = offset.contiguous();
    std::vector<std::int64_t> shape = mu.sizes().vec();
    shape.push_back(width);
    torch::Tensor cdf = takeOrAllocate(buffers, &kWindowOwner, kCdfSlot, shape, mu.options());
    torch::Tensor pmf = takeOrAllocate(buffers, &kWindowOwner, kPmfSlot, shape, mu.options());
    shape.back() = 2;
    torch::Tensor active =
        takeOrAllocate(buffers, &kWindowOwner, kActiveSlot, shape, mu.options().dtype(torch::kInt));
    AT_DISPATCH_FLOATING_TYPES(mu.scalar_type(), "windowForwardKernel", [&] {
      windowForwardKernel<scalar_t>(muC.data_ptr<scalar_t>(), sigmaC.data_ptr<scalar_t>(),
                                    offsetC.data_ptr<std::int64_t>(), rowOps(opOfRow, mu),
                                    muC.numel(), width, cdf.data_ptr<scalar_t>(),
                                    pmf.data_ptr<scalar_t>(), active.data_ptr<std::int32_t>());
    });
    context->save_for_backward({muC, sigmaC, offsetC, active, opOfRow});
    context->saved_data["width"] = width;
    context->mark_non_differentiable({active});
    return {cdf, pmf, active};
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* context,
                                                 torch::autograd::variable_list gradients) {
    const auto saved = context->get_saved_variables();
    const torch::Tensor& mu = saved[0];
    const torch::Tensor& sigma = saved[1];
    const torch::Tensor& offset = saved[2];
    const torch::Tensor& active = saved[3];
    const torch::Tensor& opOfRow = saved[4];
    const std::int64_t width = context->saved_data["width"].toInt();
    const torch::Tensor gradCdf =
        gradients[0].defined() ? gradients[0].contiguous() : torch::Tensor();
    const torch::Tensor gradPmf =
        gradients[1].defined() ? gradients[1].contiguous() : torch::Tensor();
    torch::Tensor gradMu = torch::empty_like(mu);
    torch::Tensor gradSigma = torch::empty_like(sigma);
    AT_DISPATCH_FLOATING_TYPES(mu.scalar_type(), "windowBackwardKernel", [&] {
      windowBackwardKernel<scalar_t>(mu.data_ptr<scalar_t>(), sigma.data_ptr<scalar_t>(),
                                     offset.data_ptr<std::int64_t>(), rowOps(opOfRow, mu),
                                     active.data_ptr<std::int32_t>(), mu.numel(), width,
                                     gradCdf.defined() ? gradCdf.data_ptr<scalar_t>() : nullptr,
                                     gradPmf.defined() ? gradPmf.data_ptr<scalar_t>() : nullptr,
                                     gradMu.data_ptr<scalar_t>(), gradSigma.data_ptr<scalar_t>());
    });
    return {gradMu, gradSigma, torch::Tensor(), torch::Tensor(), torch::Tensor(), torch::Tensor()};
  }
};

}  // namespace

WindowCdfChunks::WindowCdfChunks(std::int64_t ops, std::int64_t width,
                                 const TensorSettings& settings, const RowOrder& rows)
    : opIndex_(rows.identity() ? torch::arange(ops, settings.index())
                               : toIndexTensor(rows.opOfRow(), settings)),
      rowIndex_(torch::arange(ops, settings.index())),
      width_(width) {}

// mu and sigma of the rows' ops, the offsets of the rows.
std::vector<torch::Tensor> WindowCdfChunks::rowsRead(std::int64_t begin, std::int64_t end) const {
  const torch::Tensor ops = opIndex_.slice(0, begin, end);
  return {ops, ops, rowIndex_.slice(0, begin, end)};
}

// F(a + j) = Phi((a + j + 0.5 - mu) / sigma) for j < W - 1, and 1 in the last column.
torch::Tensor WindowCdfChunks::evaluate(const std::vector<torch::Tensor>& gathered, std::int64_t,
                                        std::int64_t) const {
  const torch::Tensor& mu = gathered[0];
  const torch::Tensor& sigma = gathered[1];
  const torch::Tensor& offset = gathered[2];
  const torch::Tensor steps = torch::arange(width_ - 1, mu.options());
  const torch::Tensor z =
      (offset.to(mu.scalar_type()).unsqueeze(-1) + steps + 0.5 - mu.unsqueeze(-1)) /
      sigma.unsqueeze(-1);
  std::vector<std::int64_t> columnShape = mu.sizes().vec();
  columnShape.push_back(1);
  return torch::cat({0.5 * torch::erfc(z * (-M_SQRT1_2)), torch::ones(columnShape, mu.options())},
                    -1);
}

WindowedDistribution computeWindowedDistribution(
    const torch::Tensor& mu, const torch::Tensor& sigma, const WindowGeometry& geometry,
    const TensorSettings& settings, const WindowCdfChunks* chunks, StepBuffers* buffers,
    const torch::Tensor& opOfRow) {
  const torch::Tensor opOffset = windowOffsets(mu, geometry);
  const torch::Tensor offset = opOfRow.defined() ? opOffset.index_select(1, opOfRow) : opOffset;
  WindowedDistribution distribution;
  distribution.offset = offset;
  distribution.width = geometry.width;
  distribution.buffers = buffers;
  if (settings.fused) {
    auto tables = WindowDistributionFunction::apply(
        mu, sigma, offset, opOfRow.defined() ? opOfRow : torch::empty({0}, torch::kLong),
        geometry.width, reinterpret_cast<std::int64_t>(buffers));
    distribution.cdf = tables[0];
    distribution.pmf = tables[1];
    distribution.active = tables[2];
    return distribution;
  }
  if (chunks != nullptr) {
    distribution.cdf =
        evaluateInChunks(*chunks, {mu, sigma, offset}, chunkRowsFor(mu.size(0), geometry.width));
  } else {
    const WindowCdfChunks whole(mu.size(1), geometry.width, settings);
    const torch::Tensor rowMu = opOfRow.defined() ? mu.index_select(1, opOfRow) : mu;
    const torch::Tensor rowSigma = opOfRow.defined() ? sigma.index_select(1, opOfRow) : sigma;
    distribution.cdf = whole.evaluate({rowMu, rowSigma, offset}, 0, mu.size(1));
  }
  std::vector<std::int64_t> columnShape = mu.sizes().vec();
  columnShape.push_back(1);
  distribution.pmf =
      distribution.cdf - torch::cat({torch::zeros(columnShape, mu.options()),
                                     distribution.cdf.narrow(-1, 0, geometry.width - 1)},
                                    -1);
  return distribution;
}

torch::Tensor windowedCdfAt(const torch::Tensor& mu, const torch::Tensor& sigma,
                            const torch::Tensor& offset, std::int64_t width,
                            const torch::Tensor& point) {
  const torch::Tensor pointReal = point.to(mu.scalar_type());
  const torch::Tensor z = (pointReal + 0.5 - mu) / sigma;
  const torch::Tensor cdf = 0.5 * torch::erfc(z * (-M_SQRT1_2));
  return cdf.masked_fill(point < offset, 0.0).masked_fill(point >= offset + (width - 1), 1.0);
}

}  // namespace gaus::differentiable
