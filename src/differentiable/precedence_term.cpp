#include "precedence_term.hpp"

#include <algorithm>
#include <vector>

#include <ATen/Parallel.h>

#include "chunked_evaluation.hpp"
#include "kernel_rows.hpp"

namespace gaus::differentiable {

// The edges as the fused kernels walk them. The result's element e is the e-th modelled edge in
// graph order (PrecedenceTerm::graphEdge); the kernels visit edges grouped by source row and by
// target row, each group in element order, so that every sum runs in the same order whatever
// the rows' order (test_step_layout.cpp asks for the same bits).
struct PrecedenceIndex {
  // Out-edges: sorted by source row, ties in element order; those of row u are the run
  // [outgoing[u], outgoing[u + 1]), and the kernels walking them read these arrays in sequence
  // (in element order each read was a cache miss at 100,000 ops). `element`: where the edge's
  // violation goes in the result.
  std::vector<std::int64_t> target, shift, element;  // shift = d - delta * II - 1
  std::vector<std::int64_t> outgoing;
  // In-edges: those of row v are items [incoming[v], incoming[v + 1]) in element order, with
  // their source, shift and element copied, for the pass over in-edges to read in sequence.
  std::vector<std::int64_t> incoming;
  std::vector<std::int64_t> sourceOfIncoming, shiftOfIncoming, elementOfIncoming;
  std::int64_t edges() const { return static_cast<std::int64_t>(target.size()); }
};

namespace {

// The rows an op's edges read, asked for a few rows ahead of their use: with rows by latest
// start (row_order.hpp) an edge's other end is usually some hundred rows away, beyond what the
// hardware prefetcher follows, and at 100,000 ops its first read missed the caches.
constexpr std::int64_t kPrefetchRows = 4;

template <typename Real>
void prefetchActive(const Real* table, const ActiveColumns& active, std::int64_t row,
                    std::int64_t width) {
  const Real* first = table + row * width + active.first(row);
  __builtin_prefetch(first);
  __builtin_prefetch(table + row * width + active.last(row) + 1);
}

// Prefetches, for row `row` (if within [.., end)), the rows at the far end of its edges: those
// of items [first[op], first[op + 1]) of `farEnd` (out-edges: targets; in-edges: sources).
template <typename Real>
void prefetchEdgeRows(const Real* table, const ActiveColumns& active, std::int64_t row,
                      std::int64_t end, std::int64_t ops, std::int64_t width,
                      const std::vector<std::int64_t>& first,
                      const std::vector<std::int64_t>& farEnd) {
  if (row >= end) return;
  const std::int64_t base = row - row % ops;
  const std::int64_t op = row % ops;
  for (std::int64_t k = first[op]; k < first[op + 1]; ++k) {
    prefetchActive(table, active, base + farEnd[k], width);
  }
}

// A row's pmf on [first, last + 1] from its CDF, as the window's kernel makes it
// (pmf(j) = cdf(j) - cdf(j - 1), pmf(0) = cdf(0)), so the values are the table's own; outside
// that run the pmf is 0. The fused precedence term reads the CDF table only: its gradient then
// reaches the window as one table (the pmf's part folded into the CDF's, below), and autograd adds
// no gradient of the pmf table of its own to the other terms'.
template <typename Real>
Real pmfFromCdf(const Real* cdfRow, std::int64_t j) {
  return j == 0 ? cdfRow[0] : cdfRow[j] - cdfRow[j - 1];
}

// V_e for every edge, walking each op's out-edges so that its pmf row (made once from its CDF)
// stays in cache. Only the steps where both u's pmf and v's CDF can be nonzero are multiplied
// (kernel_rows.hpp, EdgeProducts): with sigma near 1 a window row has about 16 active columns of
// 65, and an edge about 4 products.
template <typename Real>
void precedenceForwardKernel(const Real* cdf, const std::int64_t* offset,
                             const ActiveColumns& active, std::int64_t batch, std::int64_t ops,
                             std::int64_t width, const PrecedenceIndex& edges, Real* violation) {
  at::parallel_for(0, batch * ops, kParallelGrain / 8, [&](std::int64_t begin, std::int64_t end) {
    std::vector<Real> pu(static_cast<std::size_t>(width));
    for (std::int64_t row = begin; row < end; ++row) {
      prefetchEdgeRows(cdf, active, row + kPrefetchRows, end, ops, width, edges.outgoing,
                       edges.target);
      const std::int64_t b = row / ops;
      const std::int64_t op = row % ops;
      const Real* cu = cdf + row * width;
      const std::int64_t firstU = active.first(row);
      const std::int64_t lastU = active.last(row);
      if (edges.outgoing[op] == edges.outgoing[op + 1]) continue;
      for (std::int64_t j = firstU; j <= lastU + 1; ++j) pu[j] = pmfFromCdf(cu, j);
      for (std::int64_t e = edges.outgoing[op]; e < edges.outgoing[op + 1]; ++e) {
        const std::int64_t v = b * ops + edges.target[e];
        const EdgeSpan span(offset[row], edges.shift[e], offset[v], width);
        const EdgeProducts products(span, firstU, lastU, active.first(v));
        const Real* cv = cdf + v * width + span.c;
        Real sum = 0;
        for (std::int64_t j = products.begin; j <= products.end; ++j) sum += pu[j] * cv[j];
        if (span.jt < width) sum += span.jt == 0 ? Real(1) : 1 - cu[span.jt - 1];
        violation[b * edges.edges() + edges.element[e]] = sum;
      }
    }
  });
}

// The gradient with respect to the CDF table, computed on each row's active columns
// [first, last] (what the window's backward reads of it) and 0 elsewhere.
template <typename Real>
void precedenceBackwardKernel(const Real* cdf, const std::int64_t* offset,
                              const ActiveColumns& active, std::int64_t batch, std::int64_t ops,
                              std::int64_t width, const PrecedenceIndex& edges,
                              const Real* gradViolation, Real* gradCdf) {
  // Pass 1, per op u over its out-edges: d V_e / d pmf_u(j) = F_v(j + c), gathered in a row of
  // its own and folded into u's CDF row through pmf_u(j) = cdf_u(j) - cdf_u(j - 1); and the
  // tail's d V_e / d cdf_u(jt - 1) = -1. Pass 2, per op v over its in-edges:
  // d V_e / d cdf_v(j + c) = pmf_u(j). Each pass writes only its own op's rows; pass 1 writes
  // every column of them, pass 2 adds to them.
  at::parallel_for(0, batch * ops, kParallelGrain / 8, [&](std::int64_t begin, std::int64_t end) {
    std::vector<Real> gp(static_cast<std::size_t>(width));
    for (std::int64_t row = begin; row < end; ++row) {
      prefetchEdgeRows(cdf, active, row + kPrefetchRows, end, ops, width, edges.outgoing,
                       edges.target);
      const std::int64_t b = row / ops;
      const std::int64_t op = row % ops;
      Real* gc = gradCdf + row * width;
      std::fill(gc, gc + width, Real(0));
      if (edges.outgoing[op] == edges.outgoing[op + 1]) continue;
      const std::int64_t firstU = active.first(row);
      const std::int64_t lastU = active.last(row);
      std::fill(gp.begin() + firstU, gp.begin() + lastU + 2, Real(0));
      for (std::int64_t e = edges.outgoing[op]; e < edges.outgoing[op + 1]; ++e) {
        const std::int64_t v = b * ops + edges.target[e];
        const Real g = gradViolation[b * edges.edges() + edges.element[e]];
        const EdgeSpan span(offset[row], edges.shift[e], offset[v], width);
        const EdgeProducts products(span, firstU, lastU, active.first(v));
        const Real* cv = cdf + v * width + span.c;
        for (std::int64_t j = products.begin; j <= products.end; ++j) gp[j] += g * cv[j];
        if (span.jt - 1 >= firstU && span.jt - 1 <= lastU) gc[span.jt - 1] -= g;
      }
      for (std::int64_t j = firstU; j <= lastU; ++j) gc[j] += gp[j] - gp[j + 1];
    }
  });
  at::parallel_for(0, batch * ops, kParallelGrain / 8, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t row = begin; row < end; ++row) {
      prefetchEdgeRows(cdf, active, row + kPrefetchRows, end, ops, width, edges.incoming,
                       edges.sourceOfIncoming);
      const std::int64_t b = row / ops;
      const std::int64_t op = row % ops;
      const std::int64_t firstV = active.first(row);
      const std::int64_t lastV = active.last(row);
      for (std::int64_t k = edges.incoming[op]; k < edges.incoming[op + 1]; ++k) {
        const std::int64_t u = b * ops + edges.sourceOfIncoming[k];
        const Real g = gradViolation[b * edges.edges() + edges.elementOfIncoming[k]];
        const EdgeSpan span(offset[u], edges.shiftOfIncoming[k], offset[row], width);
        const EdgeProducts products(span, active.first(u), active.last(u), firstV);
        const std::int64_t last = std::min(products.end, lastV - span.c);
        const Real* cu = cdf + u * width;
        Real* gc = gradCdf + row * width + span.c;
        std::int64_t j = products.begin;
        if (j == 0 && j <= last) gc[j++] += g * cu[0];
        for (; j <= last; ++j) gc[j] += g * (cu[j] - cu[j - 1]);
      }
    }
  });
}

// The fused kernels as an autograd function of the two window tables. The index arrays and the
// step's buffers reach it by address (saved data holds integers): the term that owns the
// arrays outlives every graph built from it, the optimizer that owns the buffers every step.
class PrecedenceFunction : public torch::autograd::Function<PrecedenceFunction> {
 public:
  enum Slot : int { kViolationSlot, kGradCdfSlot };

  static torch::Tensor forward(torch::autograd::AutogradContext* context, const torch::Tensor& cdf,
                               const torch::Tensor& offset, const torch::Tensor& active,
                               std::int64_t indexAddress, std::int64_t buffersAddress) {
    const auto* index = reinterpret_cast<const PrecedenceIndex*>(indexAddress);
    auto* buffers = reinterpret_cast<StepBuffers*>(buffersAddress);
    const torch::Tensor cdfC = cdf.contiguous();
    const torch::Tensor offsetC = offset.contiguous();
    const torch::Tensor activeC = active.contiguous();
    const std::int64_t batch = cdf.size(0);
    const std::int64_t ops = cdf.size(1);
    const std::int64_t width = cdf.size(2);
    torch::Tensor violation =
        takeOrAllocate(buffers, index, kViolationSlot, {batch, index->edges()}, cdf.options());
    AT_DISPATCH_FLOATING_TYPES(cdf.scalar_type(), "precedenceForwardKernel", [&] {
      precedenceForwardKernel<scalar_t>(cdfC.data_ptr<scalar_t>(), offsetC.data_ptr<std::int64_t>(),
                                        activeColumns(activeC, width), batch, ops, width, *index,
                                        violation.data_ptr<scalar_t>());
    });
    context->save_for_backward({cdfC, offsetC, activeC});
    context->saved_data["index"] = indexAddress;
    context->saved_data["buffers"] = buffersAddress;
    return violation;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* context,
                                                 torch::autograd::variable_list gradients) {
    const auto* index =
        reinterpret_cast<const PrecedenceIndex*>(context->saved_data["index"].toInt());
    auto* buffers = reinterpret_cast<StepBuffers*>(context->saved_data["buffers"].toInt());
    const auto saved = context->get_saved_variables();
    const torch::Tensor& cdf = saved[0];
    const torch::Tensor& offset = saved[1];
    const torch::Tensor& active = saved[2];
    const torch::Tensor gradViolation = gradients[0].contiguous();
    torch::Tensor gradCdf =
        takeOrAllocate(buffers, index, kGradCdfSlot, cdf.sizes(), cdf.options());
    AT_DISPATCH_FLOATING_TYPES(cdf.scalar_type(), "precedenceBackwardKernel", [&] {
      precedenceBackwardKernel<scalar_t>(
          cdf.data_ptr<scalar_t>(), offset.data_ptr<std::int64_t>(),
          activeColumns(active, cdf.size(2)), cdf.size(0), cdf.size(1), cdf.size(2), *index,
          gradViolation.data_ptr<scalar_t>(), gradCdf.data_ptr<scalar_t>());
    });
    return {gradCdf, torch::Tensor(), torch::Tensor(), torch::Tensor(), torch::Tensor()};
  }
};

}  // namespace

// The LibTorch composition over edges [begin, end): u's pmf row times v's CDF read at u's steps
// shifted by c = a_u + shift - a_v, with a leading 0 column standing for "below the window"
// (F = 0) and the last column for "from the window's last step on" (F = 1). Evaluated in chunks
// (chunked_evaluation.hpp): a chunk reads the rows of its edges' sources and targets.
class PrecedenceChunks final : public ChunkedTerm {
 public:
  // Edge e: row source[e] to row target[e], shifted by shift[e], in element order.
  PrecedenceChunks(const std::vector<std::int64_t>& source, const std::vector<std::int64_t>& target,
                   const std::vector<std::int64_t>& shift, const TensorSettings& settings)
      : source_(toIndexTensor(source, settings)),
        target_(toIndexTensor(target, settings)),
        shift_(toIndexTensor(shift, settings)),
        settings_(settings) {}

  std::int64_t rows() const override { return source_.size(0); }

  // pmf rows of the sources, CDF rows of the targets, and both offsets.
  std::vector<torch::Tensor> rowsRead(std::int64_t begin, std::int64_t end) const override {
    const torch::Tensor sources = source_.slice(0, begin, end);
    const torch::Tensor targets = target_.slice(0, begin, end);
    return {sources, targets, sources, targets};
  }

  torch::Tensor evaluate(const std::vector<torch::Tensor>& gathered, std::int64_t begin,
                         std::int64_t end) const override {
    const torch::Tensor& pmfU = gathered[0];  // [B, c, W]
    const torch::Tensor& cdfV = gathered[1];  // [B, c, W]
    const std::int64_t width = pmfU.size(2);
    const torch::Tensor shifted =
        (gathered[2] + shift_.slice(0, begin, end) - gathered[3]).unsqueeze(-1) +
        torch::arange(width, settings_.index()) + 1;
    std::vector<std::int64_t> columnShape = cdfV.sizes().vec();
    columnShape.back() = 1;
    const torch::Tensor withZero =
        torch::cat({torch::zeros(columnShape, cdfV.options()), cdfV}, -1);
    return (pmfU * withZero.gather(2, shifted.clamp(0, width))).sum(-1);
  }

 private:
  torch::Tensor source_, target_, shift_;
  TensorSettings settings_;
};

PrecedenceTerm::PrecedenceTerm(const Graph& graph, std::optional<std::int64_t> ii,
                               const TensorSettings& settings, const RowOrder& rows)
    : settings_(settings) {
  std::vector<std::int64_t> source, target, shift;  // in element order
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    const std::int64_t distance = graph.edgeDistance(e);
    if (distance > 0 && !ii) continue;
    if (graph.edgeSource(e) == graph.edgeTarget(e)) continue;
    graphEdge_.push_back(e);
    source.push_back(rows.row(graph.edgeSource(e)));
    target.push_back(rows.row(graph.edgeTarget(e)));
    shift.push_back(graph.edgeDelay(e) - distance * ii.value_or(0) - 1);
  }
  auto index = std::make_shared<PrecedenceIndex>();
  // groupByKey keeps each group in element order.
  const Grouping bySource = groupByKey(source, graph.numOps());
  index->outgoing = bySource.offset;
  for (const std::int64_t e : bySource.item) {
    index->target.push_back(target[e]);
    index->shift.push_back(shift[e]);
    index->element.push_back(e);
  }
  const Grouping byTarget = groupByKey(target, graph.numOps());
  index->incoming = byTarget.offset;
  for (const std::int64_t e : byTarget.item) {
    index->sourceOfIncoming.push_back(source[e]);
    index->shiftOfIncoming.push_back(shift[e]);
    index->elementOfIncoming.push_back(e);
  }
  chunks_ = std::make_shared<const PrecedenceChunks>(source, target, shift, settings);
  index_ = std::move(index);
}

torch::Tensor PrecedenceTerm::evaluate(const WindowedDistribution& distribution) const {
  if (size() == 0) {
    return torch::zeros({distribution.pmf.size(0), 0}, distribution.pmf.options());
  }
  if (!settings_.fused) {
    return evaluateInChunks(
        *chunks_, {distribution.pmf, distribution.cdf, distribution.offset, distribution.offset},
        chunkRowsFor(distribution.pmf.size(0), distribution.width));
  }
  return PrecedenceFunction::apply(distribution.cdf, distribution.offset,
                                   activeOrEmpty(distribution.active),
                                   reinterpret_cast<std::int64_t>(index_.get()),
                                   reinterpret_cast<std::int64_t>(distribution.buffers));
}

}  // namespace gaus::differentiable
