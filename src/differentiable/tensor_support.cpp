#include "tensor_support.hpp"

#include <array>
#include <cstddef>
#include <dlfcn.h>

#include <fmt/format.h>
#include <torch/version.h>

namespace gaus::differentiable {

Expected<TensorSettings> resolveTensorSettings(const std::string& device, const std::string& dtype,
                                               const std::string& kernels) {
  TensorSettings settings;
  if (device == "cuda") {
    // One message for both causes (a LibTorch built without CUDA, as Debian's, reports no
    // device either); its version tells which LibTorch the engine was built with.
    if (!torch::cuda::is_available()) {
      return Error{fmt::format(
          "device cuda: no CUDA device is visible to LibTorch {}; run on the CPU with --device "
          "cpu (or auto), or see docs/gaus.md for a GPU build",
          TORCH_VERSION)};
    }
    settings.device = torch::Device(torch::kCUDA);
  } else if (device == "auto") {
    settings.device =
        torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  } else if (device != "cpu") {
    return Error{fmt::format("device '{}' is not one of auto, cpu, cuda", device)};
  }

  if (dtype == "float64") {
    settings.dtype = torch::kFloat64;
  } else if (dtype != "float32") {
    return Error{fmt::format("dtype '{}' is not one of float32, float64", dtype)};
  }

  if (kernels == "auto") {
    settings.fused = settings.device.is_cpu();
  } else if (kernels == "fused") {
    if (!settings.device.is_cpu()) {
      return Error{
          "kernels fused: the fused kernels run on the CPU only; use kernels=torch or "
          "auto on a CUDA device"};
    }
    settings.fused = true;
  } else if (kernels == "torch") {
    settings.fused = false;
  } else {
    return Error{fmt::format("kernels '{}' is not one of auto, fused, torch", kernels)};
  }
  return settings;
}

std::optional<std::int64_t> freeDeviceBytes(const TensorSettings& settings) {
  if (!settings.device.is_cuda()) return std::nullopt;
  // RTLD_NOLOAD: only the runtime LibTorch already loaded (the wheels ship libcudart.so.<major>),
  // so the answer is about the device LibTorch uses and loading it has no side effect.
  using MemoryInfo = int (*)(std::size_t*, std::size_t*);
  constexpr std::array<const char*, 3> kRuntimes = {"libcudart.so.13", "libcudart.so.12",
                                                    "libcudart.so"};
  for (const char* runtime : kRuntimes) {
    void* library = dlopen(runtime, RTLD_LAZY | RTLD_NOLOAD);
    if (library == nullptr) continue;
    const auto memoryInfo = reinterpret_cast<MemoryInfo>(dlsym(library, "cudaMemGetInfo"));
    std::size_t freeBytes = 0;
    std::size_t totalBytes = 0;
    const bool answered = memoryInfo != nullptr && memoryInfo(&freeBytes, &totalBytes) == 0;
    dlclose(library);
    if (answered) return static_cast<std::int64_t>(freeBytes);
  }
  return std::nullopt;
}

torch::Tensor toIndexTensor(const std::vector<std::int64_t>& values,
                            const TensorSettings& settings) {
  const auto count = static_cast<std::int64_t>(values.size());
  torch::Tensor host = torch::empty({count}, torch::kLong);
  if (count > 0) std::copy(values.begin(), values.end(), host.data_ptr<std::int64_t>());
  return host.to(settings.device);
}

torch::Tensor toRealTensor(const std::vector<double>& values, const TensorSettings& settings) {
  const auto count = static_cast<std::int64_t>(values.size());
  torch::Tensor host = torch::empty({count}, torch::kFloat64);
  if (count > 0) std::copy(values.begin(), values.end(), host.data_ptr<double>());
  return host.to(settings.real());
}

Grouping groupByKey(const std::vector<std::int64_t>& keyOfItem, std::int64_t keys) {
  Grouping grouping;
  grouping.offset.assign(static_cast<std::size_t>(keys) + 1, 0);
  for (std::int64_t key : keyOfItem) ++grouping.offset[static_cast<std::size_t>(key) + 1];
  for (std::int64_t k = 0; k < keys; ++k) grouping.offset[k + 1] += grouping.offset[k];
  grouping.item.resize(keyOfItem.size());
  std::vector<std::int64_t> next(grouping.offset.begin(), grouping.offset.end() - 1);
  for (std::size_t i = 0; i < keyOfItem.size(); ++i) {
    grouping.item[next[keyOfItem[i]]++] = static_cast<std::int64_t>(i);
  }
  return grouping;
}

}  // namespace gaus::differentiable
