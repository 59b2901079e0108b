#include "chunked_evaluation.hpp"

#include <algorithm>

namespace gaus::differentiable {

namespace {

std::vector<torch::Tensor> gatherRows(const std::vector<torch::Tensor>& inputs,
                                      const std::vector<torch::Tensor>& rows) {
  std::vector<torch::Tensor> gathered;
  gathered.reserve(inputs.size());
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    gathered.push_back(inputs[k].index_select(1, rows[k]));
  }
  return gathered;
}

// The term reaches the function by address: autograd's saved data holds integers, and the term
// outlives every graph built from it.
class ChunkedFunction : public torch::autograd::Function<ChunkedFunction> {
 public:
  static torch::Tensor forward(torch::autograd::AutogradContext* context, torch::TensorList inputs,
                               std::int64_t termAddress, std::int64_t chunkRows) {
    const auto& term = *reinterpret_cast<const ChunkedTerm*>(termAddress);
    context->save_for_backward(inputs.vec());
    context->saved_data["term"] = termAddress;
    context->saved_data["chunk"] = chunkRows;
    torch::NoGradGuard noGrad;
    const std::vector<torch::Tensor> whole = inputs.vec();
    std::vector<torch::Tensor> pieces;
    for (std::int64_t begin = 0; begin < term.rows(); begin += chunkRows) {
      const std::int64_t end = std::min(term.rows(), begin + chunkRows);
      pieces.push_back(term.evaluate(gatherRows(whole, term.rowsRead(begin, end)), begin, end));
    }
    return torch::cat(pieces, 1);
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* context,
                                                 torch::autograd::variable_list gradients) {
    const auto& term = *reinterpret_cast<const ChunkedTerm*>(context->saved_data["term"].toInt());
    const std::int64_t chunkRows = context->saved_data["chunk"].toInt();
    const std::vector<torch::Tensor> inputs = context->get_saved_variables();
    const torch::Tensor gradOut = gradients[0];
    std::vector<torch::Tensor> gradInputs(inputs.size() + 2);
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      if (context->needs_input_grad(k)) gradInputs[k] = torch::zeros_like(inputs[k]);
    }
    for (std::int64_t begin = 0; begin < term.rows(); begin += chunkRows) {
      const std::int64_t end = std::min(term.rows(), begin + chunkRows);
      const std::vector<torch::Tensor> rows = term.rowsRead(begin, end);
      std::vector<torch::Tensor> gathered;
      std::vector<torch::Tensor> leaves;
      std::vector<std::size_t> leafInput;
      {
        torch::NoGradGuard noGrad;
        gathered = gatherRows(inputs, rows);
      }
      for (std::size_t k = 0; k < gathered.size(); ++k) {
        if (!gradInputs[k].defined()) continue;
        gathered[k].requires_grad_(true);
        leaves.push_back(gathered[k]);
        leafInput.push_back(k);
      }
      if (leaves.empty()) break;
      torch::AutoGradMode enable(true);
      const torch::Tensor out = term.evaluate(gathered, begin, end);
      const torch::autograd::variable_list grads =
          torch::autograd::grad({out}, leaves, {gradOut.slice(1, begin, end)},
                                /*retain_graph=*/false, /*create_graph=*/false,
                                /*allow_unused=*/true);
      torch::NoGradGuard noGrad;
      for (std::size_t j = 0; j < leaves.size(); ++j) {
        if (grads[j].defined())
          gradInputs[leafInput[j]].index_add_(1, rows[leafInput[j]], grads[j]);
      }
    }
    return gradInputs;
  }
};

}  // namespace

torch::Tensor evaluateInChunks(const ChunkedTerm& term, const std::vector<torch::Tensor>& inputs,
                               std::int64_t chunkRows) {
  // As a TensorList, so that autograd sees each input as a variable (a vector would be one
  // opaque argument).
  return ChunkedFunction::apply(torch::TensorList(inputs), reinterpret_cast<std::int64_t>(&term),
                                std::max<std::int64_t>(1, chunkRows));
}

std::int64_t chunkRowsFor(std::int64_t batch, std::int64_t width) {
  return std::max<std::int64_t>(1, kChunkElements / std::max<std::int64_t>(1, batch * width));
}

}  // namespace gaus::differentiable
