// The joint SWP + WS model at a fixed (II, L): phase 2 of Twill (Soi et al., OSDI'26, arXiv
// 2512.18134, section 4, Figs. 4-6), as restated in TWILL.md section 3, on Z3 as a propositional
// model with cardinality and pseudo-Boolean rows, instead of the paper's integer arithmetic on
// Yices2.
//
// Variables (the order encoding of scheduling by SAT): per op and cycle t < L - duration, the
// literal "t(op) <= t", each implying the next; per op and residue r < II, "t(op) mod II == r",
// at most one true and the one of the start forced; one Boolean per op and warp (the op's warp
// set). A difference constraint t(u) + d <= t(v) + distance II becomes one binary clause per
// cycle, liveness and lifetimes are clauses over the order literals, and capacity is one
// cardinality row per unit and residue. Every constraint of a family is guarded by that
// family's literal, and each check assumes the literals of the enabled families, so an UNSAT
// answer names the blocking families through Z3's unsat core.
//
// Why not integers: the residue of t = II k + r and the disjunctions that keep two
// reservations apart modulo II made the arithmetic solver search blindly. On the sub-tiled
// Blackwell stand-in at II 18 the checks L 31-34 took 33 s, over 60 s (three of them) and the
// search had no answer in 600 s; in this encoding each takes about 0.01 s and the whole
// search ends in seconds (docs/benchmarks.md, "Twill on realistic graphs"). The price is a
// model that grows with L x ops, which cost normalization keeps small (sum of costs <= 300).
//
// Departures from TWILL.md / the paper:
// - One model per II, not per (II, L): it is built at the largest L to be tried, and a smaller
//   L is an assumption literal that bounds every start (t(v) <= L - duration(v), and the ALAP
//   bounds at that L). Z3 keeps what it learned across the checks of one II. Nothing else in
//   the model depends on L (the register rows' liveness literals past a smaller L's horizon are
//   false for every schedule within it), so the checks at L agree with a model built at L, and
//   satisfiability is monotone in L.
// - Steady state instead of the straight-line program. TWILL.md unrolls ceil(L / II) copies
//   into T = (copies - 1) II + L cycles and checks every absolute cycle; here every cyclic
//   family is checked per residue modulo II, which is the steady state of that program and is
//   exactly what the independent verifier (src/core/verify.cpp) checks. The prologue and
//   epilogue hold subsets of the steady state's copies, so they need no separate rows, with one
//   exception: TWILL.md keeps values "carried past the last copy" live until T, which can only
//   matter in the epilogue; the verifier does not check it, and neither does this model.
// - Liveness follows the verifier: a value is live from its op's start until its last consumer
//   starts (consumer start + distance II); a value without consumers is never live.
// - Memory capacity (beyond the paper, TWILL.md "Going beyond"): instead of the footprints live
//   at each cycle, each value with a footprint holds a ring of max(1, ceil(lifetime / II))
//   buffers for the whole loop (at least one when it has a consumer), and the rings must fit
//   together (buffers x stages, how shared and tensor memory are allocated). The verifier checks
//   the same rule for modulo-warp problems (core ringBuffers), so an infeasibility proved here
//   holds for the problem the verifier defines. (A per-residue count was an option once; it is
//   looser than the rings, so its proofs were for a relaxation and its schedules could fail.)
// - An op on a warp set of several warps (min_warps > 1) holds its registers on each of them;
//   spill delay applies when the producer's and consumer's warp sets differ (verifier's rules).
// - Register rows are pseudo-Boolean over literals "value live at absolute cycle tau", summed
//   over the cycles of one residue. Derived literals (live, "lifetime > k II", cross-warp,
//   sharing a warp) are only forced true by what implies them: each is bounded from above
//   only, so the other direction would add clauses without pruning a schedule.
// - Symmetry breaking: the warps other than the variable-latency warp are interchangeable, so
//   ops take them in first-use order; interchangeable ops are ordered (symmetry.hpp).

#include "twill_smt.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <map>

#include <fmt/format.h>
#include <z3++.h>

#include <gaus/core/analysis.hpp>

#include "start_schedule.hpp"
#include "symmetry.hpp"

namespace gaus::exact::detail {

namespace {

double secondsBetween(std::chrono::steady_clock::time_point begin) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

// The absolute cycles [0, horizon) at which op's value can be live within L: up to the latest
// read, its last consumer's last start (L - duration) plus distance II. The model has a
// liveness literal per such cycle; the size estimate counts them.
Cycle liveHorizon(const Graph& graph, OpId op, std::int32_t ii, Cycle latency) {
  Cycle horizon = 0;
  for (EdgeId e : graph.outEdges(op)) {
    horizon = std::max(horizon, latency - graph.duration(graph.edgeTarget(e)) +
                                    static_cast<Cycle>(graph.edgeDistance(e)) * ii);
  }
  return horizon;
}

}  // namespace

struct TwillSmtModel::Impl {
  Impl(const Problem& problem, std::int32_t fixedIi, Cycle fixedLatency,
       const SmtModelOptions& modelOptions)
      : graph(*problem.graph),
        machine(*problem.machine),
        ii(fixedIi),
        latency(fixedLatency),
        cap(fixedLatency),
        options(modelOptions),
        solver(context),
        opSymmetry(context.bool_const("op_symmetry")) {
    for (std::size_t f = 0; f < kNumTwillFamilies; ++f) {
      familyLiteral.push_back(
          context.bool_const(fmt::format("family_{}", toString(kAllTwillFamilies[f])).c_str()));
    }
  }

  const Graph& graph;
  const Machine& machine;
  const std::int32_t ii;
  const Cycle latency;  // the model is built at this L ...
  Cycle cap;            // ... and checked at this one (setLatency)
  const SmtModelOptions options;
  z3::context context;
  z3::solver solver;
  std::vector<z3::expr> familyLiteral;
  z3::expr opSymmetry;
  std::vector<Cycle> lastStart;                 // per op: L - duration, its domain's end
  std::vector<std::vector<z3::expr>> startsBy;  // [op][t]: t(op) <= t, for t < lastStart
  std::vector<std::vector<z3::expr>> residue;   // [op][r]: t(op) mod II == r
  std::vector<std::vector<z3::expr>> onWarp;    // [op][warp]
  std::vector<z3::expr> warpUsed;
  std::vector<z3::expr> crossEdge;  // per edge between two ops: their warp sets differ
  std::int32_t restrictionCount = 0;
  std::optional<std::vector<Cycle>> earliest;    // modulo ASAP at II; none: no room at all
  std::map<Cycle, z3::expr> latencyCapLiterals;  // L below `latency` -> its assumption
  const Deadline* buildDeadline = nullptr;       // while build() runs
  bool buildStopped = false;                     // the deadline passed during build()

  // Whether build() must stop: its deadline has passed. Looked at between the ops (or edges,
  // warps, units) of each family, each a few thousand clauses at most, so a build stops within
  // milliseconds of its deadline.
  bool outOfTime() {
    buildStopped = buildStopped || buildDeadline->expired();
    return buildStopped;
  }

  z3::expr literal(const std::string& name) { return context.bool_const(name.c_str()); }
  z3::expr family(TwillFamily f) { return familyLiteral[static_cast<std::size_t>(f)]; }

  int warps() const { return machine.warps; }

  // The order literal "t(op) <= t": false before the domain, true from its end on.
  z3::expr by(OpId op, Cycle t) {
    if (t < 0) return context.bool_val(false);
    if (t >= lastStart[op]) return context.bool_val(true);
    return startsBy[op][static_cast<std::size_t>(t)];
  }

  // Adds the clause (OR of `literals`) guarded by `guards` (each must hold for it to apply),
  // folding the constant literals of by().
  void clause(std::initializer_list<z3::expr> guards, std::initializer_list<z3::expr> literals) {
    z3::expr_vector terms(context);
    for (const z3::expr& guard : guards) terms.push_back(!guard);
    for (const z3::expr& l : literals) {
      if (l.is_true()) return;
      if (!l.is_false()) terms.push_back(l);
    }
    solver.add(z3::mk_or(terms));
  }
  void add(TwillFamily f, const z3::expr& constraint) {
    solver.add(z3::implies(family(f), constraint));
  }

  z3::expr sameWarpSet(OpId a, OpId b) {
    z3::expr_vector equal(context);
    for (int w = 0; w < warps(); ++w) equal.push_back(onWarp[a][w] == onWarp[b][w]);
    return z3::mk_and(equal);
  }

  // Adds every constraint family; false when `deadline` passed first (the model is then
  // incomplete and must not be checked).
  bool build(const Deadline& deadline) {
    buildDeadline = &deadline;
    buildVariables();
    const auto steps = {&Impl::buildDependence,      &Impl::buildCapacity,
                        &Impl::buildMemory,          &Impl::buildWarpUniqueness,
                        &Impl::buildVariableLatency, &Impl::buildRegisterLimit,
                        &Impl::buildSpillDelay,      &Impl::buildBlockingConcurrency};
    for (const auto step : steps) {
      if (outOfTime()) break;
      (this->*step)();
    }
    if (options.breakSymmetry && !outOfTime()) buildSymmetryBreaking();
    buildDeadline = nullptr;
    return !buildStopped;
  }

  // The order, residue and warp literals of every op, the warps used and the cross-warp edges.
  void buildVariables() {
    const OpId count = graph.numOps();
    for (OpId op = 0; op < count; ++op) {
      if (outOfTime()) return;
      lastStart.push_back(latency - graph.duration(op));
      std::vector<z3::expr> order;
      for (Cycle t = 0; t < lastStart.back(); ++t) {
        order.push_back(literal(fmt::format("t_{}_le_{}", op, t)));
      }
      startsBy.push_back(std::move(order));
      // No start fits within L: only a larger L helps, so no family is to blame.
      if (lastStart.back() < 0) solver.add(context.bool_val(false));
      for (Cycle t = 1; t < lastStart.back(); ++t) clause({}, {!by(op, t - 1), by(op, t)});
      // The residue of the start, one-hot: the residue of the cycle it starts at is true, and
      // at most one is, so it is exactly that one.
      std::vector<z3::expr> residues;
      z3::expr_vector row(context);
      for (std::int32_t r = 0; r < ii; ++r) {
        residues.push_back(literal(fmt::format("r_{}_{}", op, r)));
        row.push_back(residues.back());
      }
      for (Cycle t = 0; t <= lastStart.back(); ++t) {
        clause({}, {!by(op, t), by(op, t - 1), residues[static_cast<std::size_t>(t % ii)]});
      }
      solver.add(z3::atmost(row, 1));
      residue.push_back(std::move(residues));

      std::vector<z3::expr> warpsOf;
      z3::expr_vector any(context);
      for (int w = 0; w < warps(); ++w) {
        warpsOf.push_back(literal(fmt::format("w_{}_{}", op, w)));
        any.push_back(warpsOf.back());
      }
      // Every op runs somewhere. Structural, not part of the warp-uniqueness family: with that
      // family off an op may be replicated on several warps, but never on none (which would
      // make every warp family vacuous and put uniqueness in every unsat core).
      solver.add(z3::mk_or(any));
      onWarp.push_back(std::move(warpsOf));
    }
    for (int w = 0; w < warps(); ++w) {
      z3::expr_vector any(context);
      for (OpId op = 0; op < count; ++op) any.push_back(onWarp[op][w]);
      warpUsed.push_back(count > 0 ? z3::mk_or(any) : context.bool_val(false));
    }
    // crossEdge is forced true when the warp sets differ (one direction suffices: it is only
    // ever bounded from above, by the cross-edge count and as the spill delay's condition).
    for (EdgeId e = 0; e < graph.numEdges(); ++e) {
      const OpId u = graph.edgeSource(e);
      const OpId v = graph.edgeTarget(e);
      if (u == v) continue;
      crossEdge.push_back(literal(fmt::format("cross_{}", e)));
      for (int w = 0; w < warps(); ++w) {
        clause({}, {!onWarp[u][w], onWarp[v][w], crossEdge.back()});
        clause({}, {onWarp[u][w], !onWarp[v][w], crossEdge.back()});
      }
    }
  }

  // t(u) <= t(v) + slack (an edge u -> v has slack distance II - delay), guarded: for every t,
  // t(v) <= t forces t(u) <= t + slack.
  void precede(std::initializer_list<z3::expr> guards, OpId u, OpId v, Cycle slack) {
    for (Cycle t = 0; t <= lastStart[v]; ++t) clause(guards, {!by(v, t), by(u, t + slack)});
  }

  // The clause "t(op) <= t and the consumer of out-edge e reads after t + offset (its start
  // plus distance II) force `literal`": how liveness and lifetime literals get set.
  void readAfterForces(OpId op, EdgeId e, Cycle t, Cycle offset, const z3::expr& literal) {
    const Cycle shift = static_cast<Cycle>(graph.edgeDistance(e)) * ii;
    clause({}, {!by(op, t), by(graph.edgeTarget(e), t + offset - shift), literal});
  }

  void buildDependence() {
    const z3::expr dependence = family(TwillFamily::kDependence);
    // Implied bounds: ASAP over all edges at this II and ALAP from L. They prune the search and
    // decide at once when the dependences alone leave no room within L.
    if (auto asap = moduloAsapTimes(graph, ii)) earliest = std::move(asap).value();
    std::optional<std::vector<Cycle>> latest;
    if (earliest) latest = latestStarts(graph, ii, latency, *earliest);
    if (!latest) {
      add(TwillFamily::kDependence, context.bool_val(false));
      return;
    }
    for (OpId op = 0; op < graph.numOps(); ++op) {
      clause({dependence}, {!by(op, (*earliest)[op] - 1)});
      clause({dependence}, {by(op, (*latest)[op])});
    }
    for (EdgeId e = 0; e < graph.numEdges(); ++e) {
      if (outOfTime()) return;
      const OpId u = graph.edgeSource(e);
      const OpId v = graph.edgeTarget(e);
      const Cycle slack = static_cast<Cycle>(graph.edgeDistance(e)) * ii - graph.edgeDelay(e);
      if (u == v) {
        if (slack < 0) add(TwillFamily::kDependence, context.bool_val(false));
        continue;
      }
      precede({dependence}, u, v, slack);
    }
  }

  // Per unit and residue, the units reserved there: a cardinality (or pseudo-Boolean) row over
  // the residue literals.
  void buildCapacity() {
    for (ResourceId f = 0; f < machine.numResources(); ++f) {
      if (!machine.resources[f].limited()) continue;
      const std::int64_t capacity = *machine.resources[f].capacity;
      std::int64_t demand = 0;
      for (OpId op = 0; op < graph.numOps(); ++op) {
        for (const auto& block : graph.reservation(op)) {
          if (block.resource == f) demand += static_cast<std::int64_t>(block.units) * block.length;
        }
      }
      if (demand <= capacity) continue;
      if (demand > capacity * ii) {
        add(TwillFamily::kCapacity, context.bool_val(false));
        continue;
      }
      for (std::int32_t rho = 0; rho < ii; ++rho) {
        if (outOfTime()) return;
        z3::expr_vector terms(context);
        std::vector<int> weights;
        bool unitWeights = true;
        for (OpId op = 0; op < graph.numOps(); ++op) {
          for (const auto& block : graph.reservation(op)) {
            if (block.resource != f) continue;
            for (std::int32_t j = 0; j < block.length; ++j) {
              const std::int64_t r = (((rho - block.begin - j) % ii) + ii) % ii;
              terms.push_back(residue[op][static_cast<std::size_t>(r)]);
              weights.push_back(block.units);
              unitWeights = unitWeights && block.units == 1;
            }
          }
        }
        if (static_cast<std::int64_t>(terms.size()) <= capacity && unitWeights) continue;
        const auto bound = static_cast<unsigned>(std::min<std::int64_t>(capacity, INT32_MAX));
        add(TwillFamily::kCapacity, unitWeights
                                        ? z3::atmost(terms, bound)
                                        : z3::pble(terms, weights.data(), static_cast<int>(bound)));
      }
    }
  }

  // The literal "the value of op is live k II cycles after its start", k >= 1, forced by every
  // consumer that starts (plus distance II) later than that; one direction suffices, the
  // literals are only bounded from above. Nothing when no schedule within L makes it true.
  std::optional<z3::expr> livesPastStages(OpId op, std::int64_t k) {
    bool possible = false;
    const z3::expr lives = literal(fmt::format("lives_{}_past_{}", op, k));
    for (EdgeId e : graph.outEdges(op)) {
      const Cycle offset = k * ii;
      const Cycle shift = offset - static_cast<Cycle>(graph.edgeDistance(e)) * ii;
      for (Cycle t = 0; t <= lastStart[op]; ++t) {
        // From here on the consumer always starts by t + shift: the clause holds trivially.
        if (t + shift >= lastStart[graph.edgeTarget(e)]) break;
        possible = true;
        readAfterForces(op, e, t, offset, lives);
      }
    }
    if (!possible) return std::nullopt;
    return lives;
  }

  // The verifier's rule for modulo-warp memories (core ringBuffers): a value with a footprint
  // holds max(1, ceil(lifetime / II)) buffers (at least one when it has a consumer: a streaming
  // load's out-edges have delay 0, so its lifetime may be 0 cycles, but its tile still needs a
  // home), and the rings of each memory fit its capacity. Buffers beyond the first are counted
  // by the literals "lifetime > k II".
  void buildMemory() {
    for (MemoryId m = 0; m < static_cast<MemoryId>(machine.memories.size()); ++m) {
      const std::int64_t capacity = machine.memories[m].capacity;
      std::int64_t fixed = 0;
      z3::expr_vector extra(context);
      std::vector<int> amounts;
      for (OpId op = 0; op < graph.numOps(); ++op) {
        if (outOfTime()) return;
        for (const auto& print : graph.footprints(op)) {
          if (print.memory != m || print.amount <= 0 || graph.outEdges(op).empty()) continue;
          fixed += print.amount;
          for (std::int64_t k = 1;; ++k) {
            const auto lives = livesPastStages(op, k);
            if (!lives) break;
            extra.push_back(*lives);
            amounts.push_back(static_cast<int>(std::min<std::int64_t>(print.amount, INT32_MAX)));
          }
        }
      }
      if (fixed > capacity) {
        add(TwillFamily::kMemory, context.bool_val(false));
      } else if (!extra.empty()) {
        add(TwillFamily::kMemory,
            z3::pble(extra, amounts.data(),
                     static_cast<int>(std::min<std::int64_t>(capacity - fixed, INT32_MAX))));
      }
    }
  }

  void buildWarpUniqueness() {
    for (OpId op = 0; op < graph.numOps(); ++op) {
      z3::expr_vector literals(context);
      std::vector<int> ones;
      for (int w = 0; w < warps(); ++w) {
        literals.push_back(onWarp[op][w]);
        ones.push_back(1);
      }
      add(TwillFamily::kWarpUniqueness, z3::pbeq(literals, ones.data(), graph.minWarps(op)));
    }
  }

  void buildVariableLatency() {
    if (!machine.variableLatencyWarp) return;
    const int vl = *machine.variableLatencyWarp;
    for (OpId op = 0; op < graph.numOps(); ++op) {
      if (graph.variableLatency(op)) {
        z3::expr_vector alone(context);
        for (int w = 0; w < warps(); ++w) alone.push_back(w == vl ? onWarp[op][w] : !onWarp[op][w]);
        add(TwillFamily::kVariableLatency, z3::mk_and(alone));
      } else {
        add(TwillFamily::kVariableLatency, !onWarp[op][vl]);
      }
    }
  }

  // Literals "the value of op is live at absolute cycle tau" for tau in [0, horizon): t(op) <=
  // tau and some consumer starts (plus distance II) after tau. Forced true by those two; only
  // bounded from above (by the register rows), so the other direction is not needed.
  std::vector<z3::expr> liveLiterals(OpId op) {
    const Cycle horizon = liveHorizon(graph, op, ii, latency);
    std::vector<z3::expr> live;
    for (Cycle tau = 0; tau < horizon; ++tau) {
      live.push_back(literal(fmt::format("live_{}_{}", op, tau)));
      for (EdgeId e : graph.outEdges(op)) readAfterForces(op, e, tau, 0, live.back());
    }
    return live;
  }

  void buildRegisterLimit() {
    if (!machine.registerLimit) return;
    const std::int64_t limit = *machine.registerLimit;
    std::vector<OpId> holders;
    std::vector<std::vector<z3::expr>> live;
    std::int64_t worst = 0;
    for (OpId op = 0; op < graph.numOps(); ++op) {
      if (outOfTime()) return;
      if (graph.regs(op) == 0 || graph.outEdges(op).empty()) continue;
      holders.push_back(op);
      live.push_back(liveLiterals(op));
      worst += graph.regs(op) * static_cast<std::int64_t>((live.back().size() + ii - 1) / ii);
    }
    if (worst <= limit) return;
    for (int w = 0; w < warps(); ++w) {
      if (outOfTime()) return;
      for (std::int32_t rho = 0; rho < ii; ++rho) {
        z3::expr_vector terms(context);
        std::vector<int> weights;
        for (std::size_t h = 0; h < holders.size(); ++h) {
          for (std::size_t tau = static_cast<std::size_t>(rho); tau < live[h].size(); tau += ii) {
            terms.push_back(onWarp[holders[h]][w] && live[h][tau]);
            weights.push_back(graph.regs(holders[h]));
          }
        }
        if (terms.empty()) continue;
        add(TwillFamily::kRegisterLimit,
            z3::pble(terms, weights.data(),
                     static_cast<int>(std::min<std::int64_t>(limit, INT32_MAX))));
      }
    }
  }

  // An edge between different warp sets also waits out the producer's spill cost.
  void buildSpillDelay() {
    const z3::expr spillDelay = family(TwillFamily::kSpillDelay);
    std::size_t cross = 0;
    for (EdgeId e = 0; e < graph.numEdges(); ++e) {
      if (outOfTime()) return;
      const OpId u = graph.edgeSource(e);
      const OpId v = graph.edgeTarget(e);
      if (u == v) continue;
      const z3::expr& split = crossEdge[cross++];
      if (graph.spillCost(u) == 0) continue;
      const Cycle slack =
          static_cast<Cycle>(graph.edgeDistance(e)) * ii - graph.edgeDelay(e) - graph.spillCost(u);
      precede({spillDelay, split}, u, v, slack);
    }
  }

  // An op with a blocking input issues when no other op of its warp set is executing: for
  // each other op, sharing a warp excludes the residues at which the other is still busy.
  void buildBlockingConcurrency() {
    const z3::expr blockingFamily = family(TwillFamily::kBlockingConcurrency);
    for (OpId op = 0; op < graph.numOps(); ++op) {
      if (outOfTime()) return;
      bool blocking = false;
      for (EdgeId e : graph.inEdges(op)) blocking = blocking || graph.edgeBlocking(e);
      if (!blocking) continue;
      for (OpId other = 0; other < graph.numOps(); ++other) {
        if (other == op) continue;
        const z3::expr share = literal(fmt::format("share_{}_{}", op, other));
        for (int w = 0; w < warps(); ++w) clause({}, {!onWarp[op][w], !onWarp[other][w], share});
        const std::int64_t window = std::max<std::int64_t>(1, graph.reservationLength(other));
        if (window >= ii) {
          clause({blockingFamily}, {!share});
          continue;
        }
        for (std::int32_t rho = 0; rho < ii; ++rho) {
          for (std::int64_t j = 0; j < window; ++j) {
            const auto busy = static_cast<std::size_t>((((rho - j) % ii) + ii) % ii);
            clause({blockingFamily},
                   {!share, !residue[op][static_cast<std::size_t>(rho)], !residue[other][busy]});
          }
        }
      }
    }
  }

  // Interchangeable warps (all but the variable-latency warp) are used in order of first use by
  // ops in id order: a warp may hold op i only if the previous warp holds op i or an earlier op.
  // Interchangeable ops start in the order symmetry.hpp gives (guarded: off when a query singles
  // out particular ops).
  void buildSymmetryBreaking() {
    std::vector<int> free;
    for (int w = 0; w < warps(); ++w) {
      if (!machine.variableLatencyWarp || w != *machine.variableLatencyWarp) free.push_back(w);
    }
    std::vector<z3::expr> usedBefore;  // per free warp: some earlier op is on it
    for (std::size_t j = 0; j < free.size(); ++j) usedBefore.push_back(context.bool_val(false));
    for (OpId op = 0; op < graph.numOps(); ++op) {
      for (std::size_t j = 1; j < free.size(); ++j) {
        solver.add(z3::implies(onWarp[op][free[j]], usedBefore[j - 1] || onWarp[op][free[j - 1]]));
      }
      for (std::size_t j = 0; j < free.size(); ++j) {
        usedBefore[j] = (usedBefore[j] || onWarp[op][free[j]]).simplify();
      }
    }
    const SymmetryOrderings symmetries = findSymmetries(graph);
    for (const auto& [first, second] : symmetries.before) {
      if (outOfTime()) return;
      precede({opSymmetry}, first, second, 0);
    }
  }

  // The assumption "every op ends by L" for L below the model's own: the start bounds and,
  // within the dependence family, the ALAP bounds at L.
  z3::expr latencyCapLiteral(Cycle bound) {
    if (const auto found = latencyCapLiterals.find(bound); found != latencyCapLiterals.end()) {
      return found->second;
    }
    const z3::expr capped = literal(fmt::format("latency_le_{}", bound));
    std::optional<std::vector<Cycle>> latest;
    if (earliest) latest = latestStarts(graph, ii, bound, *earliest);
    for (OpId op = 0; op < graph.numOps(); ++op) {
      clause({capped}, {by(op, bound - graph.duration(op))});
      if (latest) clause({capped, family(TwillFamily::kDependence)}, {by(op, (*latest)[op])});
    }
    if (!latest) clause({capped, family(TwillFamily::kDependence)}, {});
    latencyCapLiterals.emplace(bound, capped);
    return capped;
  }

  std::optional<Schedule> decode() {
    const z3::model model = solver.get_model();
    Schedule schedule;
    schedule.ii = ii;
    std::vector<WarpSet> warpSets;
    for (OpId op = 0; op < graph.numOps(); ++op) {
      Cycle t = 0;
      while (t < lastStart[op] && !model.eval(by(op, t), true).is_true()) ++t;
      schedule.start.push_back(t);
      WarpSet set = 0;
      for (int w = 0; w < warps(); ++w) {
        if (model.eval(onWarp[op][w], true).is_true()) set |= WarpSet{1} << w;
      }
      warpSets.push_back(set);
    }
    schedule.warps = std::move(warpSets);
    return schedule;
  }

  z3::check_result run(const z3::expr_vector& assumptions, double timeLimitSeconds) {
    z3::params parameters(context);
    const double ms = std::clamp(timeLimitSeconds * 1000.0, 1.0, 4.0e9);
    parameters.set("timeout", static_cast<unsigned>(ms));
    // Relevancy filtering only delays propagation in a model of clauses and cardinality rows.
    // (It was measured on the integer encoding, where it took the stand-in's first UNSAT checks
    // from 59 s to 6 s; on this one, with or without it, the stand-in's checks at II 18 take
    // 1.6-3.6 s in all, noise of the loaded machine.)
    parameters.set("smt.relevancy", 0U);
    solver.set(parameters);
    return solver.check(assumptions);
  }

  SmtAnswer check(const SmtQuery& query) {
    const auto begin = std::chrono::steady_clock::now();
    z3::expr_vector assumptions(context);
    std::vector<TwillFamily> enabled;
    for (TwillFamily f : kAllTwillFamilies) {
      if (query.families.has(f)) {
        assumptions.push_back(family(f));
        enabled.push_back(f);
      }
    }
    const bool singlesOut = !query.restrictions.sameWarpSet.empty();
    if (options.breakSymmetry && !singlesOut) assumptions.push_back(opSymmetry);
    std::optional<z3::expr> latencyCap;
    if (cap < latency) {
      latencyCap = latencyCapLiteral(cap);
      assumptions.push_back(*latencyCap);
    }
    std::optional<z3::expr> restriction;
    {
      z3::expr_vector parts(context);
      if (query.restrictions.maxWarpsUsed) {
        z3::expr_vector used(context);
        for (const auto& literal : warpUsed) used.push_back(literal);
        parts.push_back(z3::atmost(used, static_cast<unsigned>(*query.restrictions.maxWarpsUsed)));
      }
      if (query.restrictions.maxCrossWarpEdges) {
        z3::expr_vector crossing(context);
        for (const auto& literal : crossEdge) crossing.push_back(literal);
        parts.push_back(crossing.empty()
                            ? context.bool_val(true)
                            : z3::atmost(crossing, static_cast<unsigned>(
                                                       *query.restrictions.maxCrossWarpEdges)));
      }
      for (const auto& group : query.restrictions.sameWarpSet) {
        for (std::size_t i = 1; i < group.size(); ++i)
          parts.push_back(sameWarpSet(group[0], group[i]));
      }
      if (!parts.empty()) {
        const z3::expr literal =
            context.bool_const(fmt::format("restriction_{}", restrictionCount++).c_str());
        solver.add(z3::implies(literal, z3::mk_and(parts)));
        assumptions.push_back(literal);
        restriction = literal;
      }
    }

    SmtAnswer answer;
    const z3::check_result outcome = run(assumptions, query.timeLimitSeconds);
    if (outcome == z3::sat) {
      answer.status = ModelStatus::kFeasible;
      answer.schedule = decode();
    } else if (outcome == z3::unsat) {
      answer.status = ModelStatus::kInfeasible;
      if (query.wantCore) core(query, enabled, restriction, latencyCap, begin, answer);
    } else {
      answer.reason = solver.reason_unknown();
      answer.status = answer.reason.find("timeout") != std::string::npos ||
                              answer.reason.find("canceled") != std::string::npos
                          ? ModelStatus::kTimeout
                          : ModelStatus::kUnknown;
    }
    answer.seconds = secondsBetween(begin);
    return answer;
  }

  // The families of the unsat core of the last check, shrunk by deletion when asked: a family
  // is dropped when the rest stays UNSAT without it. Checks that time out keep the family.
  void core(const SmtQuery& query, const std::vector<TwillFamily>& enabled,
            const std::optional<z3::expr>& restriction, const std::optional<z3::expr>& latencyCap,
            std::chrono::steady_clock::time_point begin, SmtAnswer& answer) {
    const z3::expr_vector unsatCore = solver.unsat_core();
    std::vector<TwillFamily> inCore;
    for (TwillFamily f : enabled) {
      for (unsigned i = 0; i < unsatCore.size(); ++i) {
        if (z3::eq(unsatCore[i], family(f))) inCore.push_back(f);
      }
    }
    bool withRestriction = false;
    if (restriction) {
      for (unsigned i = 0; i < unsatCore.size(); ++i) {
        withRestriction = withRestriction || z3::eq(unsatCore[i], *restriction);
      }
    }
    if (query.minimizeCore) {
      for (std::size_t i = 0; i < inCore.size();) {
        const double left = query.timeLimitSeconds - secondsBetween(begin);
        if (left <= 0.0) break;
        z3::expr_vector trial(context);
        for (std::size_t j = 0; j < inCore.size(); ++j) {
          if (j != i) trial.push_back(family(inCore[j]));
        }
        if (withRestriction) trial.push_back(*restriction);
        if (latencyCap) trial.push_back(*latencyCap);
        if (options.breakSymmetry && query.restrictions.sameWarpSet.empty()) {
          trial.push_back(opSymmetry);
        }
        if (run(trial, left) == z3::unsat) {
          inCore.erase(inCore.begin() + static_cast<std::ptrdiff_t>(i));
        } else {
          ++i;
        }
      }
    }
    answer.core = std::move(inCore);
    answer.coreHasRestriction = withRestriction;
  }
};

namespace {

// Memory of a built model after its first check (RSS growth): a Z3 context of about 10 MB and
// 160-320 bytes per literal occurrence (literalCount), measured on Triton's dumps in raw cycles
// from (II, L) = (260, 1235) to (2000, 8000), 40-925 MB (docs/exact.md, "The SMT model's
// size"). The estimate takes 32 MB and 350 bytes, above every point measured: later checks
// add learned clauses.
constexpr std::int64_t kSmtContextBytes = 32'000'000;
constexpr double kSmtBytesPerLiteral = 350.0;

// Wall time of a model beyond its checks (SmtModelCost), measured with `gaus-bench
// twill-model-cost` on the 2-core development machine at load 6-8 (2026-11-27; 21 models from
// toy_fa to Triton's FA dump in raw cycles; docs/exact.md, "The SMT model's time", has the
// table): building took 0.7-2.6 us per literal (plus the Z3 context), tearing down 0.1-0.4 us,
// and Z3's load at the first check (a check with a timeout of 1 ms: it returns only once the
// model is loaded) 0.3-1.6 us per literal on models without register rows (Triton's dumps, 0.15-
// 4.8 M literals) and up to 0.16 us per squared register row term on top of that on those with
// them (108 s for tests/data/twill/fa_blackwell_galloping.yaml at L 612: 2.9 M literals, 685 M
// squared terms). The rates below are above every point measured (the load by 1.3 times at
// least), since a model refused a little early only leaves an II undecided, while one loaded too
// late breaks the time limit.
constexpr double kSmtBuildSeconds = 0.05;
constexpr double kSmtBuildSecondsPerLiteral = 3.0e-6;
constexpr double kSmtLoadSecondsPerLiteral = 2.5e-6;
constexpr double kSmtLoadSecondsPerSquaredRowTerm = 0.2e-6;
constexpr double kSmtTeardownSecondsPerLiteral = 0.6e-6;

// The leaves of an expression tree (shared subterms counted at each use, as in the assertion).
std::int64_t leafCount(const z3::expr& e) {
  if (!e.is_app() || e.num_args() == 0) return 1;
  std::int64_t leaves = 0;
  for (unsigned i = 0; i < e.num_args(); ++i) leaves += leafCount(e.arg(i));
  return leaves;
}

}  // namespace

std::int64_t SmtModelSize::bytes() const {
  return kSmtContextBytes +
         static_cast<std::int64_t>(static_cast<double>(literals) * kSmtBytesPerLiteral);
}

SmtModelCost SmtModelSize::cost() const {
  const auto literalCount = static_cast<double>(literals);
  SmtModelCost cost;
  cost.build = kSmtBuildSeconds + literalCount * kSmtBuildSecondsPerLiteral;
  cost.load = literalCount * kSmtLoadSecondsPerLiteral +
              static_cast<double>(registerRowTermsSquared) * kSmtLoadSecondsPerSquaredRowTerm;
  cost.teardown = literalCount * kSmtTeardownSecondsPerLiteral;
  return cost;
}

SmtModelSize estimateSmtModelSize(const Problem& problem, std::int32_t ii, Cycle latency,
                                  const SmtModelOptions& options) {
  const Graph& graph = *problem.graph;
  const Machine& machine = *problem.machine;
  const std::int64_t warps = machine.warps;
  const OpId count = graph.numOps();
  SmtModelSize size;
  // Cycles t with a clause "t(op) <= t ..." (0..lastStart, none when it is negative).
  std::vector<std::int64_t> cycles(static_cast<std::size_t>(count));
  for (OpId op = 0; op < count; ++op) {
    const Cycle last = latency - graph.duration(op);
    cycles[op] = std::max<Cycle>(0, last + 1);
    // Order and residue literals, the chain and residue clauses, the one-hot row, the warps.
    size.booleans += std::max<Cycle>(0, last) + ii + warps;
    size.literals += 2 * std::max<Cycle>(0, last - 1) + 3 * cycles[op] + ii + warps;
    // The dependence family's ASAP and ALAP bounds, warp uniqueness's row, the variable-latency
    // warp's rule.
    size.literals += 4 + 1 + warps + (machine.variableLatencyWarp ? 1 + warps : 0);
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    const OpId u = graph.edgeSource(e);
    const OpId v = graph.edgeTarget(e);
    if (u == v) continue;
    // The cross-edge literal and its clauses, the precedence clauses, the spill delay's.
    size.booleans += 1;
    size.literals += 6 * warps + 3 * cycles[v];
    if (graph.spillCost(u) > 0) size.literals += 4 * cycles[v];
  }
  // Capacity: a row per limited unit and residue over the reserved cycles.
  for (OpId op = 0; op < count; ++op) {
    for (const auto& block : graph.reservation(op)) {
      if (machine.resources[block.resource].limited()) {
        size.literals += static_cast<std::int64_t>(ii) * (block.length + 1);
      }
    }
  }
  // Liveness and lifetime: per consumer, a clause per cycle of the producer's horizon (its
  // register liveness) and of each stage its value may outlive (memory rings).
  std::int64_t worstRegisters = 0;
  std::int64_t registerTerms = 0;
  // Per residue, the terms of the register row of each warp (every value's liveness at the
  // absolute cycles of that residue).
  std::vector<std::int64_t> registerRowTerms(static_cast<std::size_t>(ii), 0);
  for (OpId op = 0; op < count; ++op) {
    const auto outs = graph.outEdges(op);
    if (outs.empty()) continue;
    const Cycle horizon = liveHorizon(graph, op, ii, latency);
    const auto outDegree = static_cast<std::int64_t>(outs.size());
    const std::int64_t stages = (horizon + ii - 1) / ii;
    for (const auto& print : graph.footprints(op)) {
      if (print.amount <= 0) continue;
      size.booleans += stages;
      size.literals += stages * (1 + 3 * outDegree * cycles[op]);
    }
    if (machine.registerLimit && graph.regs(op) != 0) {
      size.booleans += horizon;
      size.literals += 3 * outDegree * horizon;
      worstRegisters += graph.regs(op) * stages;
      registerTerms += 2 * warps * horizon;
      for (std::int32_t rho = 0; rho < ii; ++rho) {
        registerRowTerms[static_cast<std::size_t>(rho)] +=
            horizon / ii + (rho < horizon % ii ? 1 : 0);
      }
    }
  }
  // The register rows, per warp and residue, when some schedule could exceed the limit.
  if (machine.registerLimit && worstRegisters > *machine.registerLimit) {
    size.literals += registerTerms + warps * ii;
    for (const std::int64_t terms : registerRowTerms) {
      size.registerRowTermsSquared += warps * terms * terms;
    }
  }
  // Blocking concurrency: per op with a blocking input and per other op, the sharing literal
  // and the clauses that keep the other's busy residues apart from the op's.
  for (OpId op = 0; op < count; ++op) {
    bool blocking = false;
    for (EdgeId e : graph.inEdges(op)) blocking = blocking || graph.edgeBlocking(e);
    if (!blocking) continue;
    for (OpId other = 0; other < count; ++other) {
      if (other == op) continue;
      const std::int64_t window = std::max<std::int64_t>(1, graph.reservationLength(other));
      size.booleans += 1;
      size.literals += 3 * warps + (window >= ii ? 2 : 4 * ii * window);
    }
  }
  if (options.breakSymmetry) {
    // Warps in first-use order: op i's clause names the warp's use by ops 0..i - 1.
    size.literals += warps * (static_cast<std::int64_t>(count) * (count + 3) / 2);
    for (const auto& [first, second] : findSymmetries(graph).before) {
      size.literals += 3 * cycles[second];
    }
  }
  return size;
}

TwillSmtModel::TwillSmtModel(std::unique_ptr<Impl> impl, SmtModelSize estimatedSize)
    : impl_(std::move(impl)), estimatedSize_(estimatedSize) {}

Expected<std::unique_ptr<TwillSmtModel>> TwillSmtModel::buildWithin(
    const Problem& problem, std::int32_t ii, Cycle latency, const SmtModelOptions& options,
    const Deadline& deadline, std::optional<SmtModelSize> estimatedSize) {
  const SmtModelSize size =
      estimatedSize ? *estimatedSize : estimateSmtModelSize(problem, ii, latency, options);
  const SmtModelCost cost = size.cost();
  if (cost.total() > deadline.remainingSeconds()) {
    return Error{fmt::format(
        "would take about {:.1f}s to build ({:.1f}s), load into Z3 at its first check ({:.1f}s) "
        "and tear down ({:.1f}s), estimated from its {} literals and {} squared register row "
        "terms, and {:.1f}s are left",
        cost.total(), cost.build, cost.load, cost.teardown, size.literals,
        size.registerRowTermsSquared, deadline.remainingSeconds())};
  }
  const auto begin = std::chrono::steady_clock::now();
  auto impl = std::make_unique<Impl>(problem, ii, latency, options);
  if (!impl->build(deadline)) {
    return Error{fmt::format("ran out of time {:.1f}s into its build (estimated at {:.1f}s)",
                             secondsBetween(begin), cost.build)};
  }
  if (cost.load + cost.teardown > deadline.remainingSeconds()) {
    return Error{fmt::format(
        "was built in {:.1f}s (estimated at {:.1f}s), and loading it into Z3 ({:.1f}s) and "
        "tearing it down ({:.1f}s) would not end in the {:.1f}s left",
        secondsBetween(begin), cost.build, cost.load, cost.teardown, deadline.remainingSeconds())};
  }
  return std::unique_ptr<TwillSmtModel>(new TwillSmtModel(std::move(impl), size));
}

TwillSmtModel::~TwillSmtModel() = default;

void TwillSmtModel::setLatency(Cycle latency) {
  impl_->cap = std::min(latency, impl_->latency);
}

Cycle TwillSmtModel::latency() const {
  return impl_->cap;
}

Cycle TwillSmtModel::builtLatency() const {
  return impl_->latency;
}

SmtAnswer TwillSmtModel::check(const SmtQuery& query) {
  return impl_->check(query);
}

const SmtModelSize& TwillSmtModel::estimatedSize() const {
  return estimatedSize_;
}

std::int64_t TwillSmtModel::literalCount() const {
  std::int64_t literals = 0;
  const z3::expr_vector assertions = impl_->solver.assertions();
  for (unsigned i = 0; i < assertions.size(); ++i) literals += leafCount(assertions[i]);
  return literals;
}

SmtAnswer checkOnce(const Problem& problem, std::int32_t ii, Cycle latency,
                    const SmtModelOptions& options, const SmtQuery& query) {
  const auto begin = std::chrono::steady_clock::now();
  const Deadline deadline(query.timeLimitSeconds);
  auto model = TwillSmtModel::buildWithin(problem, ii, latency, options, deadline);
  if (!model) {
    SmtAnswer answer;
    answer.status = ModelStatus::kTimeout;
    answer.notBuilt = model.error();
    answer.seconds = secondsBetween(begin);
    return answer;
  }
  SmtQuery within = query;
  // What is left after the build, less its teardown, which ends the call too.
  within.timeLimitSeconds =
      std::max(0.0, deadline.remainingSeconds() - (*model)->estimatedSize().cost().teardown);
  return (*model)->check(within);
}

std::int32_t countWarpsUsed(const Schedule& schedule) {
  WarpSet all = 0;
  if (schedule.warps) {
    for (WarpSet set : *schedule.warps) all |= set;
  }
  return std::popcount(all);
}

std::int32_t countCrossWarpEdges(const Graph& graph, const Schedule& schedule) {
  if (!schedule.warps) return 0;
  std::int32_t crossing = 0;
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    const OpId u = graph.edgeSource(e);
    const OpId v = graph.edgeTarget(e);
    if (u != v && (*schedule.warps)[u] != (*schedule.warps)[v]) ++crossing;
  }
  return crossing;
}

}  // namespace gaus::exact::detail
