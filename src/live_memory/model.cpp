// The time-indexed MILP of peak live memory under a horizon
// (include/gaus/milp/live_memory_model.hpp): formulation B of GauS (Gao et al., "GauS:
// Differentiable Scheduling Optimization via Gaussian Reparameterization", 2025) solved exactly,
// with the verifier's live interval.
//
// The model, for a set of moving ops with start windows [e_u, l_u] and every other op fixed:
// - x[u][t] = 1 when u starts at t (one per op), and s_v >= s_u + delay for every distance-0
//   edge between moving ops (milp/time_indexed_rows.hpp: the rows every time-indexed model of
//   the project shares; an edge with a fixed end is kept by the windows, which the caller
//   derives from the fixed neighbours). With a machine, capacity rows per cycle.
// - Value v is live at t when v has started and some reader has not (core's liveInterval: from
//   s_v until its last distance-0 reader starts). With started(u, t) = sum of x[u][tau] over
//   tau <= t (0 or 1 for a fixed op): live[v][t] >= started(v, t) - started(r, t) for every
//   reader r, live in [0, 1]; minimizing pushes it down to the true status. The values whose
//   life a move can change are the moving ops' and their producers'.
// - Only the cycles where v's status can change get a variable: from its earliest start to its
//   readers' latest start, less the stretch where it is live for sure (from its latest start
//   until the last of its readers' earliest starts: a reader that surely has not started keeps
//   it live). The sure stretches, and every other value's life, join the constants, so a fixed
//   producer's long life or a far reader adds no variable and no row.
// - For every cycle with a variable: constants + sum of mem_v live[v][t] <= P; the objective
//   is P, optionally capped (the windows' search only wants a placement below its peak: the
//   cap turns most hopeless windows into infeasible models that the solver proves in milliseconds).
//   P is at least the largest constant of those cycles and the caller's floor.
// With every op moving in its ASAP/ALAP window at horizon D this is the whole problem; the
// constants are then only the sure stretches, and the caller's floor is core's
// mandatoryLifetimeBound (the largest sum of the sure stretches at one cycle).

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include <gaus/core/schedule.hpp>
#include <gaus/live_memory/model.hpp>

namespace gaus::live_memory {

using milp::LinearExpression;
using milp::MilpModel;
using milp::MilpSolution;
using milp::ModelSize;
using milp::StartGrid;
using milp::VariableId;

namespace {

// A value whose life a move can change.
struct Lifetime {
  OpId value = 0;
  Cycle minStart = 0;
  Cycle maxStart = 0;
  Cycle sureUntil = 0;  // live for sure on [maxStart, sureUntil)
  Cycle end = 0;        // not live from here on
  std::vector<OpId> readers;
};

struct Plan {
  std::vector<char> moves;
  std::vector<Cycle> earliest, latest;  // per op (the fixed ops': their start)
  std::vector<Lifetime> lifetimes;
  std::vector<double> constant;   // per cycle in [0, horizon]: live memory no move changes
  std::vector<char> hasVariable;  // per cycle
};

Plan makePlan(const PeakMemoryModelInput& input) {
  const Graph& graph = *input.graph;
  const auto count = static_cast<std::size_t>(graph.numOps());
  Plan plan;
  plan.moves.assign(count, 0);
  plan.earliest.assign(input.start.begin(), input.start.end());
  plan.latest = plan.earliest;
  for (const MovingStart& u : input.moving) {
    plan.moves[u.op] = 1;
    plan.earliest[u.op] = u.earliest;
    plan.latest[u.op] = u.latest;
  }
  std::vector<char> changes(count, 0);
  for (const MovingStart& u : input.moving) {
    changes[u.op] = 1;
    for (const EdgeId e : graph.inEdges(u.op)) {
      if (graph.edgeDistance(e) == 0) changes[graph.edgeSource(e)] = 1;
    }
  }
  Cycle last = std::max<Cycle>(input.horizon, 1);
  for (const Cycle s : input.start) last = std::max(last, s);
  plan.constant.assign(static_cast<std::size_t>(last) + 1, 0.0);
  plan.hasVariable.assign(plan.constant.size(), 0);
  for (OpId v = 0; v < graph.numOps(); ++v) {
    const double mem = graph.mem(v);
    if (mem == 0.0) continue;
    if (!changes[v]) {
      const LiveInterval live = liveInterval(graph, input.start, 0, v);
      for (Cycle t = live.begin; t < live.end; ++t) plan.constant[t] += mem;
      continue;
    }
    Lifetime lifetime{v, plan.earliest[v], plan.latest[v], 0, 0, {}};
    for (const EdgeId e : graph.outEdges(v)) {
      const OpId r = graph.edgeTarget(e);
      if (graph.edgeDistance(e) != 0 || r == v) continue;
      lifetime.readers.push_back(r);
      lifetime.sureUntil = std::max(lifetime.sureUntil, plan.earliest[r]);
      lifetime.end = std::max(lifetime.end, plan.latest[r]);
    }
    if (lifetime.readers.empty()) continue;  // never live
    // Parallel edges (an AND gate reading one value twice) give one row, not two.
    std::sort(lifetime.readers.begin(), lifetime.readers.end());
    lifetime.readers.erase(std::unique(lifetime.readers.begin(), lifetime.readers.end()),
                           lifetime.readers.end());
    for (Cycle t = lifetime.maxStart; t < lifetime.sureUntil; ++t) plan.constant[t] += mem;
    for (Cycle t = lifetime.minStart; t < lifetime.end; ++t) {
      if (t < lifetime.maxStart || t >= lifetime.sureUntil) plan.hasVariable[t] = 1;
    }
    plan.lifetimes.push_back(std::move(lifetime));
  }
  return plan;
}

bool isSure(const Lifetime& lifetime, Cycle t) {
  return t >= lifetime.maxStart && t < lifetime.sureUntil;
}

}  // namespace

ModelSize PeakMemoryModel::estimateSize(const PeakMemoryModelInput& input) {
  const Plan plan = makePlan(input);
  const Graph& graph = *input.graph;
  const auto width = [&](OpId op) { return plan.latest[op] - plan.earliest[op] + 1; };
  const auto startedTerms = [&](OpId op, Cycle t) -> std::int64_t {
    if (!plan.moves[op]) return 0;
    return std::max<Cycle>(0, std::min(t, plan.latest[op]) - plan.earliest[op] + 1);
  };
  const std::vector<bool> contended =
      input.machine ? milp::contendedResources(graph, *input.machine) : std::vector<bool>{};
  ModelSize size;
  size.variables = 1;
  for (const MovingStart& u : input.moving) {
    size.variables += width(u.op);
    size.nonzeros += width(u.op);
    if (input.machine) {
      for (const auto& block : graph.reservation(u.op)) {
        if (contended[block.resource]) size.nonzeros += width(u.op) * block.length;
      }
    }
    for (const EdgeId e : graph.outEdges(u.op)) {
      const OpId v = graph.edgeTarget(e);
      if (graph.edgeDistance(e) == 0 && v != u.op && plan.moves[v]) {
        size.nonzeros += milp::precedenceNonzeros(width(u.op), width(v));
      }
    }
  }
  for (const Lifetime& lifetime : plan.lifetimes) {
    for (Cycle t = lifetime.minStart; t < lifetime.end; ++t) {
      if (isSure(lifetime, t)) continue;
      size.variables += 1;
      size.nonzeros += 2;  // the live variable in its cycle's row and P's
      for (const OpId r : lifetime.readers) {
        if (plan.latest[r] <= t) continue;
        size.nonzeros += 1 + startedTerms(lifetime.value, t) + startedTerms(r, t);
      }
    }
  }
  return size;
}

PeakMemoryModel::PeakMemoryModel(const PeakMemoryModelInput& input)
    : graph_(*input.graph), start_(input.start.begin(), input.start.end()) {
  const Plan plan = makePlan(input);
  for (OpId op = 0; op < graph_.numOps(); ++op) {
    wholeMems_ = wholeMems_ && graph_.mem(op) == std::floor(graph_.mem(op));
  }
  grid_ = StartGrid(model_, plan.earliest, plan.latest, plan.moves);
  for (const MovingStart& u : input.moving) {
    for (const EdgeId e : graph_.outEdges(u.op)) {
      const OpId v = graph_.edgeTarget(e);
      if (graph_.edgeDistance(e) == 0 && v != u.op && plan.moves[v]) {
        milp::addPrecedenceRows(model_, grid_, u.op, v, graph_.edgeDelay(e));
      }
    }
  }
  if (input.machine != nullptr) {
    milp::addCapacityRows(model_, grid_, graph_, *input.machine, std::nullopt, start_);
  }

  const Cycle cycles = static_cast<Cycle>(plan.constant.size());
  std::vector<LinearExpression> cycleRows(static_cast<std::size_t>(cycles));
  for (const Lifetime& lifetime : plan.lifetimes) {
    const OpId v = lifetime.value;
    for (Cycle t = lifetime.minStart; t < lifetime.end; ++t) {
      if (isSure(lifetime, t)) continue;
      const VariableId live = model_.addVariable(0.0, 1.0, false, 0.0);
      lives_.push_back({live, v, t});
      cycleRows[t].add(live, graph_.mem(v));
      for (const OpId r : lifetime.readers) {
        if (plan.latest[r] <= t) continue;  // r has surely started by t: the row is void
        LinearExpression row;
        row.add(live, 1.0);
        double constant = 0.0;  // started(v, t) - started(r, t) of fixed ops
        if (plan.moves[v]) {
          grid_.addStarted(row, v, t, -1.0);
        } else {
          constant += start_[v] <= t ? 1.0 : 0.0;
        }
        if (plan.moves[r]) {
          grid_.addStarted(row, r, t, 1.0);
        } else {
          constant -= start_[r] <= t ? 1.0 : 0.0;
        }
        model_.addGreaterEqual(row, constant);
      }
    }
  }

  double floor = input.peakFloor;
  for (Cycle t = 0; t < cycles; ++t) {
    constantPeak_ = std::max(constantPeak_, plan.constant[t]);
    if (plan.hasVariable[t]) floor = std::max(floor, plan.constant[t]);
  }
  const double cap = input.peakCap.value_or(std::numeric_limits<double>::infinity());
  peak_ = model_.addVariable(std::min(floor, cap), cap, false, 1.0, "P");
  rowConstant_.assign(static_cast<std::size_t>(cycles), 0.0);
  for (Cycle t = 0; t < cycles; ++t) {
    if (!plan.hasVariable[t]) continue;
    rowConstant_[t] = plan.constant[t];
    LinearExpression& row = cycleRows[t];
    row.add(peak_, -1.0);
    model_.addLessEqual(row, -plan.constant[t]);
  }

  // The model is fixed by the moving ops' starts and windows, the values' spans and readers'
  // windows and the constants of its rows (the cap aside: PeakMemoryModel::fingerprint).
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  const auto mix = [&hash](std::uint64_t value) { hash = (hash ^ value) * 0x100000001b3ULL; };
  for (const MovingStart& u : input.moving) {
    for (const Cycle value : {Cycle(u.op), start_[u.op], u.earliest, u.latest}) {
      mix(static_cast<std::uint64_t>(value));
    }
  }
  for (const Lifetime& lifetime : plan.lifetimes) {
    mix(static_cast<std::uint64_t>(lifetime.value));
    for (const OpId r : lifetime.readers) {
      for (const Cycle c : {Cycle(r), plan.earliest[r], plan.latest[r]}) {
        mix(static_cast<std::uint64_t>(c));
      }
    }
  }
  for (Cycle t = 0; t < cycles; ++t) {
    if (!plan.hasVariable[t]) continue;
    mix(static_cast<std::uint64_t>(t));
    mix(std::hash<double>{}(plan.constant[t]));
  }
  fingerprint_ = hash;
}

std::vector<double> PeakMemoryModel::encode(std::span<const Cycle> start) const {
  std::vector<double> values(static_cast<std::size_t>(model_.numVariables()), 0.0);
  grid_.encode(start, values);
  std::vector<double> atCycle = rowConstant_;
  for (const Live& live : lives_) {
    const LiveInterval interval = liveInterval(graph_, start, 0, live.value);
    if (live.t < interval.begin || live.t >= interval.end) continue;
    values[static_cast<std::size_t>(live.variable)] = 1.0;
    atCycle[static_cast<std::size_t>(live.t)] += graph_.mem(live.value);
  }
  // P at the smallest value every cycle's row allows (the cycles without a row hold 0 here).
  double peak = model_.lowerBound(peak_);
  for (const double value : atCycle) peak = std::max(peak, value);
  values[static_cast<std::size_t>(peak_)] = peak;
  return values;
}

std::optional<double> PeakMemoryModel::boundOf(const MilpSolution& solution) const {
  if (!solution.bound) return std::nullopt;
  const double bound = std::max(*solution.bound, model_.lowerBound(peak_));
  // The solver's bound carries its tolerances: 31 - 1e-7 still proves 31 with whole mems.
  return wholeMems_ ? std::ceil(bound - 1e-6) : bound;
}

std::vector<Cycle> PeakMemoryModel::decode(const MilpSolution& solution) const {
  return grid_.decode(solution, start_);
}

}  // namespace gaus::live_memory
