// The whole graph's peak-memory MILP (include/gaus/live_memory/exact_solve.hpp): every op moves in
// its ASAP/ALAP window at the horizon, P starts at the caller's floor (a bound known beforehand,
// which lifts the LP relaxation's), and the solve starts from the caller's schedule. One function
// for method ilp and for GauS, so that both pass the solver, the cancel flag and the deadline
// down the same way and record the solver that ran.

#include <algorithm>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/problem_facts.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/live_memory/exact_solve.hpp>
#include <gaus/live_memory/model.hpp>

namespace gaus::live_memory {

namespace {

// The model's input over every op's window [ASAP, ALAP] at D, from `placement`, with the
// machine's capacities when it limits a resource; nullopt when no schedule fits D.
std::optional<PeakMemoryModelInput> wholeGraphInput(const Problem& problem,
                                                    const ProblemFacts& facts,
                                                    std::span<const Cycle> placement,
                                                    double floor) {
  const Graph& graph = *problem.graph;
  if (!facts.order()) return std::nullopt;
  const std::vector<Cycle>& asap = facts.asap();
  const auto& alap = facts.alap();
  if (!alap) return std::nullopt;
  PeakMemoryModelInput input;
  input.graph = &graph;
  input.horizon = *problem.horizon;
  input.start = placement;
  for (OpId op = 0; op < graph.numOps(); ++op) input.moving.push_back({op, asap[op], (*alap)[op]});
  input.peakFloor = floor;
  if (facts.usesLimitedResource()) input.machine = problem.machine.get();
  return input;
}

bool verifies(const Problem& problem, const Schedule& schedule) {
  VerifyOptions options;
  options.maxMessages = 0;
  return verify(problem, schedule, options).ok();
}

}  // namespace

std::int64_t wholeGraphNonzeros(const Problem& problem) {
  const auto facts = problem.facts();
  if (!facts->order()) return 0;
  const auto input = wholeGraphInput(problem, *facts, facts->asap(), 0.0);
  return input ? PeakMemoryModel::estimateSize(*input).nonzeros : 0;
}

WholeGraphSolve solveWholeGraph(const Problem& problem, const Schedule* start, double floor,
                                const WholeGraphOptions& options) {
  const milp::MilpCall& call = options.call;
  WholeGraphSolve solve;
  const Cycle horizon = *problem.horizon;
  solve.attempt.phase = "milp";
  solve.attempt.horizon = horizon;
  const auto facts = problem.facts();
  const auto input = wholeGraphInput(
      problem, *facts, start ? std::span<const Cycle>(start->start) : facts->asap(), floor);
  if (!input) {
    solve.status = ModelStatus::kInfeasible;
    solve.note = fmt::format("no schedule completes within D = {}", horizon);
    return solve;
  }
  const milp::ModelSize size = PeakMemoryModel::estimateSize(*input);
  solve.refused =
      call.refusal(fmt::format("the peak-memory MILP (D = {})", horizon), size, options.remedy);
  if (solve.refused) return solve;
  PeakMemoryModel model(*input);
  solve.variables = model.model().numVariables();
  solve.rows = model.model().numRows();
  if (start && call.useStart) model.model().setStart(model.encode(start->start));
  milp::MilpSolution solution;
  solution.status = ModelStatus::kTimeout;
  if (!call.deadline.expired()) solution = call.solve(model.model());
  solve.call = solution.call;
  solve.status = solution.status;
  solve.note = solution.note;
  solve.nodes = solution.nodes;
  solve.attempt.seconds = solution.seconds;
  solve.attempt.detail = fmt::format("D = {}, {} variables, {} rows, {} nonzeros at most, {} {}",
                                     horizon, solve.variables, solve.rows, size.nonzeros,
                                     milp::toString(call.solver), solution.statusWithNote());
  if (solution.call == CallStatus::kError) return solve;
  solve.bound = model.boundOf(solution);
  if (solution.hasSolution() && !solution.values.empty()) {
    Schedule schedule;
    schedule.start = model.decode(solution);
    if (verifies(problem, schedule)) solve.schedule = std::move(schedule);
  }
  solve.attempt.bound = solve.bound;
  solve.attempt.status = solution.status;
  return solve;
}

}  // namespace gaus::live_memory
