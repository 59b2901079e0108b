// Modulo scheduling at a fixed II minimizing L: phase 1 of Twill (Soi et al., OSDI'26, arXiv
// 2512.18134, section 5 and Algorithm 1), as restated in TWILL.md section 2:
//     rho[v][r] binary (r < II), stage[v] >= 0 integer, M(v) = II stage[v] + sum_r r rho[v][r]
//     sum_r rho[v][r] = 1;  M(v) - M(u) >= d - distance II;  per unit and residue, the units
//     reserved there <= capacity;  L >= M(v) + duration(v);  minimize L
// and the search over II from MII = max(ResMII, RecMII) upward.
//
// Departures from the paper, all for speed (TWILL.md section 2 "Speed"; figures in
// docs/benchmarks.md "Exact engine"):
// - Windows: M(v) lies in [ASAP(v), ALAP(v)] at the current II, where ASAP is the longest path
//   over all edges weighted d - distance II and ALAP is taken from an upper bound on L (a
//   greedy modulo schedule's latency). The window fixes the stage range and, when narrower
//   than II, removes residues. The upper bound on L is the start schedule's latency.
// - The start schedule (the better of a greedy placement and iterative modulo scheduling, Rau,
//   MICRO 1994, from the heuristic module) is CBC's first incumbent.
// - Interchangeable ops are ordered (symmetry.hpp).
// - With an upper bound on L and narrow windows, the time-indexed form (time_indexed.cpp) is
//   used instead: one binary per op and start cycle, which folds each start to its residue.
// - L >= M(v) + duration(v) with the project's duration = max(latency, reservation length)
//   (contributing.md), where TWILL.md writes max(1, cycles(v)); they differ only for ops of
//   duration 0, which here do not lengthen the schedule.

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/registry.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/exact/modulo_milp.hpp>
#include <gaus/heuristic/iterative_modulo_scheduler.hpp>

#include "milp_solver.hpp"
#include "normalized_solve.hpp"
#include "start_schedule.hpp"
#include "symmetry.hpp"
#include "time_indexed.hpp"

namespace gaus::exact {

namespace {

using detail::LinearExpression;
using detail::MilpModel;
using detail::MilpSolution;
using detail::MilpStatus;
using detail::VariableId;

Cycle floorDivide(Cycle a, Cycle b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// Two ops of one recurrence whose start difference t(to) - t(from) the recurrence confines to
// [low, high] at the current II, fewer than II values: their residues are linked.
struct ResidueLink {
  OpId from = 0;
  OpId to = 0;
  Cycle low = 0;
  Cycle high = 0;
};

// Links within each strongly connected component: longest paths dist(a, b) under the weights
// delay - distance II bound every schedule's t(b) - t(a) to [dist(a, b), -dist(b, a)]. Each op
// is linked to the first op of its component at a fixed distance (both directions tight: the
// difference is one value), and every edge inside a component whose window is narrower than II
// links its ends. Components above kMaxLinkedComponent ops are skipped (the all-pairs longest
// paths are cubic in their size).
std::vector<ResidueLink> residueLinks(const Graph& graph, std::int32_t ii) {
  constexpr std::int32_t kMaxLinkedComponent = 400;
  constexpr Cycle kNoPath = std::numeric_limits<Cycle>::min() / 4;
  std::vector<ResidueLink> links;
  const Components components = stronglyConnectedComponents(graph);
  std::vector<std::int32_t> local(static_cast<std::size_t>(graph.numOps()), -1);
  for (std::int32_t c = 0; c < components.count; ++c) {
    const std::int32_t size = components.size(c);
    if (size < 2 || size > kMaxLinkedComponent) continue;
    const OpId* members = components.members.data() + components.offset[c];
    for (std::int32_t i = 0; i < size; ++i) local[members[i]] = i;
    std::vector<Cycle> dist(static_cast<std::size_t>(size) * size, kNoPath);
    const auto at = [&](std::int32_t a, std::int32_t b) -> Cycle& {
      return dist[static_cast<std::size_t>(a) * size + b];
    };
    for (std::int32_t i = 0; i < size; ++i) {
      at(i, i) = 0;
      for (EdgeId e : graph.outEdges(members[i])) {
        if (components.componentOf[graph.edgeTarget(e)] != c) continue;
        const Cycle weight = graph.edgeDelay(e) - graph.edgeDistance(e) * static_cast<Cycle>(ii);
        Cycle& entry = at(i, local[graph.edgeTarget(e)]);
        entry = std::max(entry, weight);
      }
    }
    for (std::int32_t k = 0; k < size; ++k) {
      for (std::int32_t i = 0; i < size; ++i) {
        if (at(i, k) == kNoPath) continue;
        for (std::int32_t j = 0; j < size; ++j) {
          if (at(k, j) != kNoPath) at(i, j) = std::max(at(i, j), at(i, k) + at(k, j));
        }
      }
    }
    // Fixed offsets to the first op whose difference is fixed; otherwise narrow edges.
    std::vector<std::int32_t> anchor(static_cast<std::size_t>(size), -1);
    for (std::int32_t i = 0; i < size; ++i) {
      for (std::int32_t a = 0; a < i && anchor[i] < 0; ++a) {
        if (anchor[a] < 0 && at(a, i) + at(i, a) == 0) anchor[i] = a;
      }
      if (anchor[i] >= 0) {
        const Cycle offset = at(anchor[i], i);
        links.push_back({members[anchor[i]], members[i], offset, offset});
      }
    }
    const auto root = [&](std::int32_t i) { return anchor[i] < 0 ? i : anchor[i]; };
    std::set<std::pair<std::int32_t, std::int32_t>> linked;
    for (std::int32_t i = 0; i < size; ++i) {
      for (EdgeId e : graph.outEdges(members[i])) {
        if (components.componentOf[graph.edgeTarget(e)] != c) continue;
        const std::int32_t j = local[graph.edgeTarget(e)];
        if (i == j || root(i) == root(j)) continue;
        const Cycle low = at(i, j);
        const Cycle high = -at(j, i);
        if (high - low + 1 >= ii || !linked.insert({i, j}).second) continue;
        links.push_back({members[i], members[j], low, high});
      }
    }
  }
  return links;
}

// The paper's stage/residue model over the given windows (latest may be unbounded).
class StageResidueModel {
 public:
  StageResidueModel(const Graph& graph, const Machine& machine, std::int32_t ii,
                    const std::vector<Cycle>& earliest,
                    const std::optional<std::vector<Cycle>>& latest, Cycle latencyLower,
                    std::optional<Cycle> latencyUpper, const detail::SymmetryOrderings* symmetries,
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
    latency_ = model_.addVariable(static_cast<double>(latencyLower),
                                  latencyUpper ? static_cast<double>(*latencyUpper) : 1e30, true,
                                  1.0, "L");

    for (OpId op = 0; op < count; ++op) {
      LinearExpression once;
      for (std::int32_t r = 0; r < ii; ++r) once.add(residue(op, r), 1.0);
      model_.addEqual(once, 1.0);
      // Window rows (the stage bounds alone allow the ends of the first and last stages).
      LinearExpression start = startOf(op, 1.0);
      model_.addRow(start, static_cast<double>(earliest[op]),
                    latest ? static_cast<double>((*latest)[op]) : 1e30);
    }
    for (EdgeId e = 0; e < graph.numEdges(); ++e) {
      const OpId u = graph.edgeSource(e);
      const OpId v = graph.edgeTarget(e);
      if (u == v) continue;  // delay <= distance * ii holds once ii >= RecMII
      LinearExpression row = startOf(v, 1.0);
      const LinearExpression minus = startOf(u, -1.0);
      row.variables.insert(row.variables.end(), minus.variables.begin(), minus.variables.end());
      row.coefficients.insert(row.coefficients.end(), minus.coefficients.begin(),
                              minus.coefficients.end());
      model_.addGreaterEqual(row, static_cast<double>(graph.edgeDelay(e)) -
                                      static_cast<double>(graph.edgeDistance(e)) * ii);
    }
    // Capacity per unit and residue: op v holds block (f, begin, length, units) at residues
    // (r_v + begin + j) mod ii, i.e. residue rho of the unit is held when r_v = rho - begin - j.
    // Resources whose units suffice for every op at once need no rows.
    const std::vector<bool> contended = detail::contendedResources(graph, machine);
    for (ResourceId f = 0; f < machine.numResources(); ++f) {
      if (!contended[f]) continue;
      std::vector<LinearExpression> rows(static_cast<std::size_t>(ii));
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
      LinearExpression row = startOf(op, -1.0);
      row.add(latency_, 1.0);
      model_.addGreaterEqual(row, static_cast<double>(graph.duration(op)));
    }
    // t(to) - t(from) in [low, high] implies r(to) = r(from) + k (mod II) for some k there:
    // rho[to][s] <= sum over k of rho[from][s - k]. Not in the paper: the LP relaxation spreads
    // fractional residues over a recurrence that leaves no choice, and only these rows let CBC
    // see the clash (docs/benchmarks.md "Exact engine", MachSuite).
    for (const ResidueLink& link : links) {
      for (std::int32_t slot = 0; slot < ii; ++slot) {
        LinearExpression row;
        row.add(residue(link.to, slot), 1.0);
        for (Cycle k = link.low; k <= link.high; ++k) {
          row.add(residue(link.from, static_cast<std::int32_t>(((slot - k) % ii + ii) % ii)), -1.0);
        }
        model_.addLessEqual(row, 0.0);
      }
    }
    if (symmetries != nullptr) {
      for (const auto& [first, second] : symmetries->before) {
        LinearExpression row = startOf(first, 1.0);
        const LinearExpression minus = startOf(second, -1.0);
        row.variables.insert(row.variables.end(), minus.variables.begin(), minus.variables.end());
        row.coefficients.insert(row.coefficients.end(), minus.coefficients.begin(),
                                minus.coefficients.end());
        model_.addLessEqual(row, 0.0);
      }
    }
  }

  MilpModel& model() { return model_; }
  detail::ModelShape shape() const { return {model_.numVariables(), model_.numRows()}; }

  std::vector<double> encode(const std::vector<Cycle>& start) const {
    std::vector<double> values(static_cast<std::size_t>(model_.numVariables()), 0.0);
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      values[residue(op, static_cast<std::int32_t>(start[op] % ii_))] = 1.0;
      values[stage_[op]] = static_cast<double>(start[op] / ii_);
    }
    values[latency_] = static_cast<double>(detail::scheduleLatency(graph_, start));
    return values;
  }

  std::vector<Cycle> decode(const MilpSolution& solution) const {
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

 private:
  VariableId residue(OpId op, std::int32_t r) const {
    return static_cast<VariableId>(firstResidue_[op] + r);
  }
  LinearExpression startOf(OpId op, double sign) const {
    LinearExpression expression;
    expression.add(stage_[op], sign * ii_);
    for (std::int32_t r = 1; r < ii_; ++r) expression.add(residue(op, r), sign * r);
    return expression;
  }

  const Graph& graph_;
  std::int32_t ii_;
  std::vector<VariableId> firstResidue_;
  std::vector<VariableId> stage_;
  VariableId latency_ = 0;
  MilpModel model_;
};

// The size StageResidueModel would build, counted row family by row family without building it.
detail::ModelSize stageResidueSize(const Graph& graph, const Machine& machine, std::int32_t ii,
                                   const detail::SymmetryOrderings* symmetries,
                                   const std::vector<ResidueLink>& links) {
  const std::int64_t count = graph.numOps();
  detail::ModelSize size;
  size.variables = count * (ii + 1) + 1;
  size.nonzeros = 3 * count * ii;  // residue once, window, L >= M(v) + duration(v)
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    if (graph.edgeSource(e) != graph.edgeTarget(e)) size.nonzeros += 2 * ii;
  }
  const std::vector<bool> contended = detail::contendedResources(graph, machine);
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

AttemptVerdict verdictOf(MilpStatus status) {
  switch (status) {
    case MilpStatus::kOptimal:
      return AttemptVerdict::kOptimal;
    case MilpStatus::kFeasible:
      return AttemptVerdict::kFeasible;
    case MilpStatus::kInfeasible:
      return AttemptVerdict::kInfeasible;
    case MilpStatus::kTimeout:
      return AttemptVerdict::kTimeout;
    case MilpStatus::kError:
      return AttemptVerdict::kError;
  }
  return AttemptVerdict::kError;
}

// An upper bound on L that loses no schedule: when any modulo schedule exists at `ii`, one
// exists with latency <= this bound. It bounds the windows (and the stage variables) when no
// start schedule is found, without which CBC cannot prove an II infeasible: unbounded integer
// stages leave the LP relaxation feasible at every node.
//
// Proof. Take a schedule t and keep its residues r(v) = t(v) mod ii: unit usage depends on them
// only. The stages k(v) must satisfy k(v) - k(u) >= w(e) = ceil((d - distance ii - r(v) +
// r(u)) / ii) on every edge, a system of difference constraints that t's stages solve, so it has
// no positive cycle and a least solution k* >= 0, where k*(v) is the weight of a simple path P
// ending at v (from an op s with k*(s) = 0). Since ii w(e) <= d - distance ii - r(v) + r(u) +
// ii - 1, telescoping along P gives t*(v) = ii k*(v) + r(v) <= r(s) + sum_P (d - distance ii) +
// |P| (ii - 1) <= ASAP(v) + h(v) (ii - 1), with h(v) the most ops on a simple path ending at v
// (at most the sizes of the strongly connected components along a path of the condensation).
// t* meets every edge and reservation and starts at or after ASAP; interchangeable ops keep
// their order after swapping them, which does not change L.
Cycle existenceLatencyBound(const Graph& graph, std::int32_t ii,
                            const std::vector<Cycle>& earliest) {
  const Components components = stronglyConnectedComponents(graph);
  // Most ops on a simple path ending in each component, over the condensation in Kahn order.
  std::vector<std::int64_t> pathOps(static_cast<std::size_t>(components.count), 0);
  std::vector<std::int32_t> pendingInputs(static_cast<std::size_t>(components.count), 0);
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    const auto from = components.componentOf[graph.edgeSource(e)];
    const auto to = components.componentOf[graph.edgeTarget(e)];
    if (from != to) ++pendingInputs[to];
  }
  std::vector<std::int32_t> ready;
  for (std::int32_t c = 0; c < components.count; ++c) {
    if (pendingInputs[c] == 0) ready.push_back(c);
  }
  while (!ready.empty()) {
    const std::int32_t c = ready.back();
    ready.pop_back();
    pathOps[c] += components.size(c);
    for (std::int64_t i = components.offset[c]; i < components.offset[c + 1]; ++i) {
      for (EdgeId e : graph.outEdges(components.members[i])) {
        const auto to = components.componentOf[graph.edgeTarget(e)];
        if (to == c) continue;
        pathOps[to] = std::max(pathOps[to], pathOps[c]);
        if (--pendingInputs[to] == 0) ready.push_back(to);
      }
    }
  }
  Cycle bound = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    bound = std::max(
        bound, earliest[op] + pathOps[components.componentOf[op]] * (ii - 1) + graph.duration(op));
  }
  return bound;
}

// A reservation that cannot fit at any II this small: a block on a unit of capacity c whose
// units times length exceed c times II (it would overlap itself).
std::optional<std::string> reservationTooLong(const Graph& graph, const Machine& machine,
                                              std::int32_t ii) {
  std::vector<std::int64_t> demand(machine.resources.size(), 0);
  for (OpId op = 0; op < graph.numOps(); ++op) {
    for (const auto& block : graph.reservation(op)) {
      demand[block.resource] += static_cast<std::int64_t>(block.units) * block.length;
    }
  }
  for (ResourceId r = 0; r < machine.numResources(); ++r) {
    if (!machine.resources[r].limited()) continue;
    if (demand[r] > *machine.resources[r].capacity * static_cast<std::int64_t>(ii)) {
      return fmt::format("resource {} needs {} unit-cycles per iteration > capacity {} x II {}",
                         machine.resources[r].name, demand[r], *machine.resources[r].capacity, ii);
    }
  }
  return std::nullopt;
}

// The start schedule at `ii` with the smallest latency among the heuristics asked for: the
// greedy placement of start_schedule.cpp and iterative modulo scheduling (heuristic module).
// A heuristic schedule is checked with the verifier before it is used as an incumbent.
std::optional<std::vector<Cycle>> startSchedule(const Problem& problem, std::int32_t ii,
                                                StartHeuristic heuristic) {
  const Graph& graph = *problem.graph;
  std::optional<std::vector<Cycle>> best;
  auto consider = [&](const std::vector<Cycle>& start) {
    if (!best || detail::scheduleLatency(graph, start) < detail::scheduleLatency(graph, *best)) {
      best = start;
    }
  };
  if (heuristic != StartHeuristic::kIms) {
    if (auto greedy = detail::greedySchedule(graph, *problem.machine, ii)) consider(greedy->start);
  }
  if (heuristic != StartHeuristic::kGreedy) {
    Problem modulo = problem;
    modulo.kind = ProblemKind::kModulo;
    modulo.ii = ii;
    heuristic::ImsOptions ims;
    ims.ii = ii;
    const Result result = heuristic::iterativeModuloSchedule(modulo, ims);
    if (result.schedule && verify(modulo, *result.schedule).ok()) consider(result.schedule->start);
  }
  return best;
}

}  // namespace

std::string_view toString(AttemptVerdict verdict) {
  switch (verdict) {
    case AttemptVerdict::kOptimal:
      return "optimal";
    case AttemptVerdict::kFeasible:
      return "feasible";
    case AttemptVerdict::kInfeasible:
      return "infeasible";
    case AttemptVerdict::kTimeout:
      return "timeout";
    case AttemptVerdict::kError:
      return "error";
  }
  return "error";
}

ModuloAttempt solveModuloAtIi(const Problem& problem, std::int32_t ii,
                              const ModuloMilpOptions& options) {
  const Graph& graph = *problem.graph;
  const Machine& machine = *problem.machine;
  ModuloAttempt attempt;
  attempt.ii = ii;
  const auto begin = std::chrono::steady_clock::now();
  // The limit covers the whole attempt: the start heuristics and building the model take their
  // share before CBC gets the rest.
  const Deadline deadline(options.timeLimitSeconds > 0
                              ? std::optional<double>(options.timeLimitSeconds)
                              : std::nullopt);
  auto finish = [&](ModuloAttempt& done) -> ModuloAttempt {
    done.seconds = secondsSince(begin);
    return std::move(done);
  };
  if (ii < 1) {
    attempt.verdict = AttemptVerdict::kError;
    attempt.detail = fmt::format("II must be positive, got {}", ii);
    return finish(attempt);
  }
  if (auto reason = reservationTooLong(graph, machine, ii)) {
    attempt.verdict = AttemptVerdict::kInfeasible;
    attempt.formulation = "resource bound";
    attempt.detail = *reason;
    return finish(attempt);
  }
  auto earliest = moduloAsapTimes(graph, ii);
  if (!earliest) {
    attempt.verdict = AttemptVerdict::kInfeasible;
    attempt.formulation = "recurrence";
    attempt.detail = earliest.error();
    return finish(attempt);
  }
  if (!options.useWindows) earliest->assign(earliest->size(), 0);
  Cycle latencyLower = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    latencyLower = std::max(latencyLower, (*earliest)[op] + graph.duration(op));
  }

  const detail::SymmetryOrderings symmetries = detail::findSymmetries(graph);
  const detail::SymmetryOrderings* breaking = options.breakSymmetry ? &symmetries : nullptr;

  // A first schedule: bound on L and incumbent.
  std::optional<std::vector<Cycle>> start;
  if (options.useStart) {
    start = startSchedule(problem, ii, options.startHeuristic);
    if (start && breaking) detail::orderBySymmetries(symmetries, *start);
  }
  std::optional<Cycle> latencyUpper = options.latencyBound;
  if (options.useWindows) {
    const Cycle lossless = existenceLatencyBound(graph, ii, *earliest);
    latencyUpper = latencyUpper ? std::min(*latencyUpper, lossless) : lossless;
  }
  if (start) {
    const Cycle startLatency = detail::scheduleLatency(graph, *start);
    latencyUpper = latencyUpper ? std::min(*latencyUpper, startLatency) : startLatency;
  }
  std::optional<std::vector<Cycle>> latest;
  if (latencyUpper && options.useWindows) {
    latest = detail::latestStarts(graph, ii, *latencyUpper, *earliest);
    if (!latest) {
      // Only possible with a caller's bound below every schedule's latency.
      attempt.verdict = AttemptVerdict::kInfeasible;
      attempt.formulation = "windows";
      attempt.detail =
          fmt::format("no modulo schedule at II={} completes within L={}", ii, *latencyUpper);
      return finish(attempt);
    }
  }
  const bool startUsable =
      start && (!latencyUpper || detail::scheduleLatency(graph, *start) <= *latencyUpper);

  ModuloFormulation formulation = options.formulation;
  if (formulation == ModuloFormulation::kAuto) {
    formulation = ModuloFormulation::kStageResidue;
    if (latest) {
      double width = 0.0;
      for (OpId op = 0; op < graph.numOps(); ++op) {
        width += static_cast<double>((*latest)[op] - (*earliest)[op] + 1);
      }
      if (width <= options.timeIndexedWindowFactor * ii * graph.numOps()) {
        formulation = ModuloFormulation::kTimeIndexed;
      }
    }
  }
  if (formulation == ModuloFormulation::kTimeIndexed && !latest) {
    // The time-indexed form needs finite windows: without a bound on L fall back.
    formulation = ModuloFormulation::kStageResidue;
  }

  // Size guard before anything is built; auto falls back to the other form when it fits.
  // The residue links (stage/residue form only) are computed once, when that form is sized.
  std::optional<std::vector<ResidueLink>> links;
  const auto linksOf = [&]() -> const std::vector<ResidueLink>& {
    if (!links) links = options.linkResidues ? residueLinks(graph, ii) : std::vector<ResidueLink>{};
    return *links;
  };
  const auto sizeOf = [&](ModuloFormulation form) {
    return form == ModuloFormulation::kTimeIndexed
               ? detail::TimeIndexedModel::estimateSize(graph, machine, ii, {*earliest, *latest},
                                                        breaking)
               : stageResidueSize(graph, machine, ii, breaking, linksOf());
  };
  detail::ModelSize size = sizeOf(formulation);
  if (size.nonzeros > options.maxNonzeros && options.formulation == ModuloFormulation::kAuto &&
      formulation == ModuloFormulation::kTimeIndexed) {
    const detail::ModelSize other = sizeOf(ModuloFormulation::kStageResidue);
    if (other.nonzeros < size.nonzeros) {
      formulation = ModuloFormulation::kStageResidue;
      size = other;
    }
  }
  attempt.formulation = std::string(toString(formulation));
  attempt.variables = size.variables;
  if (auto refused = detail::refuseLargeModel(
          fmt::format("the modulo MILP at II={} ({})", ii, attempt.formulation), size,
          options.maxNonzeros)) {
    attempt.verdict = AttemptVerdict::kError;
    attempt.detail = *refused;
    return finish(attempt);
  }

  // CBC gets what the heuristics and the building left of the limit; none left is a timeout.
  const auto solveWithinLimit = [&](const MilpModel& model) {
    if (!deadline.expired()) {
      return model.solve(options.timeLimitSeconds > 0 ? deadline.remainingSeconds() : 0.0);
    }
    MilpSolution expired;
    expired.status = MilpStatus::kTimeout;
    return expired;
  };
  MilpSolution solution;
  std::vector<Cycle> decoded;
  if (formulation == ModuloFormulation::kTimeIndexed) {
    detail::TimeIndexedModel model(graph, machine, ii, {*earliest, *latest}, latencyLower,
                                   *latencyUpper, breaking);
    if (startUsable) model.model().setStart(model.encode(*start));
    attempt.variables = model.shape().variables;
    attempt.rows = model.shape().rows;
    solution = solveWithinLimit(model.model());
    if (solution.hasSolution()) decoded = model.decode(solution);
  } else {
    StageResidueModel model(graph, machine, ii, *earliest, latest, latencyLower, latencyUpper,
                            breaking, linksOf());
    if (startUsable) model.model().setStart(model.encode(*start));
    attempt.variables = model.shape().variables;
    attempt.rows = model.shape().rows;
    solution = solveWithinLimit(model.model());
    if (solution.hasSolution()) decoded = model.decode(solution);
  }
  attempt.formulation = std::string(toString(formulation));
  attempt.verdict = verdictOf(solution.status);
  if (solution.bound) {
    attempt.latencyLowerBound =
        std::max(latencyLower, static_cast<Cycle>(std::ceil(*solution.bound - 1e-6)));
  }
  if (solution.hasSolution()) {
    Schedule schedule;
    schedule.start = std::move(decoded);
    schedule.ii = ii;
    attempt.latency = detail::scheduleLatency(graph, schedule.start);
    attempt.schedule = std::move(schedule);
    if (attempt.verdict == AttemptVerdict::kOptimal) attempt.latencyLowerBound = attempt.latency;
  } else if (attempt.verdict == AttemptVerdict::kTimeout && startUsable) {
    // CBC found nothing better in time; the greedy start is still a schedule.
    Schedule schedule;
    schedule.start = *start;
    schedule.ii = ii;
    attempt.latency = detail::scheduleLatency(graph, schedule.start);
    attempt.schedule = std::move(schedule);
    attempt.verdict = AttemptVerdict::kFeasible;
  }
  switch (attempt.verdict) {
    case AttemptVerdict::kInfeasible:
      attempt.detail = fmt::format("CBC proved no modulo schedule exists at II={}", ii);
      break;
    case AttemptVerdict::kTimeout:
      attempt.detail = fmt::format("time limit {}s at II={}: nothing found, nothing proven",
                                   options.timeLimitSeconds, ii);
      break;
    case AttemptVerdict::kFeasible:
      attempt.detail = fmt::format("time limit {}s at II={}: L={} not proven minimal",
                                   options.timeLimitSeconds, ii, *attempt.latency);
      break;
    case AttemptVerdict::kError:
      attempt.detail = fmt::format("CBC abandoned the model at II={}", ii);
      break;
    case AttemptVerdict::kOptimal:
      break;
  }
  if (!solution.note.empty()) attempt.detail += " (" + solution.note + ")";
  return finish(attempt);
}

namespace {

// The record of one MILP at a fixed II, in the one status model.
Attempt attemptRecord(const ModuloAttempt& milp) {
  Attempt attempt;
  attempt.phase = "milp";
  attempt.ii = milp.ii;
  attempt.latency = milp.latency;
  attempt.seconds = milp.seconds;
  if (milp.latencyLowerBound) attempt.bound = static_cast<double>(*milp.latencyLowerBound);
  switch (milp.verdict) {
    case AttemptVerdict::kOptimal:
      attempt.status = ModelStatus::kOptimal;
      break;
    case AttemptVerdict::kFeasible:
      attempt.status = ModelStatus::kFeasible;
      break;
    case AttemptVerdict::kInfeasible:
      attempt.status = ModelStatus::kInfeasible;
      break;
    case AttemptVerdict::kTimeout:
      attempt.status = ModelStatus::kTimeout;
      break;
    case AttemptVerdict::kError:
      attempt.call = CallStatus::kError;
      break;
  }
  attempt.detail = milp.formulation;
  if (milp.variables > 0) {
    attempt.detail += fmt::format(", {} variables, {} rows", milp.variables, milp.rows);
  }
  return attempt;
}

}  // namespace

std::int32_t nonOverlappedIi(const Graph& graph) {
  // Serial schedule in a topological order of the distance-0 edges: each op starts when the
  // previous one has completed and its predecessors' delays have passed.
  auto order = topologicalOrder(graph);
  if (!order) return 1;
  std::vector<Cycle> start(static_cast<std::size_t>(graph.numOps()), 0);
  Cycle previousEnd = 0;
  for (OpId op : *order) {
    Cycle t = previousEnd;
    for (EdgeId e : graph.inEdges(op)) {
      if (graph.edgeDistance(e) == 0) {
        t = std::max(t, start[graph.edgeSource(e)] + graph.edgeDelay(e));
      }
    }
    start[op] = t;
    previousEnd = t + graph.duration(op);
  }
  Cycle ii = std::max<Cycle>(1, detail::scheduleLatency(graph, start));
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    const std::int32_t distance = graph.edgeDistance(e);
    if (distance == 0) continue;
    const Cycle need = start[graph.edgeSource(e)] + graph.edgeDelay(e) - start[graph.edgeTarget(e)];
    ii = std::max(ii, (need + distance - 1) / distance);
  }
  return static_cast<std::int32_t>(std::min<Cycle>(ii, kMaxInputValue));
}

namespace {

Result searchInUnits(const Problem& problem, const ModuloSearchOptions& options) {
  const Graph& graph = *problem.graph;
  const Machine& machine = *problem.machine;
  Result result;
  result.objectiveName = "ii";
  const ResMii resMii = computeResMii(graph, machine);
  const RecMii recMii = computeRecMii(graph);
  if (resMii.infeasible) {
    result.status = ModelStatus::kInfeasible;
    result.message = *resMii.infeasible;
    return result;
  }
  if (recMii.infeasible) {
    result.status = ModelStatus::kInfeasible;
    result.message = *recMii.infeasible;
    return result;
  }
  const std::int64_t mii = std::max(resMii.value, recMii.value);
  result.extra.emplace_back("mii", static_cast<double>(mii));
  result.extra.emplace_back("res_mii", static_cast<double>(resMii.value));
  result.extra.emplace_back("rec_mii", static_cast<double>(recMii.value));
  result.bounds.lowerBound = static_cast<double>(mii);
  result.bounds.iiBoundReason =
      resMii.value >= recMii.value
          ? fmt::format("ResMII ({})", resMii.binding ? machine.resources[*resMii.binding].name
                                                      : std::string("no limited resource"))
          : fmt::format("RecMII (cycle through {})",
                        recMii.bindingCycle.empty() ? std::string("?")
                                                    : graph.opName(recMii.bindingCycle.front()));

  const std::int32_t first = options.startFromOne ? 1 : static_cast<std::int32_t>(mii);
  const std::int32_t last =
      options.maxIi ? *options.maxIi : std::max<std::int32_t>(first, nonOverlappedIi(graph));
  const Deadline deadline(options.totalTimeLimitSeconds);
  bool everySmallerProven = true;  // every II below the current one was proven infeasible
  for (std::int32_t ii = first; ii <= last; ++ii) {
    if (deadline.expired()) {
      result.status = ModelStatus::kTimeout;
      result.message = fmt::format("total time limit {}s reached at II={} (MII={})",
                                   *options.totalTimeLimitSeconds, ii, mii);
      return result;
    }
    ModuloMilpOptions milp = options.milp;
    milp.timeLimitSeconds = std::min(milp.timeLimitSeconds, deadline.remainingSeconds());
    const ModuloAttempt attempt = solveModuloAtIi(problem, ii, milp);
    ++result.stats.solverCalls;
    result.attempts.push_back(attemptRecord(attempt));
    if (options.progress) options.progress("ilp: " + result.attempts.back().describe());
    if (attempt.verdict == AttemptVerdict::kError) return errorResult(attempt.detail);
    if (!attempt.schedule) {
      if (attempt.verdict != AttemptVerdict::kInfeasible) everySmallerProven = false;
      // Every II up to this one is proven infeasible: the next one is a lower bound.
      if (everySmallerProven) result.bounds.lowerBound = static_cast<double>(ii) + 1.0;
      continue;
    }
    result.schedule = attempt.schedule;
    result.objective = ii;
    result.extra.emplace_back("latency", static_cast<double>(*attempt.latency));
    const bool iiProven = everySmallerProven || ii <= mii;
    result.bounds.iiProvenOptimal = iiProven;
    result.bounds.latencyProvenOptimal = attempt.verdict == AttemptVerdict::kOptimal;
    if (iiProven && attempt.verdict == AttemptVerdict::kOptimal) {
      result.status = ModelStatus::kOptimal;
    } else {
      result.status = ModelStatus::kFeasible;
      result.message =
          iiProven ? attempt.detail : "II not proven minimal: an attempt at a smaller II timed out";
    }
    return result;
  }
  result.status = everySmallerProven ? ModelStatus::kInfeasible : ModelStatus::kTimeout;
  result.message = fmt::format("no modulo schedule at II in [{}, {}]{}", first, last,
                               everySmallerProven ? "" : " (some attempts timed out)");
  return result;
}

}  // namespace

Result searchModulo(const Problem& problem, const ModuloSearchOptions& options) {
  if (problem.ii) {
    // A fixed II: one attempt.
    const ModuloAttempt attempt = solveModuloAtIi(problem, *problem.ii, options.milp);
    Result result;
    result.objectiveName = "latency";
    result.stats.solverCalls = 1;
    result.attempts.push_back(attemptRecord(attempt));
    if (options.progress) options.progress("ilp: " + result.attempts.back().describe());
    result.schedule = attempt.schedule;
    if (attempt.latency) result.objective = static_cast<double>(*attempt.latency);
    if (attempt.latencyLowerBound) {
      result.bounds.lowerBound = static_cast<double>(*attempt.latencyLowerBound);
    }
    result.bounds.latencyProvenOptimal = attempt.verdict == AttemptVerdict::kOptimal;
    switch (attempt.verdict) {
      case AttemptVerdict::kOptimal:
        result.status = ModelStatus::kOptimal;
        break;
      case AttemptVerdict::kFeasible:
        result.status = ModelStatus::kTimeout;
        break;
      case AttemptVerdict::kInfeasible:
        result.status = ModelStatus::kInfeasible;
        break;
      case AttemptVerdict::kTimeout:
        result.status = ModelStatus::kTimeout;
        break;
      case AttemptVerdict::kError:
        result.call = CallStatus::kError;
        break;
    }
    result.message = attempt.detail;
    return result;
  }
  Result result = detail::solveWithNormalization(
      problem, options.normalization, [&](const Problem& solved, std::int64_t timeUnit) {
        ModuloSearchOptions inner = options;
        if (inner.maxIi) {
          inner.maxIi =
              static_cast<std::int32_t>(std::max<std::int64_t>(1, *inner.maxIi / timeUnit));
        }
        Result inUnits = searchInUnits(solved, inner);
        if (timeUnit > 1 && inUnits.schedule) {
          inUnits.extra.emplace_back("normalized_ii", static_cast<double>(*inUnits.schedule->ii));
        }
        return inUnits;
      });
  if (result.schedule) {
    result.objective = *result.schedule->ii;
    for (auto& [name, value] : result.extra) {
      if (name == "latency") {
        value =
            static_cast<double>(detail::scheduleLatency(*problem.graph, result.schedule->start));
      }
    }
  }
  if (!result.bounds.lowerBound) {
    // The MII of the normalized problem means nothing in raw cycles: report the raw one.
    result.bounds.lowerBound =
        static_cast<double>(std::max(computeResMii(*problem.graph, *problem.machine).value,
                                     computeRecMii(*problem.graph).value));
  }
  return result;
}

}  // namespace gaus::exact
