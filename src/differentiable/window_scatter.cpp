#include "window_scatter.hpp"

#include <algorithm>

#include <ATen/Parallel.h>

#include "chunked_evaluation.hpp"
#include "window_distribution.hpp"

namespace gaus::differentiable {

std::int64_t ScatterRows::maxShift() const {
  return shift.empty() ? 0 : *std::max_element(shift.begin(), shift.end());
}

struct ScatterIndex {
  ScatterRows rows;
  Grouping byChannel;  // forward: one writer per channel
  Grouping bySource;   // backward: one writer per table row
  std::int64_t tableRows = 0;
  std::int64_t channels = 0;
  std::int64_t length = 0;
  std::int64_t maxShift = 0;
};

namespace {

// With `active` (the table is a window's pmf), only a row's columns [first, last + 1] are
// added: the pmf is 0 elsewhere.
template <typename Real>
void scatterForwardKernel(const Real* table, const std::int64_t* offset,
                          const ActiveColumns& active, std::int64_t batch, std::int64_t width,
                          const ScatterIndex& index, Real* out) {
  const ScatterRows& rows = index.rows;
  at::parallel_for(0, batch * index.channels, 1, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t item = begin; item < end; ++item) {
      const std::int64_t b = item / index.channels;
      const std::int64_t channel = item % index.channels;
      Real* series = out + item * index.length;
      for (std::int64_t k = index.byChannel.offset[channel];
           k < index.byChannel.offset[channel + 1]; ++k) {
        const std::int64_t r = index.byChannel.item[k];
        const std::int64_t row = b * index.tableRows + rows.source[r];
        const Real scale = static_cast<Real>(rows.scale[r]);
        const Real* values = table + row * width;
        Real* target = series + offset[row] + rows.shift[r];
        const std::int64_t last = std::min(width - 1, active.last(row) + 1);
        for (std::int64_t j = active.first(row); j <= last; ++j) target[j] += scale * values[j];
      }
    }
  });
}

// Every column of every table row is written; with `active`, the gradient is computed on a
// row's columns [first, last + 1] (what the window's backward reads of a pmf) and 0 elsewhere.
template <typename Real>
void scatterBackwardKernel(const std::int64_t* offset, const ActiveColumns& active,
                           std::int64_t batch, std::int64_t width, const ScatterIndex& index,
                           const Real* gradOut, Real* gradTable) {
  const ScatterRows& rows = index.rows;
  at::parallel_for(
      0, batch * index.tableRows, kParallelGrain / 8, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t row = begin; row < end; ++row) {
          const std::int64_t b = row / index.tableRows;
          const std::int64_t source = row % index.tableRows;
          Real* grad = gradTable + row * width;
          std::fill(grad, grad + width, Real(0));
          const std::int64_t first = active.first(row);
          const std::int64_t last = std::min(width - 1, active.last(row) + 1);
          for (std::int64_t k = index.bySource.offset[source];
               k < index.bySource.offset[source + 1]; ++k) {
            const std::int64_t r = index.bySource.item[k];
            const Real scale = static_cast<Real>(rows.scale[r]);
            const Real* series = gradOut + (b * index.channels + rows.channel[r]) * index.length +
                                 offset[row] + rows.shift[r];
            for (std::int64_t j = first; j <= last; ++j) grad[j] += scale * series[j];
          }
        }
      });
}

class ScatterFunction : public torch::autograd::Function<ScatterFunction> {
 public:
  enum Slot : int { kSeriesSlot, kGradTableSlot };

  static torch::Tensor forward(torch::autograd::AutogradContext* context,
                               const torch::Tensor& table, const torch::Tensor& offset,
                               const torch::Tensor& active, std::int64_t indexAddress,
                               std::int64_t buffersAddress) {
    const auto* index = reinterpret_cast<const ScatterIndex*>(indexAddress);
    auto* buffers = reinterpret_cast<StepBuffers*>(buffersAddress);
    const torch::Tensor tableC = table.contiguous();
    const torch::Tensor offsetC = offset.contiguous();
    const torch::Tensor activeC = active.contiguous();
    const std::int64_t batch = table.size(0);
    const std::int64_t width = table.size(2);
    TORCH_CHECK(offsetC.numel() == 0 ||
                    offsetC.max().item<std::int64_t>() + width + index->maxShift <= index->length,
                "window scatter: a row reaches past the series length ", index->length);
    torch::Tensor out = takeOrAllocate(buffers, index, kSeriesSlot,
                                       {batch, index->channels, index->length}, table.options());
    out.zero_();
    AT_DISPATCH_FLOATING_TYPES(table.scalar_type(), "scatterForwardKernel", [&] {
      scatterForwardKernel<scalar_t>(tableC.data_ptr<scalar_t>(), offsetC.data_ptr<std::int64_t>(),
                                     activeColumns(activeC, width), batch, width, *index,
                                     out.data_ptr<scalar_t>());
    });
    context->save_for_backward({offsetC, activeC});
    context->saved_data["index"] = indexAddress;
    context->saved_data["buffers"] = buffersAddress;
    context->saved_data["width"] = width;
    return out;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* context,
                                                 torch::autograd::variable_list gradients) {
    const auto* index = reinterpret_cast<const ScatterIndex*>(context->saved_data["index"].toInt());
    auto* buffers = reinterpret_cast<StepBuffers*>(context->saved_data["buffers"].toInt());
    const std::int64_t width = context->saved_data["width"].toInt();
    const auto saved = context->get_saved_variables();
    const torch::Tensor& offset = saved[0];
    const torch::Tensor& active = saved[1];
    const torch::Tensor gradOut = gradients[0].contiguous();
    const std::int64_t batch = gradOut.size(0);
    torch::Tensor gradTable = takeOrAllocate(buffers, index, kGradTableSlot,
                                             {batch, index->tableRows, width}, gradOut.options());
    AT_DISPATCH_FLOATING_TYPES(gradOut.scalar_type(), "scatterBackwardKernel", [&] {
      scatterBackwardKernel<scalar_t>(offset.data_ptr<std::int64_t>(), activeColumns(active, width),
                                      batch, width, *index, gradOut.data_ptr<scalar_t>(),
                                      gradTable.data_ptr<scalar_t>());
    });
    return {gradTable, torch::Tensor(), torch::Tensor(), torch::Tensor(), torch::Tensor()};
  }
};

}  // namespace

// The LibTorch path's rows, and the same scatter in chunks of rows (chunked_evaluation.hpp says
// why): the forward adds each chunk's shifted rows into the series without keeping them, the
// backward gathers each chunk's gradient back from the series. A chunk holds [B, c, W] values
// and their int64 positions; the whole scatter at once held them for every row until the
// backward pass.
struct ComposedScatter {
  torch::Tensor source, channel, shift, scale;
  std::int64_t channels = 0;
  std::int64_t length = 0;
  std::int64_t rows() const { return source.size(0); }

  // [B, e - b, W] positions of rows [b, e) in the flattened [B, channels * length] series.
  torch::Tensor positions(const torch::Tensor& offset, std::int64_t b, std::int64_t e,
                          std::int64_t width) const {
    const torch::Tensor start =
        offset.index_select(1, source.slice(0, b, e)) + shift.slice(0, b, e).unsqueeze(0);
    return start.unsqueeze(-1) + torch::arange(width, offset.options()) +
           (channel.slice(0, b, e) * length).view({1, -1, 1});
  }
};

namespace {

class ComposedScatterFunction : public torch::autograd::Function<ComposedScatterFunction> {
 public:
  static torch::Tensor forward(torch::autograd::AutogradContext* context,
                               const torch::Tensor& table, const torch::Tensor& offset,
                               std::int64_t scatterAddress, std::int64_t chunkRows) {
    const auto& scatter = *reinterpret_cast<const ComposedScatter*>(scatterAddress);
    const std::int64_t batch = table.size(0);
    const std::int64_t width = table.size(2);
    torch::NoGradGuard noGrad;
    torch::Tensor out = torch::zeros({batch, scatter.channels * scatter.length}, table.options());
    for (std::int64_t b = 0; b < scatter.rows(); b += chunkRows) {
      const std::int64_t e = std::min(scatter.rows(), b + chunkRows);
      const torch::Tensor values = table.index_select(1, scatter.source.slice(0, b, e)) *
                                   scatter.scale.slice(0, b, e).view({1, -1, 1});
      out.scatter_add_(1, scatter.positions(offset, b, e, width).reshape({batch, -1}),
                       values.reshape({batch, -1}));
    }
    context->save_for_backward({offset});
    context->saved_data["scatter"] = scatterAddress;
    context->saved_data["chunk"] = chunkRows;
    context->saved_data["rows"] = table.size(1);
    context->saved_data["width"] = width;
    return out.view({batch, scatter.channels, scatter.length});
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* context,
                                                 torch::autograd::variable_list gradients) {
    const auto& scatter =
        *reinterpret_cast<const ComposedScatter*>(context->saved_data["scatter"].toInt());
    const std::int64_t chunkRows = context->saved_data["chunk"].toInt();
    const std::int64_t width = context->saved_data["width"].toInt();
    const torch::Tensor offset = context->get_saved_variables()[0];
    const std::int64_t batch = offset.size(0);
    const torch::Tensor gradOut = gradients[0].reshape({batch, -1});
    torch::Tensor gradTable =
        torch::zeros({batch, context->saved_data["rows"].toInt(), width}, gradOut.options());
    for (std::int64_t b = 0; b < scatter.rows(); b += chunkRows) {
      const std::int64_t e = std::min(scatter.rows(), b + chunkRows);
      const torch::Tensor grad =
          gradOut.gather(1, scatter.positions(offset, b, e, width).reshape({batch, -1}))
              .view({batch, e - b, width}) *
          scatter.scale.slice(0, b, e).view({1, -1, 1});
      gradTable.index_add_(1, scatter.source.slice(0, b, e), grad);
    }
    return {gradTable, torch::Tensor(), torch::Tensor(), torch::Tensor()};
  }
};

}  // namespace

WindowScatter::WindowScatter(ScatterRows rows, std::int64_t tableRows, std::int64_t channels,
                             std::int64_t length, const TensorSettings& settings)
    : settings_(settings), rowCount_(rows.size()), channels_(channels), length_(length) {
  auto composed = std::make_shared<ComposedScatter>();
  composed->source = toIndexTensor(rows.source, settings);
  composed->channel = toIndexTensor(rows.channel, settings);
  composed->shift = toIndexTensor(rows.shift, settings);
  composed->scale = toRealTensor(rows.scale, settings);
  composed->channels = channels;
  composed->length = length;
  composed_ = std::move(composed);
  auto index = std::make_shared<ScatterIndex>();
  index->byChannel = groupByKey(rows.channel, channels);
  index->bySource = groupByKey(rows.source, tableRows);
  index->tableRows = tableRows;
  index->channels = channels;
  index->length = length;
  index->maxShift = rows.maxShift();
  index->rows = std::move(rows);
  index_ = std::move(index);
}

torch::Tensor WindowScatter::scatter(const torch::Tensor& table, const torch::Tensor& offset,
                                     const torch::Tensor& active, StepBuffers* buffers) const {
  const std::int64_t batch = table.size(0);
  if (rowCount_ == 0) return torch::zeros({batch, channels_, length_}, table.options());
  if (settings_.fused) {
    return ScatterFunction::apply(table, offset, activeOrEmpty(active),
                                  reinterpret_cast<std::int64_t>(index_.get()),
                                  reinterpret_cast<std::int64_t>(buffers));
  }
  return ComposedScatterFunction::apply(table, offset,
                                        reinterpret_cast<std::int64_t>(composed_.get()),
                                        chunkRowsFor(batch, table.size(2)));
}

torch::Tensor foldModulo(const torch::Tensor& series, std::int64_t ii) {
  const std::int64_t length = series.size(-1);
  const std::int64_t periods = (length + ii - 1) / ii;
  const torch::Tensor padded =
      torch::constant_pad_nd(series, {0, periods * ii - length}, 0.0);  // [B, C, periods * ii]
  std::vector<std::int64_t> shape = series.sizes().vec();
  shape.back() = periods;
  shape.push_back(ii);
  return padded.view(shape).sum(-2);
}

}  // namespace gaus::differentiable
