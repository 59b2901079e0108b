// The time-indexed scheduling MILP (Pritsker, Watters and Wolfe, "Multiproject scheduling with
// limited resources: a zero-one programming approach", Management Science 16(1), 1969; the
// strong precedence rows are those of Christofides, Alvarez-Valdes and Tamarit, EJOR 29(3),
// 1987). TWILL.md section 2 asks for it "where I is small" for the modulo model, and as the
// acyclic latency model.
//
// The start variables, precedence and capacity rows are the ones every time-indexed model shares
// (include/gaus/milp/time_indexed_rows.hpp); this file adds the latency L and symmetry rows.

#include "time_indexed.hpp"

#include <algorithm>

#include <gaus/core/schedule.hpp>

namespace gaus::exact::detail {

TimeIndexedModel::TimeIndexedModel(const Graph& graph, const Machine& machine,
                                   std::optional<std::int32_t> ii, TimeWindows windows,
                                   Cycle latencyLower, Cycle latencyUpper,
                                   const SymmetryOrderings* symmetries)
    : graph_(graph),
      windows_(std::move(windows)),
      grid_(model_, windows_.earliest, windows_.latest,
            std::vector<char>(static_cast<std::size_t>(graph.numOps()), 1)) {
  const OpId count = graph.numOps();
  latency_ = model_.addVariable(static_cast<double>(latencyLower),
                                static_cast<double>(latencyUpper), true, 1.0, "L");

  // Precedence t(v) >= t(u) + w, w = delay - distance * ii.
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    const OpId u = graph.edgeSource(e);
    const OpId v = graph.edgeTarget(e);
    const std::int32_t distance = graph.edgeDistance(e);
    if (distance > 0 && !ii) continue;
    if (u == v) continue;  // delay <= distance * ii holds once ii >= RecMII
    const Cycle w = graph.edgeDelay(e) - distance * static_cast<Cycle>(ii.value_or(0));
    milp::addPrecedenceRows(model_, grid_, u, v, w);
  }

  // Capacity per resource and cycle (or residue).
  milp::addCapacityRows(model_, grid_, graph, machine, ii);

  // L >= t(v) + duration(v).
  for (OpId op = 0; op < count; ++op) {
    if (windows_.latest[op] + graph.duration(op) <= latencyLower) continue;
    milp::LinearExpression row;
    row.add(latency_, 1.0);
    for (Cycle t = windows_.earliest[op]; t <= windows_.latest[op]; ++t) {
      row.add(grid_.variable(op, t), -static_cast<double>(t + graph.duration(op)));
    }
    model_.addGreaterEqual(row, 0.0);
  }

  if (symmetries != nullptr) {
    for (const auto& [first, second] : symmetries->before) {
      milp::LinearExpression row;
      grid_.addStart(row, first, 1.0);
      grid_.addStart(row, second, -1.0);
      model_.addLessEqual(row, 0.0);
    }
  }
}

milp::ModelSize TimeIndexedModel::estimateSize(const Graph& graph, const Machine& machine,
                                               std::optional<std::int32_t> ii,
                                               const TimeWindows& windows,
                                               const SymmetryOrderings* symmetries) {
  // Upper bounds on the terms of each family of rows, in the constructor's order.
  const auto width = [&](OpId op) { return windows.latest[op] - windows.earliest[op] + 1; };
  const std::vector<bool> contended = milp::contendedResources(graph, machine);
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
    size.nonzeros += milp::precedenceNonzeros(width(u), width(v));
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
  grid_.encode(start, values);
  values[latency_] = static_cast<double>(scheduleLatency(graph_, start));
  return values;
}

std::vector<Cycle> TimeIndexedModel::decode(const milp::MilpSolution& solution) const {
  return grid_.decode(solution, std::vector<Cycle>(static_cast<std::size_t>(graph_.numOps()), 0));
}

}  // namespace gaus::exact::detail
