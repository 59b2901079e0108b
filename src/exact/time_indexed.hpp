// Internal to the exact engine: the time-indexed MILP shared by the acyclic latency model and
// the modulo model at small II: one binary x[v][t] per op and start cycle of its window.
#pragma once

#include <optional>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>

#include <gaus/milp/milp_model.hpp>
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

// Per resource: limited, and the ops' total demand exceeds its capacity, so that capacity rows
// are needed (a resource with enough units for every op at once never binds).
std::vector<bool> contendedResources(const Graph& graph, const Machine& machine);

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
  std::vector<std::int64_t> firstVariable_;  // x[v][t] = firstVariable_[v] + t - earliest[v]
  milp::VariableId latency_ = 0;
  milp::MilpModel model_;
};

}  // namespace gaus::exact::detail
