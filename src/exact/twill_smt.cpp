// The joint SWP + WS model at a fixed (II, L): phase 2 of Twill (Soi et al., OSDI'26, arXiv
// 2512.18134, section 4, Figs. 4-6), as restated in TWILL.md section 3, on Z3 (QF_LIA plus
// pseudo-Boolean constraints) instead of Yices2.
//
// Variables: start t(v) = II k(v) + r(v) with residue 0 <= r(v) < II and 0 <= t(v) <=
// L - duration(v); one Boolean per op and warp (the op's warp set). Every constraint of a family
// is guarded by that family's literal, and each check assumes the literals of the enabled
// families, so an UNSAT answer names the blocking families through Z3's unsat core.
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
// - Register rows are pseudo-Boolean over literals "value live at absolute cycle tau" built from
//   bound atoms on the start times, summed over the cycles of one residue (a linear sum of
//   if-then-else terms over lifetime quotients was 15x slower on the Blackwell kernel).
// - Z3 runs with smt.relevancy=0 and smt.arith.solver=2 (measured; see run()).
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
    build();
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
  std::vector<z3::expr> start, residue;
  std::vector<std::vector<z3::expr>> onWarp;  // [op][warp]
  std::vector<std::optional<z3::expr>> liveEnd;
  std::vector<z3::expr> warpUsed;
  std::vector<z3::expr> crossEdge;
  std::int32_t restrictionCount = 0;
  std::optional<std::vector<Cycle>> earliest;    // modulo ASAP at II; none: no room at all
  std::map<Cycle, z3::expr> latencyCapLiterals;  // L below `latency` -> its assumption

  z3::expr integer(std::int64_t value) { return context.int_val(static_cast<int64_t>(value)); }
  z3::expr family(TwillFamily f) { return familyLiteral[static_cast<std::size_t>(f)]; }
  void add(TwillFamily f, const z3::expr& constraint) {
    solver.add(z3::implies(family(f), constraint));
  }

  int warps() const { return machine.warps; }

  z3::expr sameWarpSet(OpId a, OpId b) {
    z3::expr_vector equal(context);
    for (int w = 0; w < warps(); ++w) equal.push_back(onWarp[a][w] == onWarp[b][w]);
    return z3::mk_and(equal);
  }
  z3::expr disjointWarpSets(OpId a, OpId b) {
    z3::expr_vector apart(context);
    for (int w = 0; w < warps(); ++w) apart.push_back(!(onWarp[a][w] && onWarp[b][w]));
    return z3::mk_and(apart);
  }
  // (difference mod II) in [low, high], for a difference in (-II, 2 II), as a disjunction of
  // linear atoms (cheaper for the arithmetic solver than nested if-then-else terms).
  z3::expr moduloInRange(const z3::expr& difference, std::int64_t low, std::int64_t high) {
    z3::expr_vector cases(context);
    for (std::int64_t shift : {std::int64_t{0}, std::int64_t{ii}, -std::int64_t{ii}}) {
      const z3::expr d = difference + integer(shift);
      cases.push_back(d >= integer(low) && d <= integer(high) && d >= 0 && d < integer(ii));
    }
    return z3::mk_or(cases);
  }

  void build() {
    const OpId count = graph.numOps();
    for (OpId op = 0; op < count; ++op) {
      const z3::expr t = context.int_const(fmt::format("t_{}", op).c_str());
      const z3::expr r = context.int_const(fmt::format("r_{}", op).c_str());
      const z3::expr k = context.int_const(fmt::format("k_{}", op).c_str());
      solver.add(r >= 0 && r < integer(ii) && k >= 0 && t == integer(ii) * k + r);
      solver.add(t >= 0 && t <= integer(latency - graph.duration(op)));
      start.push_back(t);
      residue.push_back(r);
      std::vector<z3::expr> row;
      for (int w = 0; w < warps(); ++w) {
        row.push_back(context.bool_const(fmt::format("w_{}_{}", op, w).c_str()));
      }
      // Every op runs somewhere. Structural, not part of the warp-uniqueness family: with that
      // family off an op may be replicated on several warps, but never on none (which would
      // make every warp family vacuous and put uniqueness in every unsat core).
      z3::expr_vector any(context);
      for (const auto& literal : row) any.push_back(literal);
      solver.add(z3::mk_or(any));
      onWarp.push_back(std::move(row));
    }
    for (int w = 0; w < warps(); ++w) {
      z3::expr_vector any(context);
      for (OpId op = 0; op < count; ++op) any.push_back(onWarp[op][w]);
      warpUsed.push_back(count > 0 ? z3::mk_or(any) : context.bool_val(false));
    }
    for (EdgeId e = 0; e < graph.numEdges(); ++e) {
      const OpId u = graph.edgeSource(e);
      const OpId v = graph.edgeTarget(e);
      if (u != v) crossEdge.push_back(!sameWarpSet(u, v));
    }
    buildLiveness();
    buildDependence();
    buildCapacity();
    buildMemory();
    buildWarpUniqueness();
    buildVariableLatency();
    buildRegisterLimit();
    buildSpillDelay();
    buildBlockingConcurrency();
    if (options.breakSymmetry) buildSymmetryBreaking();
  }

  // Lifetimes of values with a memory footprint: end >= t(op) and >= every consumer's start +
  // distance II (core liveInterval). Only lower bounds on end: a larger end only tightens the
  // memory rows, so the solver may take the exact one whenever a solution exists.
  void buildLiveness() {
    const OpId count = graph.numOps();
    liveEnd.assign(static_cast<std::size_t>(count), std::nullopt);
    for (OpId op = 0; op < count; ++op) {
      if (graph.footprints(op).empty()) continue;
      const z3::expr end = context.int_const(fmt::format("end_{}", op).c_str());
      solver.add(end >= start[op]);
      for (EdgeId e : graph.outEdges(op)) {
        solver.add(end >= start[graph.edgeTarget(e)] + integer(graph.edgeDistance(e)) * ii);
      }
      // The lifetime as q II + m. No row reads q and m since the per-residue memory count is
      // gone; they stay because they steer Z3's search, and its first model is the schedule
      // returned: without them FA on Hopper comes back with the second sub-tile's consumer
      // holding 130 live registers instead of 162, and codegen's split 24/240/224 instead of
      // FA3's 24/240/240 (codegen_tests). Nothing the engine optimizes tells the two apart.
      const z3::expr q = context.int_const(fmt::format("lq_{}", op).c_str());
      const z3::expr m = context.int_const(fmt::format("lm_{}", op).c_str());
      solver.add(q >= 0 && m >= 0 && m < integer(ii) && end - start[op] == integer(ii) * q + m);
      liveEnd[op] = end;
    }
  }

  // Literals "the value of op is live at absolute cycle tau" for tau in [0, horizon): t(op) <=
  // tau and some consumer starts (plus distance II) after tau. Built from bound atoms only, which
  // the arithmetic solver propagates cheaply; the register rows over them are pseudo-Boolean.
  std::vector<z3::expr> liveLiterals(OpId op) {
    Cycle horizon = 0;
    for (EdgeId e : graph.outEdges(op)) {
      const OpId consumer = graph.edgeTarget(e);
      horizon = std::max(horizon, latency - graph.duration(consumer) +
                                      static_cast<Cycle>(graph.edgeDistance(e)) * ii);
    }
    std::vector<z3::expr> live;
    for (Cycle tau = 0; tau < horizon; ++tau) {
      z3::expr_vector later(context);
      for (EdgeId e : graph.outEdges(op)) {
        later.push_back(start[graph.edgeTarget(e)] +
                            integer(static_cast<Cycle>(graph.edgeDistance(e)) * ii) >=
                        integer(tau + 1));
      }
      const z3::expr literal = context.bool_const(fmt::format("live_{}_{}", op, tau).c_str());
      solver.add(literal == (start[op] <= integer(tau) && z3::mk_or(later)));
      live.push_back(literal);
    }
    return live;
  }

  void buildDependence() {
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
      add(TwillFamily::kDependence,
          start[op] >= integer((*earliest)[op]) && start[op] <= integer((*latest)[op]));
    }
    for (EdgeId e = 0; e < graph.numEdges(); ++e) {
      const OpId u = graph.edgeSource(e);
      const OpId v = graph.edgeTarget(e);
      const Cycle slack = static_cast<Cycle>(graph.edgeDistance(e)) * ii - graph.edgeDelay(e);
      if (u == v) {
        if (slack < 0) add(TwillFamily::kDependence, context.bool_val(false));
        continue;
      }
      add(TwillFamily::kDependence, start[v] + integer(slack) >= start[u]);
    }
  }

  void buildCapacity() {
    struct Item {
      OpId op;
      ReservationBlock block;
    };
    for (ResourceId f = 0; f < machine.numResources(); ++f) {
      if (!machine.resources[f].limited()) continue;
      const std::int64_t capacity = *machine.resources[f].capacity;
      std::vector<Item> items;
      std::int64_t demand = 0;
      for (OpId op = 0; op < graph.numOps(); ++op) {
        for (const auto& block : graph.reservation(op)) {
          if (block.resource != f || block.length == 0) continue;
          items.push_back({op, block});
          demand += static_cast<std::int64_t>(block.units) * block.length;
        }
      }
      if (demand <= capacity) continue;
      if (demand > capacity * ii) {
        add(TwillFamily::kCapacity, context.bool_val(false));
        continue;
      }
      if (capacity == 1) {
        // Pairwise: two unit-capacity reservations [a, a + la) and [b, b + lb) modulo II are
        // disjoint iff (b - a) mod II lies in [la, II - lb].
        for (std::size_t i = 0; i < items.size(); ++i) {
          for (std::size_t j = i + 1; j < items.size(); ++j) {
            const Item& x = items[i];
            const Item& y = items[j];
            const std::int64_t lx = x.block.length;
            const std::int64_t ly = y.block.length;
            if (lx + ly > ii) {
              add(TwillFamily::kCapacity, context.bool_val(false));
              continue;
            }
            const std::int64_t shift = (((y.block.begin - x.block.begin) % ii) + ii) % ii;
            if (x.op == y.op) {
              if (shift < lx || shift > ii - ly)
                add(TwillFamily::kCapacity, context.bool_val(false));
              continue;
            }
            // (r_y - r_x + shift) mod II in [lx, II - ly], with r_y - r_x + shift in (-II, 2 II).
            add(TwillFamily::kCapacity,
                moduloInRange(residue[y.op] - residue[x.op] + integer(shift), lx, ii - ly));
          }
        }
        continue;
      }
      for (std::int32_t rho = 0; rho < ii; ++rho) {
        z3::expr_vector terms(context);
        for (const Item& item : items) {
          for (std::int32_t j = 0; j < item.block.length; ++j) {
            const std::int64_t r = (((rho - item.block.begin - j) % ii) + ii) % ii;
            terms.push_back(
                z3::ite(residue[item.op] == integer(r), integer(item.block.units), integer(0)));
          }
        }
        add(TwillFamily::kCapacity, z3::sum(terms) <= integer(capacity));
      }
    }
  }

  void buildMemory() {
    for (MemoryId m = 0; m < static_cast<MemoryId>(machine.memories.size()); ++m) {
      const std::int64_t capacity = machine.memories[m].capacity;
      std::vector<std::pair<OpId, std::int64_t>> users;
      for (OpId op = 0; op < graph.numOps(); ++op) {
        for (const auto& print : graph.footprints(op)) {
          if (print.memory == m && print.amount > 0) users.emplace_back(op, print.amount);
        }
      }
      if (users.empty()) continue;
      // The verifier's rule for modulo-warp memories (core ringBuffers): buffers >=
      // ceil(lifetime / II), and at least one for a value that has a consumer (a streaming
      // load's out-edges have delay 0, so its lifetime may be 0 cycles, but its tile still needs
      // a home). Lower bounds only: more buffers only tighten the row.
      z3::expr_vector total(context);
      for (const auto& [op, amount] : users) {
        const z3::expr buffers = context.int_const(fmt::format("buf_{}_{}", op, m).c_str());
        const std::int64_t least = graph.outEdges(op).empty() ? 0 : 1;
        solver.add(buffers >= integer(least) && integer(ii) * buffers >= *liveEnd[op] - start[op]);
        total.push_back(integer(amount) * buffers);
      }
      add(TwillFamily::kMemory, z3::sum(total) <= integer(capacity));
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

  void buildRegisterLimit() {
    if (!machine.registerLimit) return;
    const std::int64_t limit = *machine.registerLimit;
    std::vector<OpId> holders;
    std::vector<std::vector<z3::expr>> live;
    std::int64_t worst = 0;
    for (OpId op = 0; op < graph.numOps(); ++op) {
      if (graph.regs(op) == 0 || graph.outEdges(op).empty()) continue;
      holders.push_back(op);
      live.push_back(liveLiterals(op));
      worst += graph.regs(op) * static_cast<std::int64_t>((live.back().size() + ii - 1) / ii);
    }
    if (worst <= limit) return;
    for (int w = 0; w < warps(); ++w) {
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

  void buildSpillDelay() {
    for (EdgeId e = 0; e < graph.numEdges(); ++e) {
      const OpId u = graph.edgeSource(e);
      const OpId v = graph.edgeTarget(e);
      if (u == v || graph.spillCost(u) == 0) continue;
      const Cycle slack =
          static_cast<Cycle>(graph.edgeDistance(e)) * ii - graph.edgeDelay(e) - graph.spillCost(u);
      add(TwillFamily::kSpillDelay, sameWarpSet(u, v) || start[v] + integer(slack) >= start[u]);
    }
  }

  void buildBlockingConcurrency() {
    for (OpId op = 0; op < graph.numOps(); ++op) {
      bool blocking = false;
      for (EdgeId e : graph.inEdges(op)) blocking = blocking || graph.edgeBlocking(e);
      if (!blocking) continue;
      for (OpId other = 0; other < graph.numOps(); ++other) {
        if (other == op) continue;
        const std::int64_t window = std::max<std::int64_t>(1, graph.reservationLength(other));
        const z3::expr apart = disjointWarpSets(op, other);
        if (window >= ii) {
          add(TwillFamily::kBlockingConcurrency, apart);
        } else {
          add(TwillFamily::kBlockingConcurrency,
              apart || moduloInRange(residue[op] - residue[other], window, ii - 1));
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
      solver.add(z3::implies(opSymmetry, start[first] <= start[second]));
    }
  }

  // The assumption "every op ends by L" for L below the model's own: the start bounds and,
  // within the dependence family, the ALAP bounds at L.
  z3::expr latencyCapLiteral(Cycle bound) {
    if (const auto found = latencyCapLiterals.find(bound); found != latencyCapLiterals.end()) {
      return found->second;
    }
    const z3::expr literal = context.bool_const(fmt::format("latency_le_{}", bound).c_str());
    std::optional<std::vector<Cycle>> latest;
    if (earliest) latest = latestStarts(graph, ii, bound, *earliest);
    for (OpId op = 0; op < graph.numOps(); ++op) {
      solver.add(z3::implies(literal, start[op] <= integer(bound - graph.duration(op))));
      if (latest) {
        solver.add(z3::implies(literal && family(TwillFamily::kDependence),
                               start[op] <= integer((*latest)[op])));
      }
    }
    if (!latest) {
      solver.add(z3::implies(literal && family(TwillFamily::kDependence), context.bool_val(false)));
    }
    latencyCapLiterals.emplace(bound, literal);
    return literal;
  }

  std::optional<Schedule> decode() {
    const z3::model model = solver.get_model();
    Schedule schedule;
    schedule.ii = ii;
    std::vector<WarpSet> warpSets;
    for (OpId op = 0; op < graph.numOps(); ++op) {
      schedule.start.push_back(model.eval(start[op], true).get_numeral_int64());
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
    // Without relevancy filtering and with the older simplex-based arithmetic solver, the
    // UNSAT checks of the sub-tiled Blackwell stand-in at II 18 took 6 s instead of 59 s for
    // its first eight L, and fa_fwd_blackwell 2.8 s instead of 7.0 s (docs/benchmarks.md,
    // "Twill on realistic graphs"): the model is mostly bound atoms and pseudo-Boolean rows,
    // which relevancy filtering only delays.
    parameters.set("smt.relevancy", 0U);
    parameters.set("smt.arith.solver", 2U);
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

TwillSmtModel::TwillSmtModel(const Problem& problem, std::int32_t ii, Cycle latency,
                             const SmtModelOptions& options)
    : impl_(std::make_unique<Impl>(problem, ii, latency, options)) {}

TwillSmtModel::~TwillSmtModel() = default;

void TwillSmtModel::setLatency(Cycle latency) {
  impl_->cap = std::min(latency, impl_->latency);
}

Cycle TwillSmtModel::latency() const {
  return impl_->cap;
}

SmtAnswer TwillSmtModel::check(const SmtQuery& query) {
  return impl_->check(query);
}

SmtAnswer checkOnce(const Problem& problem, std::int32_t ii, Cycle latency,
                    const SmtModelOptions& options, const SmtQuery& query) {
  TwillSmtModel model(problem, ii, latency, options);
  return model.check(query);
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
