// The rows every time-indexed MILP of the project shares (Pritsker, Watters and Wolfe,
// Management Science 16(1), 1969): one binary x[op][t] per op and start cycle of its window, each
// op starting once, precedence between two ops' starts, and resource capacity per cycle (or per
// residue modulo II). The exact engine's latency and modulo models (src/exact/time_indexed.cpp)
// and the live-memory model (live_memory/model.hpp) build their starts here, so that there is
// one time-indexed builder.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/milp/milp_model.hpp>

namespace gaus::milp {

// The start variables of the ops that move: x[op][t] for t in [earliest[op], latest[op]],
// consecutive from first[op]. An op that does not move (first[op] < 0) keeps a fixed start.
class StartGrid {
 public:
  StartGrid() = default;
  // Adds x[op][t] for every op with moves[op], and its row sum_t x[op][t] = 1. `earliest` and
  // `latest` hold one entry per op (only the moving ops' are read; latest >= earliest there).
  StartGrid(MilpModel& model, std::vector<Cycle> earliest, std::vector<Cycle> latest,
            const std::vector<char>& moves);

  bool moves(OpId op) const { return first_[static_cast<std::size_t>(op)] >= 0; }
  Cycle earliest(OpId op) const { return earliest_[static_cast<std::size_t>(op)]; }
  Cycle latest(OpId op) const { return latest_[static_cast<std::size_t>(op)]; }
  Cycle width(OpId op) const { return latest(op) - earliest(op) + 1; }
  VariableId variable(OpId op, Cycle t) const {
    return first_[static_cast<std::size_t>(op)] + static_cast<VariableId>(t - earliest(op));
  }
  // Adds sign * started(op, t) = sign * sum of x[op][tau] over tau <= t to `row`.
  void addStarted(LinearExpression& row, OpId op, Cycle t, double sign) const;
  // Adds sign * start(op) = sign * sum of t x[op][t] to `row`.
  void addStart(LinearExpression& row, OpId op, double sign) const;
  // Sets x of every moving op to its start in `values` (a MIP start).
  void encode(std::span<const Cycle> start, std::vector<double>& values) const;
  // The moving ops' starts from a solution (the largest x of each op); fixed ops keep `start`.
  std::vector<Cycle> decode(const MilpSolution& solution, std::vector<Cycle> start) const;

 private:
  std::vector<VariableId> first_;
  std::vector<Cycle> earliest_, latest_;
};

// start(v) >= start(u) + w for two moving ops, nothing when the windows already imply it. The
// strong (disaggregated) form of Christofides, Alvarez-Valdes and Tamarit (EJOR 29(3), 1987)
// while the two windows are small (its nonzeros grow with their product), else the aggregated
// row sum t x[v][t] - sum t x[u][t] >= w, which has the same integer solutions.
void addPrecedenceRows(MilpModel& model, const StartGrid& grid, OpId u, OpId v, Cycle w);
// The nonzeros addPrecedenceRows adds at most for windows of these widths.
std::int64_t precedenceNonzeros(Cycle widthU, Cycle widthV);

// Per resource: limited, and the ops' total demand exceeds its capacity, so that capacity rows
// are needed (a resource with enough units for every op at once never binds).
std::vector<bool> contendedResources(const Graph& graph, const Machine& machine);

// The capacity of every limited resource per cycle (per residue modulo `ii` when set): the
// moving ops' reservations as x terms, the fixed ops' (at `fixedStart`) as constants. A row that
// cannot bind (every op at its largest use of the slot still fits) is left out.
void addCapacityRows(MilpModel& model, const StartGrid& grid, const Graph& graph,
                     const Machine& machine, std::optional<std::int32_t> ii,
                     std::span<const Cycle> fixedStart = {});

}  // namespace gaus::milp
