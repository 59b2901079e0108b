// Memory for the LibTorch path (the CUDA path): a term evaluated in chunks whose intermediates
// are not kept for the backward pass but computed again there, chunk by chunk. A composed term
// such as the precedence term builds several [B, E, W] tensors (gathered windows, int64 gather
// indices, products) and autograd keeps most of them until the backward pass: about 10 KB per op
// at W = 65 with three edges per op, measured as the CPU peak of `-O kernels=torch`, which
// allocates what the GPU does. In chunks, a step holds the inputs, the outputs and one chunk's
// intermediates; the price is evaluating each chunk twice, which a GPU pays in microseconds.
// This is gradient checkpointing (Chen et al., "Training Deep Nets with Sublinear Memory Cost",
// arXiv 1604.06174) applied along the rows of one term instead of across layers.
//
// A term describes a chunk by the rows it reads: for each input, the rows (dimension 1) a chunk
// of outputs [begin, end) depends on. The chunk's own evaluation then sees only those gathered
// rows, so its gradients are chunk-sized and go back to the full inputs by index_add: no
// full-size gradient is made per chunk.
#pragma once

#include <cstdint>
#include <vector>

#include <torch/torch.h>

namespace gaus::differentiable {

class ChunkedTerm {
 public:
  virtual ~ChunkedTerm() = default;
  // The number of output rows (dimension 1 of the result).
  virtual std::int64_t rows() const = 0;
  // For input k, the indices of its rows (dimension 1) that output rows [begin, end) read.
  virtual std::vector<torch::Tensor> rowsRead(std::int64_t begin, std::int64_t end) const = 0;
  // Output rows [begin, end) ([B, end - begin, ...]) from the gathered rows of every input (in
  // the order of rowsRead). Differentiable in the gathered inputs that require a gradient.
  virtual torch::Tensor evaluate(const std::vector<torch::Tensor>& gathered, std::int64_t begin,
                                 std::int64_t end) const = 0;
};

// term(inputs) in chunks of `chunkRows` output rows, the chunks' outputs concatenated along
// dimension 1. Inputs that require a gradient get one; `term` must outlive the backward pass
// (terms are owned by the model, which outlives every graph built from it).
torch::Tensor evaluateInChunks(const ChunkedTerm& term, const std::vector<torch::Tensor>& inputs,
                               std::int64_t chunkRows);

// Output rows per chunk so that a chunk's [B, rows, width] intermediates hold about
// kChunkElements elements (16 MB in float32): at least 1.
std::int64_t chunkRowsFor(std::int64_t batch, std::int64_t width);
inline constexpr std::int64_t kChunkElements = std::int64_t{1} << 22;

}  // namespace gaus::differentiable
