// Internal to the exact engine: the time-indexed MILP shared by the acyclic latency model and
// the modulo model at small II: one binary x[v][t] per op and start cycle of its window.
#pragma once

#include <optional>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>

#include <gaus/milp/milp_model.hpp>
#include <gaus/milp/time_indexed_rows.hpp>
#include "symmetry.hpp"

namespace gaus::exact::detail {

struct TimeWindows {
  std::vector<Cycle> earliest;  // per op
  std::vector<Cycle> latest;    // per op, >= earliest
};

struct ModelShape {
  std::int64_t variables = 0;
  std::int64_t rows = 0;
};

class TimeIndexedModel {
 public:
  // `ii` set: resources are counted per residue modulo ii and loop-carried edges are enforced;
  // unset: per absolute cycle, one iteration (distance > 0 edges ignored). L is an integer in
  // [latencyLower, latencyUpper] and the objective.
  TimeIndexedModel(const Graph& graph, const Machine& machine, std::optional<std::int32_t> ii,
                   TimeWindows windows, Cycle latencyLower, Cycle latencyUpper,
                   const SymmetryOrderings* symmetries);

  // The size the constructor would build, counted without building it (for milp::refuseLargeModel).
  static milp::ModelSize estimateSize(const Graph& graph, const Machine& machine,
                                std::optional<std::int32_t> ii, const TimeWindows& windows,
                                const SymmetryOrderings* symmetries);

  milp::MilpModel& model() { return model_; }
  ModelShape shape() const { return {model_.numVariables(), model_.numRows()}; }
  // All variable values of a schedule (for a MIP start); the starts must lie in the windows.
  std::vector<double> encode(const std::vector<Cycle>& start) const;
  std::vector<Cycle> decode(const milp::MilpSolution& solution) const;

 private:
  const Graph& graph_;
  TimeWindows windows_;
  milp::MilpModel model_;
  milp::StartGrid grid_;  // x[v][t]
  milp::VariableId latency_ = 0;
};

}  // namespace gaus::exact::detail
