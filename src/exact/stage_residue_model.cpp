// The stage/residue MILP (stage_residue_model.hpp).

#include "stage_residue_model.hpp"

#include <limits>

#include <gaus/core/schedule.hpp>

namespace gaus::exact::detail {

namespace {

Cycle floorDivide(Cycle a, Cycle b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

}  // namespace

StageResidueModel::StageResidueModel(const Graph& graph, const Machine& machine, std::int32_t ii,
                                     const std::vector<Cycle>& earliest,
                                     const std::optional<std::vector<Cycle>>& latest,
                                     Cycle latencyLower, std::optional<Cycle> latencyUpper,
                                     const SymmetryOrderings* symmetries,
                                     const std::vector<ResidueLink>& links)
    : graph_(graph), ii_(ii) {
  const OpId count = graph.numOps();
  for (OpId op = 0; op < count; ++op) {
    firstResidue_.push_back(model_.numVariables());
    const Cycle low = earliest[op];
    const Cycle high = latest ? (*latest)[op] : std::numeric_limits<Cycle>::max();
    for (std::int32_t r = 0; r < ii; ++r) {
      // Residue r is reachable when some t = r (mod ii) lies in [low, high].
      const Cycle first = low + (((r - low) % ii) + ii) % ii;
      model_.addVariable(0, first <= high ? 1 : 0, true, 0.0);
    }
    const double stageUpper = latest ? static_cast<double>(floorDivide((*latest)[op], ii)) : 1e30;
    stage_.push_back(
        model_.addVariable(static_cast<double>(floorDivide(low, ii)), stageUpper, true, 0.0));
  }
  latency_ =
      model_.addVariable(static_cast<double>(latencyLower),
                         latencyUpper ? static_cast<double>(*latencyUpper) : 1e30, true, 1.0, "L");

  for (OpId op = 0; op < count; ++op) {
    milp::LinearExpression once;
    for (std::int32_t r = 0; r < ii; ++r) once.add(residue(op, r), 1.0);
    model_.addEqual(once, 1.0);
    // Window rows (the stage bounds alone allow the ends of the first and last stages).
    milp::LinearExpression start = startOf(op, 1.0);
    model_.addRow(start, static_cast<double>(earliest[op]),
                  latest ? static_cast<double>((*latest)[op]) : 1e30);
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    const OpId u = graph.edgeSource(e);
    const OpId v = graph.edgeTarget(e);
    if (u == v) continue;  // delay <= distance * ii holds once ii >= RecMII
    milp::LinearExpression row = startOf(v, 1.0);
    const milp::LinearExpression minus = startOf(u, -1.0);
    row.variables.insert(row.variables.end(), minus.variables.begin(), minus.variables.end());
    row.coefficients.insert(row.coefficients.end(), minus.coefficients.begin(),
                            minus.coefficients.end());
    model_.addGreaterEqual(row, static_cast<double>(graph.edgeDelay(e)) -
                                    static_cast<double>(graph.edgeDistance(e)) * ii);
  }
  // Capacity per unit and residue: op v holds block (f, begin, length, units) at residues
  // (r_v + begin + j) mod ii, i.e. residue rho of the unit is held when r_v = rho - begin - j.
  // Resources whose units suffice for every op at once need no rows.
  const std::vector<bool> contended = milp::contendedResources(graph, machine);
  for (ResourceId f = 0; f < machine.numResources(); ++f) {
    if (!contended[f]) continue;
    std::vector<milp::LinearExpression> rows(static_cast<std::size_t>(ii));
    for (OpId op = 0; op < count; ++op) {
      for (const auto& block : graph.reservation(op)) {
        if (block.resource != f) continue;
        for (std::int32_t slot = 0; slot < ii; ++slot) {
          for (std::int32_t j = 0; j < block.length; ++j) {
            const std::int32_t r =
                static_cast<std::int32_t>((((slot - block.begin - j) % ii) + ii) % ii);
            rows[slot].add(residue(op, r), block.units);
          }
        }
      }
    }
    const double capacity = *machine.resources[f].capacity;
    for (auto& row : rows) {
      if (!row.variables.empty()) model_.addLessEqual(row, capacity);
    }
  }
  for (OpId op = 0; op < count; ++op) {
    milp::LinearExpression row = startOf(op, -1.0);
    row.add(latency_, 1.0);
    model_.addGreaterEqual(row, static_cast<double>(graph.duration(op)));
  }
  // t(to) - t(from) in [low, high] implies r(to) = r(from) + k (mod II) for some k there:
  // rho[to][s] <= sum over k of rho[from][s - k]. Not in the paper: the LP relaxation spreads
  // fractional residues over a recurrence that leaves no choice, and only these rows let the solver
  // see the clash (docs/benchmarks.md "Exact engine", MachSuite).
  for (const ResidueLink& link : links) {
    for (std::int32_t slot = 0; slot < ii; ++slot) {
      milp::LinearExpression row;
      row.add(residue(link.to, slot), 1.0);
      for (Cycle k = link.low; k <= link.high; ++k) {
        row.add(residue(link.from, static_cast<std::int32_t>(((slot - k) % ii + ii) % ii)), -1.0);
      }
      model_.addLessEqual(row, 0.0);
    }
  }
  if (symmetries != nullptr) {
    for (const auto& [first, second] : symmetries->before) {
      milp::LinearExpression row = startOf(first, 1.0);
      const milp::LinearExpression minus = startOf(second, -1.0);
      row.variables.insert(row.variables.end(), minus.variables.begin(), minus.variables.end());
      row.coefficients.insert(row.coefficients.end(), minus.coefficients.begin(),
                              minus.coefficients.end());
      model_.addLessEqual(row, 0.0);
    }
  }
}

milp::ModelSize StageResidueModel::estimateSize(const Graph& graph, const Machine& machine,
                                                std::int32_t ii,
                                                const SymmetryOrderings* symmetries,
                                                const std::vector<ResidueLink>& links) {
  const std::int64_t count = graph.numOps();
  milp::ModelSize size;
  size.variables = count * (ii + 1) + 1;
  size.nonzeros = 3 * count * ii;  // residue once, window, L >= M(v) + duration(v)
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    if (graph.edgeSource(e) != graph.edgeTarget(e)) size.nonzeros += 2 * ii;
  }
  const std::vector<bool> contended = milp::contendedResources(graph, machine);
  for (OpId op = 0; op < graph.numOps(); ++op) {
    for (const auto& block : graph.reservation(op)) {
      if (contended[block.resource]) size.nonzeros += static_cast<std::int64_t>(ii) * block.length;
    }
  }
  for (const ResidueLink& link : links) {
    size.nonzeros += static_cast<std::int64_t>(ii) * (link.high - link.low + 2);
  }
  if (symmetries != nullptr) {
    size.nonzeros += 2 * static_cast<std::int64_t>(ii) * std::ssize(symmetries->before);
  }
  return size;
}

std::vector<double> StageResidueModel::encode(const std::vector<Cycle>& start) const {
  std::vector<double> values(static_cast<std::size_t>(model_.numVariables()), 0.0);
  for (OpId op = 0; op < graph_.numOps(); ++op) {
    values[residue(op, static_cast<std::int32_t>(start[op] % ii_))] = 1.0;
    values[stage_[op]] = static_cast<double>(start[op] / ii_);
  }
  values[latency_] = static_cast<double>(scheduleLatency(graph_, start));
  return values;
}

std::vector<Cycle> StageResidueModel::decode(const milp::MilpSolution& solution) const {
  std::vector<Cycle> start(static_cast<std::size_t>(graph_.numOps()), 0);
  for (OpId op = 0; op < graph_.numOps(); ++op) {
    std::int32_t best = 0;
    for (std::int32_t r = 1; r < ii_; ++r) {
      if (solution.values[residue(op, r)] > solution.values[residue(op, best)]) best = r;
    }
    start[op] = static_cast<Cycle>(ii_) * solution.integerValue(stage_[op]) + best;
  }
  return start;
}

}  // namespace gaus::exact::detail
