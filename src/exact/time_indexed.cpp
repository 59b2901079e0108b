// The time-indexed scheduling MILP (Pritsker, Watters and Wolfe, "Multiproject scheduling with
// limited resources: a zero-one programming approach", Management Science 16(1), 1969; the
// strong precedence rows are those of Christofides, Alvarez-Valdes and Tamarit, EJOR 29(3),
// 1987). TWILL.md section 2 asks for it "where I is small" for the modulo model, and as the
// acyclic latency model.
//
// Departures: precedence rows use the strong (disaggregated) form only while the two windows
// are small (its nonzeros grow with their product); wider windows get the aggregated row
// sum t x[v][t] - sum t x[u][t] >= w, which has the same integer solutions.

#include "time_indexed.hpp"

#include <algorithm>
#include <map>

#include <gaus/core/schedule.hpp>

namespace gaus::exact::detail {

namespace {

// Above this many nonzeros per edge the strong precedence form is replaced by the aggregated
// row (same integer points, weaker relaxation, far smaller model).
constexpr std::int64_t kStrongPrecedenceLimit = 4000;

}  // namespace

TimeIndexedModel::TimeIndexedModel(const Graph& graph, const Machine& machine,
                                   std::optional<std::int32_t> ii, TimeWindows windows,
                                   Cycle latencyLower, Cycle latencyUpper,
                                   const SymmetryOrderings* symmetries)
    : graph_(graph), windows_(std::move(windows)) {
  const OpId count = graph.numOps();
  for (OpId op = 0; op < count; ++op) {
    firstVariable_.push_back(model_.numVariables());
    for (Cycle t = windows_.earliest[op]; t <= windows_.latest[op]; ++t) {
      model_.addVariable(0, 1, true, 0.0);
    }
  }
  latency_ = model_.addVariable(static_cast<double>(latencyLower),
                                static_cast<double>(latencyUpper), true, 1.0, "L");
  auto variable = [&](OpId op, Cycle t) {
    return static_cast<milp::VariableId>(firstVariable_[op] + (t - windows_.earliest[op]));
  };
  auto startOf = [&](OpId op, double sign, milp::LinearExpression& row) {
    for (Cycle t = windows_.earliest[op]; t <= windows_.latest[op]; ++t) {
      if (t != 0) row.add(variable(op, t), sign * static_cast<double>(t));
    }
  };

  // Each op starts once.
  for (OpId op = 0; op < count; ++op) {
    milp::LinearExpression row;
    for (Cycle t = windows_.earliest[op]; t <= windows_.latest[op]; ++t) {
      row.add(variable(op, t), 1.0);
    }
    model_.addEqual(row, 1.0);
  }

  // Precedence t(v) >= t(u) + w, w = delay - distance * ii.
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    const OpId u = graph.edgeSource(e);
    const OpId v = graph.edgeTarget(e);
    const std::int32_t distance = graph.edgeDistance(e);
    if (distance > 0 && !ii) continue;
    if (u == v) continue;  // delay <= distance * ii holds once ii >= RecMII
    const Cycle w = graph.edgeDelay(e) - distance * static_cast<Cycle>(ii.value_or(0));
    // Already implied by the windows?
    if (windows_.earliest[v] >= windows_.latest[u] + w) continue;
    const Cycle widthU = windows_.latest[u] - windows_.earliest[u] + 1;
    const Cycle widthV = windows_.latest[v] - windows_.earliest[v] + 1;
    if (widthU * (widthU + widthV) <= kStrongPrecedenceLimit) {
      // For every tau: u starting at or after tau forbids v before tau + w.
      for (Cycle tau = windows_.earliest[u] + 1; tau <= windows_.latest[u]; ++tau) {
        milp::LinearExpression row;
        for (Cycle s = tau; s <= windows_.latest[u]; ++s) row.add(variable(u, s), 1.0);
        bool any = false;
        for (Cycle s = windows_.earliest[v]; s < tau + w && s <= windows_.latest[v]; ++s) {
          row.add(variable(v, s), 1.0);
          any = true;
        }
        if (any) model_.addLessEqual(row, 1.0);
      }
    } else {
      milp::LinearExpression row;
      startOf(v, 1.0, row);
      startOf(u, -1.0, row);
      model_.addGreaterEqual(row, static_cast<double>(w));
    }
  }

  // Capacity per resource and cycle (or residue).
  for (ResourceId r = 0; r < machine.numResources(); ++r) {
    if (!machine.resources[r].limited()) continue;
    std::map<Cycle, milp::LinearExpression> slots;
    for (OpId op = 0; op < count; ++op) {
      for (const auto& block : graph.reservation(op)) {
        if (block.resource != r) continue;
        for (Cycle t = windows_.earliest[op]; t <= windows_.latest[op]; ++t) {
          for (std::int32_t j = 0; j < block.length; ++j) {
            Cycle slot = t + block.begin + j;
            if (ii) slot %= *ii;
            slots[slot].add(variable(op, t), block.units);
          }
        }
      }
    }
    const double capacity = *machine.resources[r].capacity;
    for (auto& [slot, row] : slots) {
      // Per op, at most one start is chosen: the row can exceed the capacity only if the
      // largest coefficient of each op summed over ops does.
      std::map<milp::VariableId, double> merged;
      for (std::size_t k = 0; k < row.variables.size(); ++k) {
        merged[row.variables[k]] += row.coefficients[k];
      }
      std::map<OpId, double> perOp;
      for (const auto& [var, coefficient] : merged) {
        const auto it = std::upper_bound(firstVariable_.begin(), firstVariable_.end(), var);
        const OpId op = static_cast<OpId>(it - firstVariable_.begin()) - 1;
        perOp[op] = std::max(perOp[op], coefficient);
      }
      double worst = 0.0;
      for (const auto& [op, coefficient] : perOp) worst += coefficient;
      if (worst <= capacity) continue;
      model_.addLessEqual(row, capacity);
    }
  }

  // L >= t(v) + duration(v).
  for (OpId op = 0; op < count; ++op) {
    if (windows_.latest[op] + graph.duration(op) <= latencyLower) continue;
    milp::LinearExpression row;
    row.add(latency_, 1.0);
    for (Cycle t = windows_.earliest[op]; t <= windows_.latest[op]; ++t) {
      row.add(variable(op, t), -static_cast<double>(t + graph.duration(op)));
    }
    model_.addGreaterEqual(row, 0.0);
  }

  if (symmetries != nullptr) {
    for (const auto& [first, second] : symmetries->before) {
      milp::LinearExpression row;
      startOf(first, 1.0, row);
      startOf(second, -1.0, row);
      model_.addLessEqual(row, 0.0);
    }
  }
}

std::vector<bool> contendedResources(const Graph& graph, const Machine& machine) {
  std::vector<std::int64_t> demand(machine.resources.size(), 0);
  for (OpId op = 0; op < graph.numOps(); ++op) {
    for (const auto& block : graph.reservation(op)) {
      demand[block.resource] += static_cast<std::int64_t>(block.units) * block.length;
    }
  }
  std::vector<bool> contended(machine.resources.size(), false);
  for (ResourceId r = 0; r < machine.numResources(); ++r) {
    contended[r] = machine.resources[r].limited() && demand[r] > *machine.resources[r].capacity;
  }
  return contended;
}

milp::ModelSize TimeIndexedModel::estimateSize(const Graph& graph, const Machine& machine,
                                         std::optional<std::int32_t> ii, const TimeWindows& windows,
                                         const SymmetryOrderings* symmetries) {
  // Upper bounds on the terms of each family of rows, in the constructor's order.
  const auto width = [&](OpId op) { return windows.latest[op] - windows.earliest[op] + 1; };
  const std::vector<bool> contended = contendedResources(graph, machine);
  milp::ModelSize size;
  size.variables = 1;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    size.variables += width(op);
    size.nonzeros += 2 * width(op) + 1;  // starts once; L >= t + duration
    for (const auto& block : graph.reservation(op)) {
      if (contended[block.resource]) size.nonzeros += width(op) * block.length;
    }
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    const OpId u = graph.edgeSource(e);
    const OpId v = graph.edgeTarget(e);
    if (u == v || (graph.edgeDistance(e) > 0 && !ii)) continue;
    const Cycle strong = width(u) * (width(u) + width(v));
    size.nonzeros += strong <= kStrongPrecedenceLimit ? strong : width(u) + width(v);
  }
  if (symmetries != nullptr) {
    for (const auto& [first, second] : symmetries->before) {
      size.nonzeros += width(first) + width(second);
    }
  }
  return size;
}

std::vector<double> TimeIndexedModel::encode(const std::vector<Cycle>& start) const {
  std::vector<double> values(static_cast<std::size_t>(model_.numVariables()), 0.0);
  for (OpId op = 0; op < graph_.numOps(); ++op) {
    values[static_cast<std::size_t>(firstVariable_[op] + start[op] - windows_.earliest[op])] = 1.0;
  }
  values[latency_] = static_cast<double>(scheduleLatency(graph_, start));
  return values;
}

std::vector<Cycle> TimeIndexedModel::decode(const milp::MilpSolution& solution) const {
  std::vector<Cycle> start(static_cast<std::size_t>(graph_.numOps()), 0);
  for (OpId op = 0; op < graph_.numOps(); ++op) {
    double best = -1.0;
    for (Cycle t = windows_.earliest[op]; t <= windows_.latest[op]; ++t) {
      const double value =
          solution.values[static_cast<std::size_t>(firstVariable_[op] + t - windows_.earliest[op])];
      if (value > best) {
        best = value;
        start[op] = t;
      }
    }
  }
  return start;
}

}  // namespace gaus::exact::detail
