// Sums of shifted, scaled window rows over time: the one primitive behind expected resource
// usage, stage weight and live memory. Row r takes row `source_r` of a window table
// ([B, N, W]: a pmf) and adds it, times `scale_r`, to channel `channel_r` starting at time
// offset[b, source_r] + shift_r. A CDF-shaped quantity (an op's reservation block "in use since
// its start", a value "live since its producer started") is then the cumulative sum over time
// of such pmf rows: usage of block [begin, begin + length) = rows (+units at begin) and
// (-units at begin + length), summed up to t. Cost O(rows * W + channels * T), independent of
// how long the blocks are.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <torch/torch.h>

#include "step_buffers.hpp"
#include "tensor_support.hpp"

namespace gaus::differentiable {

struct ScatterRows {
  std::vector<std::int64_t> source;   // row of the window table
  std::vector<std::int64_t> channel;  // resource, memory or 0
  std::vector<std::int64_t> shift;    // added to the window offset (>= 0)
  std::vector<double> scale;

  void add(std::int64_t sourceRow, std::int64_t channelIndex, std::int64_t timeShift,
           double factor) {
    source.push_back(sourceRow);
    channel.push_back(channelIndex);
    shift.push_back(timeShift);
    scale.push_back(factor);
  }
  std::int64_t size() const { return static_cast<std::int64_t>(source.size()); }
  std::int64_t maxShift() const;
};

struct ScatterIndex;     // host arrays of the fused kernel (window_scatter.cpp)
struct ComposedScatter;  // the LibTorch path's rows, scattered in chunks (window_scatter.cpp)

class WindowScatter {
 public:
  WindowScatter() = default;  // no rows
  // `tableRows` = N; the result has `channels` x `length` entries per batch row. `length` must
  // cover every offset + shift + W (callers use D + maxShift()).
  WindowScatter(ScatterRows rows, std::int64_t tableRows, std::int64_t channels,
                std::int64_t length, const TensorSettings& settings);

  std::int64_t channels() const { return channels_; }
  std::int64_t length() const { return length_; }
  bool empty() const { return rowCount_ == 0; }

  // [B, channels, length]: the scattered rows (not yet summed over time). `active`: the
  // table's active columns when it is a window's pmf (WindowedDistribution::active; the fused
  // kernels then skip its zero columns), else undefined. `buffers`: the step's buffers, or null.
  torch::Tensor scatter(const torch::Tensor& table, const torch::Tensor& offset,
                        const torch::Tensor& active = {}, StepBuffers* buffers = nullptr) const;
  // [B, channels, length]: their cumulative sum over time.
  torch::Tensor cumulative(const torch::Tensor& table, const torch::Tensor& offset,
                           const torch::Tensor& active = {}, StepBuffers* buffers = nullptr) const {
    return scatter(table, offset, active, buffers).cumsum(-1);
  }

 private:
  TensorSettings settings_;
  std::int64_t rowCount_ = 0;
  std::int64_t channels_ = 0;
  std::int64_t length_ = 0;
  // Shared with the autograd graphs built by scatter(), which refer to them by address.
  std::shared_ptr<const ScatterIndex> index_;
  std::shared_ptr<const ComposedScatter> composed_;
};

// Folds the time axis of [B, C, T] modulo `ii` into [B, C, ii] (step t adds to residue t mod ii).
torch::Tensor foldModulo(const torch::Tensor& series, std::int64_t ii);

}  // namespace gaus::differentiable
