// The shared rows of the time-indexed MILPs (include/gaus/milp/time_indexed_rows.hpp): start
// variables, precedence in the strong form of Christofides, Alvarez-Valdes and Tamarit (EJOR
// 29(3), 1987) or the aggregated one, and resource capacity per cycle or residue.

#include <algorithm>
#include <map>

#include <gaus/milp/time_indexed_rows.hpp>

namespace gaus::milp {

namespace {

// Above this many nonzeros per edge the strong precedence form is replaced by the aggregated
// row (same integer points, weaker relaxation, far smaller model).
constexpr std::int64_t kStrongPrecedenceLimit = 4000;

}  // namespace

StartGrid::StartGrid(MilpModel& model, std::vector<Cycle> earliest, std::vector<Cycle> latest,
                     const std::vector<char>& moves)
    : first_(moves.size(), -1), earliest_(std::move(earliest)), latest_(std::move(latest)) {
  for (std::size_t op = 0; op < moves.size(); ++op) {
    if (!moves[op]) continue;
    first_[op] = model.numVariables();
    LinearExpression once;
    for (Cycle t = earliest_[op]; t <= latest_[op]; ++t) {
      once.add(model.addVariable(0.0, 1.0, true, 0.0), 1.0);
    }
    model.addEqual(once, 1.0);
  }
}

void StartGrid::addStarted(LinearExpression& row, OpId op, Cycle t, double sign) const {
  for (Cycle tau = earliest(op); tau <= std::min(t, latest(op)); ++tau) {
    row.add(variable(op, tau), sign);
  }
}

void StartGrid::addStart(LinearExpression& row, OpId op, double sign) const {
  for (Cycle t = earliest(op); t <= latest(op); ++t) {
    if (t != 0) row.add(variable(op, t), sign * static_cast<double>(t));
  }
}

void StartGrid::encode(std::span<const Cycle> start, std::vector<double>& values) const {
  for (OpId op = 0; op < static_cast<OpId>(first_.size()); ++op) {
    if (!moves(op)) continue;
    for (Cycle t = earliest(op); t <= latest(op); ++t) {
      values[static_cast<std::size_t>(variable(op, t))] = t == start[op] ? 1.0 : 0.0;
    }
  }
}

std::vector<Cycle> StartGrid::decode(const MilpSolution& solution,
                                     std::vector<Cycle> start) const {
  for (OpId op = 0; op < static_cast<OpId>(first_.size()); ++op) {
    if (!moves(op)) continue;
    double best = -1.0;
    for (Cycle t = earliest(op); t <= latest(op); ++t) {
      const double value = solution.values[static_cast<std::size_t>(variable(op, t))];
      if (value > best) {
        best = value;
        start[op] = t;
      }
    }
  }
  return start;
}

std::int64_t precedenceNonzeros(Cycle widthU, Cycle widthV) {
  const std::int64_t strong = widthU * (widthU + widthV);
  return strong <= kStrongPrecedenceLimit ? strong : widthU + widthV;
}

void addPrecedenceRows(MilpModel& model, const StartGrid& grid, OpId u, OpId v, Cycle w) {
  if (grid.earliest(v) >= grid.latest(u) + w) return;  // the windows imply it
  if (grid.width(u) * (grid.width(u) + grid.width(v)) <= kStrongPrecedenceLimit) {
    // For every tau: u starting at or after tau forbids v before tau + w.
    for (Cycle tau = grid.earliest(u) + 1; tau <= grid.latest(u); ++tau) {
      LinearExpression row;
      for (Cycle s = tau; s <= grid.latest(u); ++s) row.add(grid.variable(u, s), 1.0);
      bool any = false;
      for (Cycle s = grid.earliest(v); s < tau + w && s <= grid.latest(v); ++s) {
        row.add(grid.variable(v, s), 1.0);
        any = true;
      }
      if (any) model.addLessEqual(row, 1.0);
    }
    return;
  }
  LinearExpression row;
  grid.addStart(row, v, 1.0);
  grid.addStart(row, u, -1.0);
  model.addGreaterEqual(row, static_cast<double>(w));
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

void addCapacityRows(MilpModel& model, const StartGrid& grid, const Graph& graph,
                     const Machine& machine, std::optional<std::int32_t> ii,
                     std::span<const Cycle> fixedStart) {
  const auto slotOf = [&ii](Cycle cycle) { return ii ? cycle % *ii : cycle; };
  for (ResourceId r = 0; r < machine.numResources(); ++r) {
    if (!machine.resources[r].limited()) continue;
    struct Slot {
      LinearExpression row;
      double worst = 0.0;  // every moving op at its largest use of the slot
      double fixed = 0.0;  // the fixed ops' use
    };
    std::map<Cycle, Slot> slots;
    for (OpId op = 0; op < graph.numOps(); ++op) {
      // One op's use of each slot per start variable (a reservation may return to a residue).
      std::map<Cycle, std::map<VariableId, double>> use;
      for (const auto& block : graph.reservation(op)) {
        if (block.resource != r) continue;
        if (!grid.moves(op)) {
          for (std::int32_t j = 0; j < block.length; ++j) {
            slots[slotOf(fixedStart[op] + block.begin + j)].fixed += block.units;
          }
          continue;
        }
        for (Cycle t = grid.earliest(op); t <= grid.latest(op); ++t) {
          for (std::int32_t j = 0; j < block.length; ++j) {
            use[slotOf(t + block.begin + j)][grid.variable(op, t)] += block.units;
          }
        }
      }
      for (const auto& [slot, terms] : use) {
        Slot& entry = slots[slot];
        double largest = 0.0;
        for (const auto& [variable, coefficient] : terms) {
          entry.row.add(variable, coefficient);
          largest = std::max(largest, coefficient);
        }
        // At most one start per op is chosen.
        entry.worst += largest;
      }
    }
    const double capacity = *machine.resources[r].capacity;
    for (auto& [slot, entry] : slots) {
      if (entry.worst + entry.fixed <= capacity || entry.row.variables.empty()) continue;
      model.addLessEqual(entry.row, capacity - entry.fixed);
    }
  }
}

}  // namespace gaus::milp
