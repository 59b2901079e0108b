#include "step_buffers.hpp"

namespace gaus::differentiable {

torch::Tensor StepBuffers::take(const void* owner, int role, at::IntArrayRef shape,
                                const torch::TensorOptions& options) {
  torch::Tensor& slot = slots_[{owner, role}];
  std::int64_t elements = 1;
  for (const std::int64_t size : shape) elements *= size;
  if (!slot.defined() || slot.numel() != elements || slot.dtype() != options.dtype() ||
      slot.device() != options.device()) {
    slot = torch::empty({elements}, options);
    ++allocations_;
  }
  // A new tensor over the slot's memory: the deleter holds the slot's tensor, so the memory
  // outlives a reallocation of the slot while this tensor is alive.
  torch::Tensor keep = slot;
  return torch::from_blob(
      slot.data_ptr(), shape, [keep](void*) mutable { keep.reset(); }, options);
}

torch::Tensor takeOrAllocate(StepBuffers* buffers, const void* owner, int role,
                             at::IntArrayRef shape, const torch::TensorOptions& options) {
  if (buffers != nullptr) return buffers->take(owner, role, shape, options);
  return torch::empty(shape, options);
}

}  // namespace gaus::differentiable
