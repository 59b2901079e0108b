// Internal to the exact engine: the paper's stage/residue MILP at a fixed II (Twill, Soi et al.,
// OSDI'26, arXiv 2512.18134, phase 1; TWILL.md section 2):
//     rho[v][r] binary (r < II), stage[v] >= 0 integer, M(v) = II stage[v] + sum_r r rho[v][r]
//     sum_r rho[v][r] = 1;  M(v) - M(u) >= d - distance II;  per unit and residue, the units
//     reserved there <= capacity;  L >= M(v) + duration(v);  minimize L
// over windows [earliest, latest] of the starts M(v), plus the rows the paper lacks (residue
// links, symmetry orderings; modulo_milp.cpp lists the departures).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/milp/milp_model.hpp>

#include "residue_links.hpp"
#include "symmetry.hpp"
#include "time_indexed.hpp"

namespace gaus::exact::detail {

class StageResidueModel {
 public:
  // `latest` unset: unbounded windows (and stages) above `earliest`. L is an integer in
  // [latencyLower, latencyUpper] (unbounded above when unset) and the objective.
  StageResidueModel(const Graph& graph, const Machine& machine, std::int32_t ii,
                    const std::vector<Cycle>& earliest,
                    const std::optional<std::vector<Cycle>>& latest, Cycle latencyLower,
                    std::optional<Cycle> latencyUpper, const SymmetryOrderings* symmetries,
                    const std::vector<ResidueLink>& links);

  // The size the constructor would build, counted row family by row family without building it
  // (for milp::refuseLargeModel).
  static milp::ModelSize estimateSize(const Graph& graph, const Machine& machine, std::int32_t ii,
                                      const SymmetryOrderings* symmetries,
                                      const std::vector<ResidueLink>& links);

  milp::MilpModel& model() { return model_; }
  ModelShape shape() const { return {model_.numVariables(), model_.numRows()}; }
  // All variable values of a schedule (for a MIP start); the starts must lie in the windows.
  std::vector<double> encode(const std::vector<Cycle>& start) const;
  std::vector<Cycle> decode(const milp::MilpSolution& solution) const;

 private:
  milp::VariableId residue(OpId op, std::int32_t r) const {
    return static_cast<milp::VariableId>(firstResidue_[op] + r);
  }
  milp::LinearExpression startOf(OpId op, double sign) const {
    milp::LinearExpression expression;
    expression.add(stage_[op], sign * ii_);
    for (std::int32_t r = 1; r < ii_; ++r) expression.add(residue(op, r), sign * r);
    return expression;
  }

  const Graph& graph_;
  std::int32_t ii_;
  std::vector<milp::VariableId> firstResidue_;
  std::vector<milp::VariableId> stage_;
  milp::VariableId latency_ = 0;
  milp::MilpModel model_;
};

}  // namespace gaus::exact::detail
