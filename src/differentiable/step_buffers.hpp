// Memory that one optimization step hands to the next (issue 49). A step of the fused CPU path
// makes the same large tensors every time: the window tables ([B, V, W]), the gradients the terms
// send back to them, the violation vectors. Allocated afresh, each was a block that glibc serves
// with mmap and returns with munmap, so every step faulted in zeroed pages again: about a quarter
// of a step at 10,000 ops (docs/benchmarks.md, "What a step costs"). The optimizer owns one
// StepBuffers for its run and the model's kernels take their outputs from it, so after the first
// step no large tensor is allocated.
//
// The contract: a tensor taken from a slot is valid until the next take from the same slot,
// which is the next step's (the optimizer evaluates, runs the backward pass and steps before it
// evaluates again). Its values are whatever the last user left: every kernel that takes one
// writes all of it. Evaluations that must coexist (the tests that compare two of them) take no
// buffers, and each tensor is then fresh.
#pragma once

#include <cstdint>
#include <map>
#include <utility>

#include <torch/torch.h>

namespace gaus::differentiable {

class StepBuffers {
 public:
  // A tensor of `shape` and `options` over the memory kept for (owner, role), allocated on the
  // first take and when the size or the options change. Each take gives a new tensor object
  // (autograd records a graph on it) over the same memory; the memory stays alive while any
  // tensor taken from it does.
  torch::Tensor take(const void* owner, int role, at::IntArrayRef shape,
                     const torch::TensorOptions& options);

  // Allocations made so far (a test reads it: the second step makes none).
  std::int64_t allocations() const { return allocations_; }

 private:
  std::map<std::pair<const void*, int>, torch::Tensor> slots_;
  std::int64_t allocations_ = 0;
};

// Takes from `buffers` when it is given, else allocates a fresh (uninitialized) tensor: the
// kernels' one way to make an output.
torch::Tensor takeOrAllocate(StepBuffers* buffers, const void* owner, int role,
                             at::IntArrayRef shape, const torch::TensorOptions& options);

}  // namespace gaus::differentiable
