// The order of the model's rows (issue 49). The fused kernels walk every edge u -> v and read
// v's window row; with rows in op-id order, and op ids that follow no order (generated graphs,
// renumbered inputs), each such read was a cache miss: at 100,000 ops the tables are 26 MB each
// and the median edge joined rows 29,000 apart. An edge whose windows overlap joins ops that
// start close together, so the model numbers its rows by latest start (ALAP, i.e. decreasing
// height over the distance-0 edges), ties by op id: on that graph the median such edge then
// joins rows 569 apart (docs/benchmarks.md, "A step near the memory floor").
//
// Only the layout changes: each term still visits its ops and edges in the graph's order, so
// every sum over them keeps its order and its rounding, and a model on reordered rows computes
// the same values and gradients as one on op-id rows (tests/unit/differentiable).
#pragma once

#include <cstdint>
#include <vector>

#include <gaus/core/graph.hpp>

namespace gaus::differentiable {

class RowOrder {
 public:
  RowOrder() = default;  // row = op id

  // Rows by latest start: decreasing height over the distance-0 edges (core's heightsToEnd on
  // `topoOrder`), ties by op id.
  static RowOrder byLatestStart(const Graph& graph, const std::vector<OpId>& topoOrder);

  bool identity() const { return rowOf_.empty(); }
  std::int64_t row(OpId op) const { return rowOf_.empty() ? op : rowOf_[op]; }
  // The op of every row (empty for the identity).
  const std::vector<std::int64_t>& opOfRow() const { return opOfRow_; }

 private:
  std::vector<std::int64_t> rowOf_, opOfRow_;
};

}  // namespace gaus::differentiable
