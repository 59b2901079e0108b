#include "live_memory_term.hpp"

#include <algorithm>
#include <map>

#include <ATen/Parallel.h>

namespace gaus::differentiable {

struct LatestStartIndex {
  std::int64_t ops = 0;
  std::vector<std::int64_t> memberOffset;  // members of owner k: [memberOffset[k], ...[k + 1])
  std::vector<std::int64_t> memberOp, memberShift, memberOwner;
  Grouping byMember;  // the (owner, member) pairs of each op
  std::int64_t owners() const { return static_cast<std::int64_t>(memberOffset.size()) - 1; }
  std::int64_t pairs() const { return static_cast<std::int64_t>(memberOp.size()); }
};

namespace {

// F_m at index `column` of its window; columns below 0 never occur (g is the maximum).
template <typename Real>
Real windowCdf(const Real* cdfRow, std::int64_t column, std::int64_t width) {
  return column >= width - 1 ? Real(1) : cdfRow[column];
}

template <typename Real>
void latestStartForwardKernel(const Real* cdf, const std::int64_t* offset, std::int64_t batch,
                              std::int64_t width, const LatestStartIndex& index, Real* pmf,
                              std::int64_t* latestOffset) {
  const std::int64_t owners = index.owners();
  at::parallel_for(
      0, batch * owners, kParallelGrain / 8, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t item = begin; item < end; ++item) {
          const std::int64_t b = item / owners;
          const std::int64_t k = item % owners;
          const std::int64_t* ownOffset = offset + b * index.ops;
          std::int64_t g = 0;
          for (std::int64_t p = index.memberOffset[k]; p < index.memberOffset[k + 1]; ++p) {
            g = std::max(g, ownOffset[index.memberOp[p]] + index.memberShift[p]);
          }
          latestOffset[item] = g;
          Real* q = pmf + item * width;
          Real previous = 0;
          for (std::int64_t j = 0; j < width; ++j) {
            Real product = 1;
            for (std::int64_t p = index.memberOffset[k]; p < index.memberOffset[k + 1]; ++p) {
              const std::int64_t m = index.memberOp[p];
              const Real* cdfRow = cdf + (b * index.ops + m) * width;
              product *= windowCdf(cdfRow, g + j - index.memberShift[p] - ownOffset[m], width);
            }
            q[j] = product - previous;
            previous = product;
          }
        }
      });
}

// d G(j) / d F_m = product of the other members' F: prefix and suffix products, exact even when
// some factor is 0. The per-pair gradients go to a buffer first, then each op gathers its own
// (one writer per row, no atomics, a fixed order).
template <typename Real>
void latestStartBackwardKernel(const Real* cdf, const std::int64_t* offset,
                               const std::int64_t* latestOffset, std::int64_t batch,
                               std::int64_t width, const LatestStartIndex& index,
                               const Real* gradPmf, Real* pairGrad, Real* gradCdf) {
  const std::int64_t owners = index.owners();
  const std::int64_t pairs = index.pairs();
  at::parallel_for(
      0, batch * owners, kParallelGrain / 8, [&](std::int64_t begin, std::int64_t end) {
        std::vector<Real> factor, prefix;
        for (std::int64_t item = begin; item < end; ++item) {
          const std::int64_t b = item / owners;
          const std::int64_t k = item % owners;
          const std::int64_t* ownOffset = offset + b * index.ops;
          const std::int64_t g = latestOffset[item];
          const std::int64_t first = index.memberOffset[k];
          const std::int64_t count = index.memberOffset[k + 1] - first;
          factor.resize(static_cast<std::size_t>(count));
          prefix.resize(static_cast<std::size_t>(count) + 1);
          const Real* gq = gradPmf + item * width;
          for (std::int64_t j = 0; j + 1 < width; ++j) {
            const Real gradLatest = gq[j] - gq[j + 1];  // Q(j) = G(j) - G(j-1); G(W-1) = 1
            if (gradLatest == Real(0)) continue;
            prefix[0] = 1;
            for (std::int64_t n = 0; n < count; ++n) {
              const std::int64_t p = first + n;
              const std::int64_t m = index.memberOp[p];
              factor[n] = windowCdf(cdf + (b * index.ops + m) * width,
                                    g + j - index.memberShift[p] - ownOffset[m], width);
              prefix[n + 1] = prefix[n] * factor[n];
            }
            Real suffix = 1;
            for (std::int64_t n = count - 1; n >= 0; --n) {
              pairGrad[(b * pairs + first + n) * width + j] = gradLatest * prefix[n] * suffix;
              suffix *= factor[n];
            }
          }
        }
      });
  at::parallel_for(
      0, batch * index.ops, kParallelGrain / 8, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t row = begin; row < end; ++row) {
          const std::int64_t b = row / index.ops;
          const std::int64_t m = row % index.ops;
          Real* gc = gradCdf + row * width;
          for (std::int64_t n = index.byMember.offset[m]; n < index.byMember.offset[m + 1]; ++n) {
            const std::int64_t p = index.byMember.item[n];
            const std::int64_t g = latestOffset[b * owners + index.memberOwner[p]];
            const std::int64_t shift = g - index.memberShift[p] - offset[row];  // column of j = 0
            const Real* pg = pairGrad + (b * pairs + p) * width;
            // Columns W - 1 and beyond read the constant 1: no gradient.
            for (std::int64_t j = 0; j + shift <= width - 2; ++j) gc[j + shift] += pg[j];
          }
        }
      });
}

class LatestStartFunction : public torch::autograd::Function<LatestStartFunction> {
 public:
  static torch::autograd::variable_list forward(torch::autograd::AutogradContext* context,
                                                const torch::Tensor& cdf,
                                                const torch::Tensor& offset,
                                                std::int64_t indexAddress) {
    const auto* index = reinterpret_cast<const LatestStartIndex*>(indexAddress);
    const torch::Tensor cdfC = cdf.contiguous();
    const torch::Tensor offsetC = offset.contiguous();
    const std::int64_t batch = cdf.size(0);
    const std::int64_t width = cdf.size(2);
    torch::Tensor pmf = torch::empty({batch, index->owners(), width}, cdf.options());
    torch::Tensor latestOffset = torch::empty({batch, index->owners()}, offset.options());
    AT_DISPATCH_FLOATING_TYPES(cdf.scalar_type(), "latestStartForwardKernel", [&] {
      latestStartForwardKernel<scalar_t>(
          cdfC.data_ptr<scalar_t>(), offsetC.data_ptr<std::int64_t>(), batch, width, *index,
          pmf.data_ptr<scalar_t>(), latestOffset.data_ptr<std::int64_t>());
    });
    context->save_for_backward({cdfC, offsetC, latestOffset});
    context->saved_data["index"] = indexAddress;
    context->mark_non_differentiable({latestOffset});
    return {pmf, latestOffset};
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* context,
                                                 torch::autograd::variable_list gradients) {
    const auto* index =
        reinterpret_cast<const LatestStartIndex*>(context->saved_data["index"].toInt());
    const auto saved = context->get_saved_variables();
    const torch::Tensor& cdf = saved[0];
    const torch::Tensor& offset = saved[1];
    const torch::Tensor& latestOffset = saved[2];
    const std::int64_t batch = cdf.size(0);
    const std::int64_t width = cdf.size(2);
    torch::Tensor gradCdf = torch::zeros_like(cdf);
    if (!gradients[0].defined()) return {gradCdf, torch::Tensor(), torch::Tensor()};
    const torch::Tensor gradPmf = gradients[0].contiguous();
    torch::Tensor pairGrad = torch::zeros({batch, index->pairs(), width}, cdf.options());
    AT_DISPATCH_FLOATING_TYPES(cdf.scalar_type(), "latestStartBackwardKernel", [&] {
      latestStartBackwardKernel<scalar_t>(
          cdf.data_ptr<scalar_t>(), offset.data_ptr<std::int64_t>(),
          latestOffset.data_ptr<std::int64_t>(), batch, width, *index, gradPmf.data_ptr<scalar_t>(),
          pairGrad.data_ptr<scalar_t>(), gradCdf.data_ptr<scalar_t>());
    });
    return {gradCdf, torch::Tensor(), torch::Tensor()};
  }
};

}  // namespace

LiveMemoryTerm::LiveMemoryTerm(const Graph& graph, const WindowGeometry& geometry,
                               std::optional<std::int64_t> ii, const TensorSettings& settings,
                               const RowOrder& rows)
    : settings_(settings), ii_(ii) {
  auto index = std::make_shared<LatestStartIndex>();
  index->ops = graph.numOps();
  index->memberOffset.push_back(0);
  ScatterRows produced, released;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (graph.mem(op) == 0.0) continue;
    // Largest shift per member op; the producer itself starts with shift 0.
    std::map<std::int64_t, std::int64_t> shiftOf{{op, 0}};
    bool hasConsumer = false;
    for (EdgeId e : graph.outEdges(op)) {
      const std::int64_t distance = graph.edgeDistance(e);
      if (distance > 0 && !ii) continue;
      const std::int64_t shift = distance * ii.value_or(0);
      auto [it, inserted] = shiftOf.emplace(graph.edgeTarget(e), shift);
      if (!inserted) it->second = std::max(it->second, shift);
      hasConsumer = true;
    }
    if (!hasConsumer) continue;
    const auto owner = static_cast<std::int64_t>(owners_.size());
    owners_.push_back(op);
    for (const auto& [member, shift] : shiftOf) {
      index->memberOp.push_back(rows.row(static_cast<OpId>(member)));
      index->memberShift.push_back(shift);
      index->memberOwner.push_back(owner);
    }
    index->memberOffset.push_back(static_cast<std::int64_t>(index->memberOp.size()));
    produced.add(rows.row(op), 0, 0, graph.mem(op));
    released.add(owner, 0, 0, -graph.mem(op));
  }
  index->byMember = groupByKey(index->memberOp, graph.numOps());
  const std::int64_t maxShift =
      index->memberShift.empty()
          ? 0
          : *std::max_element(index->memberShift.begin(), index->memberShift.end());
  const std::int64_t length = geometry.horizon + maxShift;
  memberOwner_ = toIndexTensor(index->memberOwner, settings);
  memberOp_ = toIndexTensor(index->memberOp, settings);
  memberShift_ = toIndexTensor(index->memberShift, settings);
  producedScatter_ = WindowScatter(std::move(produced), graph.numOps(), 1, length, settings);
  releasedScatter_ = WindowScatter(std::move(released), index->owners(), 1, length, settings);
  index_ = std::move(index);
}

LatestStartDistribution LiveMemoryTerm::latestStart(
    const WindowedDistribution& distribution) const {
  if (!settings_.fused) return latestStartComposed(distribution);
  const auto outputs = LatestStartFunction::apply(distribution.cdf, distribution.offset,
                                                  reinterpret_cast<std::int64_t>(index_.get()));
  return {outputs[1], outputs[0]};
}

LatestStartDistribution LiveMemoryTerm::latestStartComposed(
    const WindowedDistribution& distribution) const {
  const torch::Tensor& cdf = distribution.cdf;
  const std::int64_t batch = cdf.size(0);
  const std::int64_t width = distribution.width;
  const auto owners = static_cast<std::int64_t>(owners_.size());
  const torch::Tensor memberStart =
      distribution.offset.index_select(1, memberOp_) + memberShift_.unsqueeze(0);  // [B, P]
  const torch::Tensor latest =
      torch::zeros({batch, owners}, settings_.index())
          .scatter_reduce(1, memberOwner_.unsqueeze(0).expand({batch, -1}), memberStart, "amax",
                          /*include_self=*/false);
  const torch::Tensor column = ((latest.index_select(1, memberOwner_) - memberStart).unsqueeze(-1) +
                                torch::arange(width, settings_.index()))
                                   .clamp_max(width - 1);
  const torch::Tensor flatIndex = column + (memberOp_ * width).view({1, -1, 1});
  const torch::Tensor factor =
      cdf.reshape({batch, -1}).gather(1, flatIndex.reshape({batch, -1})).view(column.sizes());
  // The product in log space (an index_add over pairs); a factor that underflows to 0 is held at
  // the smallest normal number, which only matters where G itself is 0 to working precision.
  const double tiny = cdf.scalar_type() == torch::kFloat64 ? 1e-300 : 1e-30;
  const torch::Tensor logLatest =
      torch::zeros({batch, owners, width}, cdf.options())
          .index_add(1, memberOwner_, torch::log(factor.clamp_min(tiny)));
  const torch::Tensor inner = torch::exp(logLatest.narrow(-1, 0, width - 1));
  const torch::Tensor column1 = torch::ones({batch, owners, 1}, cdf.options());
  const torch::Tensor latestCdf = torch::cat({inner, column1}, -1);
  const torch::Tensor pmf = latestCdf - torch::cat({torch::zeros_like(column1), inner}, -1);
  return {latest, pmf};
}

torch::Tensor LiveMemoryTerm::expectedLiveMemory(const WindowedDistribution& distribution) const {
  const std::int64_t batch = distribution.pmf.size(0);
  if (empty()) return torch::zeros({batch, ii_.value_or(1)}, distribution.pmf.options());
  const LatestStartDistribution latest = latestStart(distribution);
  const torch::Tensor series =
      (producedScatter_.scatter(distribution.pmf, distribution.offset, distribution.active,
                                distribution.buffers) +
       releasedScatter_.scatter(latest.pmf, latest.offset, {}, distribution.buffers))
          .cumsum(-1);  // [B, 1, T]
  return (ii_ ? foldModulo(series, *ii_) : series).select(1, 0);
}

}  // namespace gaus::differentiable
