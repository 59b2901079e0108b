// Small helpers shared by the engine's files: where tensors live (device, dtype, which kernels
// evaluate the terms), host vectors to tensors, and CSR grouping for the fused CPU kernels.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <torch/torch.h>

#include <gaus/core/expected.hpp>

namespace gaus::differentiable {

struct TensorSettings {
  torch::Device device = torch::kCPU;
  torch::ScalarType dtype = torch::kFloat32;
  // Fused CPU kernels (hand-written forward and backward, src/differentiable/*_term.cpp)
  // instead of compositions of LibTorch operators. Only on the CPU.
  bool fused = true;

  torch::TensorOptions real() const { return torch::TensorOptions().dtype(dtype).device(device); }
  torch::TensorOptions index() const {
    return torch::TensorOptions().dtype(torch::kLong).device(device);
  }
};

// Resolves "auto|cpu|cuda", "float32|float64" and "auto|fused|torch" into settings, with a
// message naming the value and what to change when it cannot be honored (e.g. cuda asked for
// but LibTorch sees no CUDA device).
Expected<TensorSettings> resolveTensorSettings(const std::string& device, const std::string& dtype,
                                               const std::string& kernels);

// Bytes free on the settings' CUDA device now, asked of the CUDA runtime that LibTorch loaded;
// nullopt on the CPU, or where no runtime answers (LibTorch has no device-generic query, and a
// CPU build has no c10/cuda headers to ask through).
std::optional<std::int64_t> freeDeviceBytes(const TensorSettings& settings);

torch::Tensor toIndexTensor(const std::vector<std::int64_t>& values,
                            const TensorSettings& settings);
torch::Tensor toRealTensor(const std::vector<double>& values, const TensorSettings& settings);

// Items 0..n-1 grouped by a key in [0, keys): the items of key k are
// item[offset[k] .. offset[k + 1]), in increasing item order (so reductions over a group are
// deterministic).
struct Grouping {
  std::vector<std::int64_t> offset;
  std::vector<std::int64_t> item;
};
Grouping groupByKey(const std::vector<std::int64_t>& keyOfItem, std::int64_t keys);

// Grain size for at::parallel_for over ops or edges whose work is about one window each.
inline constexpr std::int64_t kParallelGrain = 256;

}  // namespace gaus::differentiable
