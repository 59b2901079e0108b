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
// - An op on k > 1 warps takes an aligned warp group (core isWarpGroup), one literal per group.
// - One instruction stream per warp (beyond the paper, when the machine sets warpIssueWidth):
//   an op holds an issue slot of each warp of its set at every cycle it executes (its
//   reservation's length, at least 1), and a warp has the width's slots per residue. The paper lets
//   the ops of a warp overlap freely unless an edge orders them, so FA4's correction never needs a
//   warp of its own (docs/exact.md "Why not five").
// - Symmetry breaking: warps, and aligned blocks of warps, that nothing tells apart are used in
//   first-use order (orderWarps); interchangeable ops are ordered (symmetry.hpp).

//
// Each family is a function given what it reads (the frame, the literals it constrains) and the
// writer it adds to; buildSmtModel runs them in order.

#include <algorithm>
#include <functional>
#include <numeric>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/register_file.hpp>
#include <gaus/core/warp_rules.hpp>

#include "../start_schedule.hpp"
#include "../symmetry.hpp"
#include "smt_encoding.hpp"

namespace gaus::exact::detail {

namespace {

// Warp w's literals of ops a and b are warp w - 1's (both inside a warp group, whose warps share
// one literal), so a clause over them at w repeats the one at w - 1.
bool sameLiterals(const OpLiterals& onWarp, OpId a, OpId b, int w) {
  return w > 0 && z3::eq(onWarp[a][w], onWarp[a][w - 1]) && z3::eq(onWarp[b][w], onWarp[b][w - 1]);
}

// The order, residue and warp literals of every op, the warps used and the cross-warp edges.
void declareVariables(const SmtFrame& frame, SmtVariables& vars, ClauseWriter& writer,
                      BuildClock& clock) {
  const OpId count = frame.graph.numOps();
  const int warps = frame.machine.warps;
  z3::context& context = writer.context();
  for (OpId op = 0; op < count; ++op) {
    if (clock.outOfTime()) return;
    const Cycle lastStart = frame.latency - frame.graph.duration(op);
    vars.starts.declare(lastStart);
    // No start fits within L: only a larger L helps, so no family is to blame.
    if (lastStart < 0) writer.require(context.bool_val(false));
    for (Cycle t = 1; t < lastStart; ++t) {
      writer.clause({}, {!vars.starts.by(op, t - 1), vars.starts.by(op, t)});
    }
    // The residue of the start, one-hot: the residue of the cycle it starts at is true, and
    // at most one is, so it is exactly that one.
    std::vector<z3::expr> residues;
    z3::expr_vector row(context);
    for (std::int32_t r = 0; r < frame.ii; ++r) {
      residues.push_back(writer.literal(fmt::format("r_{}_{}", op, r)));
      row.push_back(residues.back());
    }
    for (Cycle t = 0; t <= lastStart; ++t) {
      writer.clause({}, {!vars.starts.by(op, t), vars.starts.by(op, t - 1),
                         residues[static_cast<std::size_t>(t % frame.ii)]});
    }
    writer.require(z3::atmost(row, 1));
    vars.residue.push_back(std::move(residues));

    // An op on k > 1 warps takes an aligned group (core isWarpGroup): one literal per group,
    // shared by the group's warps, and none for warps past the last whole group.
    const int groupSize = frame.graph.minWarps(op);
    std::vector<z3::expr> warpsOf;
    z3::expr_vector any(context);
    for (int w = 0; w < warps; ++w) {
      const int first = w / groupSize * groupSize;
      if (first + groupSize > warps) {
        warpsOf.push_back(context.bool_val(false));
      } else if (w == first) {
        warpsOf.push_back(writer.literal(fmt::format("w_{}_{}", op, w)));
        any.push_back(warpsOf.back());
      } else {
        warpsOf.push_back(warpsOf[static_cast<std::size_t>(first)]);
      }
    }
    // Every op runs somewhere. Structural, not part of the warp-uniqueness family: with that
    // family off an op may be replicated on several warps, but never on none (which would
    // make every warp family vacuous and put uniqueness in every unsat core).
    writer.require(z3::mk_or(any));
    vars.onWarp.push_back(std::move(warpsOf));
  }
  for (int w = 0; w < warps; ++w) {
    z3::expr_vector any(context);
    for (OpId op = 0; op < count; ++op) any.push_back(vars.onWarp[op][w]);
    vars.warpUsed.push_back(count > 0 ? z3::mk_or(any) : context.bool_val(false));
  }
  // crossEdge is forced true when the warp sets differ (one direction suffices: it is only
  // ever bounded from above, by the cross-edge count and as the spill delay's condition).
  for (EdgeId e = 0; e < frame.graph.numEdges(); ++e) {
    const OpId u = frame.graph.edgeSource(e);
    const OpId v = frame.graph.edgeTarget(e);
    if (u == v) continue;
    vars.crossEdge.push_back(writer.literal(fmt::format("cross_{}", e)));
    for (int w = 0; w < warps; ++w) {
      if (sameLiterals(vars.onWarp, u, v, w)) continue;
      writer.clause({}, {!vars.onWarp[u][w], vars.onWarp[v][w], vars.crossEdge.back()});
      writer.clause({}, {vars.onWarp[u][w], !vars.onWarp[v][w], vars.crossEdge.back()});
    }
  }
}

void addDependence(const SmtFrame& frame, const StartLiterals& starts, ClauseWriter& writer,
                   BuildClock& clock) {
  const z3::expr dependence = writer.guard(TwillFamily::kDependence);
  // Implied bounds: ASAP over all edges at this II and ALAP from L. They prune the search and
  // decide at once when the dependences alone leave no room within L.
  std::optional<std::vector<Cycle>> latest;
  if (frame.earliest && frame.facts->order()) {
    latest =
        latestStarts(frame.graph, *frame.facts->order(), frame.ii, frame.latency, *frame.earliest);
  }
  if (!latest) {
    writer.add(TwillFamily::kDependence, writer.context().bool_val(false));
    return;
  }
  for (OpId op = 0; op < frame.graph.numOps(); ++op) {
    writer.clause({dependence}, {!starts.by(op, (*frame.earliest)[op] - 1)});
    writer.clause({dependence}, {starts.by(op, (*latest)[op])});
  }
  for (EdgeId e = 0; e < frame.graph.numEdges(); ++e) {
    if (clock.outOfTime()) return;
    const OpId u = frame.graph.edgeSource(e);
    const OpId v = frame.graph.edgeTarget(e);
    const Cycle slack =
        static_cast<Cycle>(frame.graph.edgeDistance(e)) * frame.ii - frame.graph.edgeDelay(e);
    if (u == v) {
      if (slack < 0) writer.add(TwillFamily::kDependence, writer.context().bool_val(false));
      continue;
    }
    precede(starts, writer, {dependence}, u, v, slack);
  }
}

// Per unit and residue, the units reserved there: a cardinality (or pseudo-Boolean) row over
// the residue literals.
void addCapacity(const SmtFrame& frame, const OpLiterals& residue, ClauseWriter& writer,
                 BuildClock& clock) {
  const std::int32_t ii = frame.ii;
  for (ResourceId f = 0; f < frame.machine.numResources(); ++f) {
    if (!frame.machine.resources[f].limited()) continue;
    const std::int64_t capacity = *frame.machine.resources[f].capacity;
    std::int64_t demand = 0;
    for (OpId op = 0; op < frame.graph.numOps(); ++op) {
      for (const auto& block : frame.graph.reservation(op)) {
        if (block.resource == f) demand += static_cast<std::int64_t>(block.units) * block.length;
      }
    }
    if (demand <= capacity) continue;
    if (demand > capacity * ii) {
      writer.add(TwillFamily::kCapacity, writer.context().bool_val(false));
      continue;
    }
    for (std::int32_t rho = 0; rho < ii; ++rho) {
      if (clock.outOfTime()) return;
      z3::expr_vector terms(writer.context());
      std::vector<int> weights;
      bool unitWeights = true;
      for (OpId op = 0; op < frame.graph.numOps(); ++op) {
        for (const auto& block : frame.graph.reservation(op)) {
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
      writer.add(TwillFamily::kCapacity,
                 unitWeights ? z3::atmost(terms, bound)
                             : z3::pble(terms, weights.data(), static_cast<int>(bound)));
    }
  }
}

// The literal "the value of op is live k II cycles after its start", k >= 1, forced by every
// consumer that starts (plus distance II) later than that; one direction suffices, the
// literals are only bounded from above. Nothing when no schedule within L makes it true.
std::optional<z3::expr> livesPastStages(const SmtFrame& frame, const StartLiterals& starts,
                                        ClauseWriter& writer, OpId op, std::int64_t k) {
  bool possible = false;
  const z3::expr lives = writer.literal(fmt::format("lives_{}_past_{}", op, k));
  for (EdgeId e : frame.graph.outEdges(op)) {
    const Cycle offset = k * frame.ii;
    const Cycle shift = offset - static_cast<Cycle>(frame.graph.edgeDistance(e)) * frame.ii;
    for (Cycle t = 0; t <= starts.lastStart(op); ++t) {
      // From here on the consumer always starts by t + shift: the clause holds trivially.
      if (t + shift >= starts.lastStart(frame.graph.edgeTarget(e))) break;
      possible = true;
      readAfterForces(frame, starts, writer, op, e, t, offset, lives);
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
void addMemory(const SmtFrame& frame, const StartLiterals& starts, ClauseWriter& writer,
               BuildClock& clock) {
  for (MemoryId m = 0; m < static_cast<MemoryId>(frame.machine.memories.size()); ++m) {
    const std::int64_t capacity = frame.machine.memories[m].capacity;
    std::int64_t fixed = 0;
    z3::expr_vector extra(writer.context());
    std::vector<int> amounts;
    for (OpId op = 0; op < frame.graph.numOps(); ++op) {
      if (clock.outOfTime()) return;
      for (const auto& print : frame.graph.footprints(op)) {
        if (print.memory != m || print.amount <= 0 || frame.graph.outEdges(op).empty()) continue;
        fixed += print.amount;
        for (std::int64_t k = 1;; ++k) {
          const auto lives = livesPastStages(frame, starts, writer, op, k);
          if (!lives) break;
          extra.push_back(*lives);
          amounts.push_back(static_cast<int>(std::min<std::int64_t>(print.amount, INT32_MAX)));
        }
      }
    }
    if (fixed > capacity) {
      writer.add(TwillFamily::kMemory, writer.context().bool_val(false));
    } else if (!extra.empty()) {
      writer.add(TwillFamily::kMemory,
                 z3::pble(extra, amounts.data(),
                          static_cast<int>(std::min<std::int64_t>(capacity - fixed, INT32_MAX))));
    }
  }
}

void addWarpUniqueness(const SmtFrame& frame, const OpLiterals& onWarp, ClauseWriter& writer) {
  for (OpId op = 0; op < frame.graph.numOps(); ++op) {
    z3::expr_vector literals(writer.context());
    std::vector<int> ones;
    for (const z3::expr& warp : onWarp[op]) {
      literals.push_back(warp);
      ones.push_back(1);
    }
    writer.add(TwillFamily::kWarpUniqueness,
               z3::pbeq(literals, ones.data(), frame.graph.minWarps(op)));
  }
}

void addVariableLatency(const SmtFrame& frame, const OpLiterals& onWarp, ClauseWriter& writer) {
  if (!frame.machine.variableLatencyWarp) return;
  const int vl = *frame.machine.variableLatencyWarp;
  for (OpId op = 0; op < frame.graph.numOps(); ++op) {
    if (frame.graph.variableLatency(op)) {
      z3::expr_vector alone(writer.context());
      for (int w = 0; w < frame.machine.warps; ++w)
        alone.push_back(w == vl ? onWarp[op][w] : !onWarp[op][w]);
      writer.add(TwillFamily::kVariableLatency, z3::mk_and(alone));
    } else {
      writer.add(TwillFamily::kVariableLatency, !onWarp[op][vl]);
    }
  }
}

// An edge between different warp sets also waits out the producer's spill cost.
void addSpillDelay(const SmtFrame& frame, const StartLiterals& starts,
                   const std::vector<z3::expr>& crossEdge, ClauseWriter& writer,
                   BuildClock& clock) {
  const z3::expr spillDelay = writer.guard(TwillFamily::kSpillDelay);
  std::size_t cross = 0;
  for (EdgeId e = 0; e < frame.graph.numEdges(); ++e) {
    if (clock.outOfTime()) return;
    const OpId u = frame.graph.edgeSource(e);
    const OpId v = frame.graph.edgeTarget(e);
    if (u == v) continue;
    const z3::expr& split = crossEdge[cross++];
    if (frame.graph.spillCost(u) == 0) continue;
    const Cycle slack =
        static_cast<Cycle>(frame.graph.edgeDistance(e)) * frame.ii - crossWarpDelay(frame.graph, e);
    precede(starts, writer, {spillDelay, split}, u, v, slack);
  }
}

// An op with a blocking input issues when no other op of its warp set is executing: for
// each other op, sharing a warp excludes the residues at which the other is still busy.
void addBlockingConcurrency(const SmtFrame& frame, const OpLiterals& residue,
                            const OpLiterals& onWarp, ClauseWriter& writer, BuildClock& clock) {
  const z3::expr blockingFamily = writer.guard(TwillFamily::kBlockingConcurrency);
  const std::int32_t ii = frame.ii;
  for (OpId op = 0; op < frame.graph.numOps(); ++op) {
    if (clock.outOfTime()) return;
    bool blocking = false;
    for (EdgeId e : frame.graph.inEdges(op)) blocking = blocking || frame.graph.edgeBlocking(e);
    if (!blocking) continue;
    for (OpId other = 0; other < frame.graph.numOps(); ++other) {
      if (other == op) continue;
      const z3::expr share = writer.literal(fmt::format("share_{}_{}", op, other));
      for (int w = 0; w < frame.machine.warps; ++w) {
        if (sameLiterals(onWarp, op, other, w)) continue;
        writer.clause({}, {!onWarp[op][w], !onWarp[other][w], share});
      }
      const std::int64_t window = std::max<std::int64_t>(1, frame.graph.reservationLength(other));
      if (window >= ii) {
        writer.clause({blockingFamily}, {!share});
        continue;
      }
      for (std::int32_t rho = 0; rho < ii; ++rho) {
        for (std::int64_t j = 0; j < window; ++j) {
          const auto busy = static_cast<std::size_t>((((rho - j) % ii) + ii) % ii);
          writer.clause({blockingFamily}, {!share, !residue[op][static_cast<std::size_t>(rho)],
                                           !residue[other][busy]});
        }
      }
    }
  }
}

// One instruction stream per warp (beyond the paper; Machine::warpIssueWidth): an op holds an
// issue slot of each warp of its set at every cycle it executes, [t, t + max(1, cycles)) with
// cycles its reservation length (the window the verifier's blocking rule uses), and per warp
// and residue the slots held number at most the width. A pseudo-Boolean row over "on warp w and
// started at residue r", weighted by the cycles of the op's window that fall on the row's
// residue (more than one when the window is longer than II). A row is skipped when it cannot
// bind or repeats the previous warp's (every op's literal at w is its literal at w - 1: warp
// groups share one).
void addWarpIssue(const SmtFrame& frame, const OpLiterals& residue, const OpLiterals& onWarp,
                  ClauseWriter& writer, BuildClock& clock) {
  if (!frame.machine.warpIssueWidth) return;
  const std::int64_t width = *frame.machine.warpIssueWidth;
  const std::int32_t ii = frame.ii;
  const OpId count = frame.graph.numOps();
  for (int w = 0; w < frame.machine.warps; ++w) {
    if (clock.outOfTime()) return;
    bool repeats = w > 0;
    for (OpId op = 0; op < count && repeats; ++op) {
      repeats = z3::eq(onWarp[op][w], onWarp[op][w - 1]);
    }
    if (repeats) continue;
    for (std::int32_t rho = 0; rho < ii; ++rho) {
      z3::expr_vector terms(writer.context());
      std::vector<int> weights;
      std::int64_t total = 0;
      for (OpId op = 0; op < count; ++op) {
        if (onWarp[op][w].is_false()) continue;
        // Cycles j of the window whose residue is rho hold the slot for a start at rho - j.
        const std::int64_t window = std::max<std::int64_t>(1, frame.graph.reservationLength(op));
        std::vector<int> atStart(static_cast<std::size_t>(ii), 0);
        for (std::int64_t j = 0; j < window; ++j) {
          ++atStart[static_cast<std::size_t>((((rho - j) % ii) + ii) % ii)];
        }
        for (std::int32_t r = 0; r < ii; ++r) {
          if (atStart[static_cast<std::size_t>(r)] == 0) continue;
          terms.push_back(onWarp[op][w] && residue[op][static_cast<std::size_t>(r)]);
          weights.push_back(atStart[static_cast<std::size_t>(r)]);
          total += atStart[static_cast<std::size_t>(r)];
        }
      }
      if (total <= width) continue;
      writer.add(TwillFamily::kWarpIssue,
                 z3::pble(terms, weights.data(),
                          static_cast<int>(std::min<std::int64_t>(width, INT32_MAX))));
    }
  }
}

// Slots (warps, or blocks of warps) that nothing tells apart are used in order of first use by
// ops in id order: slot j + 1 holds op i only if slot j holds op i or an earlier op.
// holds[j][op] is "slot j holds op".
void orderByFirstUse(const std::vector<std::vector<z3::expr>>& holds, ClauseWriter& writer) {
  if (holds.size() < 2) return;
  std::vector<z3::expr> usedBefore(holds.size(), writer.context().bool_val(false));
  for (std::size_t op = 0; op < holds.front().size(); ++op) {
    for (std::size_t j = 1; j < holds.size(); ++j) {
      writer.require(z3::implies(holds[j][op], usedBefore[j - 1] || holds[j - 1][op]));
    }
    for (std::size_t j = 0; j < holds.size(); ++j) {
      usedBefore[j] = (usedBefore[j] || holds[j][op]).simplify();
    }
  }
}

// Warp symmetry. Let B be the least common multiple of the ops' min_warps: every aligned warp
// group lies inside one aligned block of B warps, and moving whole blocks keeps every group
// aligned. Blocks that lie whole on the machine and hold no variable-latency warp are
// interchangeable, so they are used in order of first use. When every op takes one warp or a
// whole block, the warps of a block other than the variable-latency warp are interchangeable
// as well, and are used in order of first use within their block. Any schedule maps to one that
// meets both orders: permute the blocks, then the warps within each block (which changes no
// block's ops). With B = 1 this is the plain first-use order of the warps.
//
// With the register-file family, warps are not interchangeable across the warp groups it counts
// (core register_file.hpp: G schedule warps to a group), so B is also a multiple of G and the
// warps inside a block are ordered within their group only.
void orderWarps(const SmtFrame& frame, const SmtVariables& vars, ClauseWriter& writer) {
  const int warps = frame.machine.warps;
  const std::optional<int> vl = frame.machine.variableLatencyWarp;
  const OpId count = frame.graph.numOps();
  const int registerGroup = frame.registerFileCanBind ? warpsPerRegisterGroup(frame.machine) : 1;
  std::int64_t block = registerGroup;
  bool wholeOrSingle = true;
  for (OpId op = 0; op < count; ++op) {
    block = std::lcm(block, static_cast<std::int64_t>(frame.graph.minWarps(op)));
    if (block > warps) return;
  }
  for (OpId op = 0; op < count; ++op) {
    const int size = frame.graph.minWarps(op);
    wholeOrSingle = wholeOrSingle && (size == 1 || size == block);
  }
  const int blockSize = static_cast<int>(block);
  auto heldBy = [&](int first, int size) {
    std::vector<z3::expr> holds;
    for (OpId op = 0; op < count; ++op) {
      z3::expr_vector any(writer.context());
      for (int w = first; w < first + size; ++w) any.push_back(vars.onWarp[op][w]);
      holds.push_back(z3::mk_or(any).simplify());
    }
    return holds;
  };
  std::vector<std::vector<z3::expr>> blocks;
  for (int first = 0; first + blockSize <= warps; first += blockSize) {
    if (vl && *vl >= first && *vl < first + blockSize) continue;
    blocks.push_back(heldBy(first, blockSize));
  }
  orderByFirstUse(blocks, writer);
  // Blocks of one warp have nothing inside to order.
  if (!wholeOrSingle || blockSize == 1) return;
  const int inner = registerGroup > 1 ? registerGroup : blockSize;
  for (int first = 0; first < warps; first += inner) {
    std::vector<std::vector<z3::expr>> inside;
    for (int w = first; w < std::min(first + inner, warps); ++w) {
      if (!vl || w != *vl) inside.push_back(heldBy(w, 1));
    }
    orderByFirstUse(inside, writer);
  }
}

// Interchangeable warps are ordered (orderWarps); interchangeable ops start in the order
// symmetry.hpp gives (guarded by vars.opSymmetry: off when a query singles out particular ops).
void addSymmetryBreaking(const SmtFrame& frame, const SmtVariables& vars, ClauseWriter& writer,
                         BuildClock& clock) {
  orderWarps(frame, vars, writer);
  const SymmetryOrderings symmetries = findSymmetries(frame.graph);
  for (const auto& [first, second] : symmetries.before) {
    if (clock.outOfTime()) return;
    precede(vars.starts, writer, {vars.opSymmetry}, first, second, 0);
  }
}

}  // namespace

// The clause "t(op) <= t and the consumer of out-edge e reads after t + offset (its start
// plus distance II) force `literal`": how liveness and lifetime literals get set.
void readAfterForces(const SmtFrame& frame, const StartLiterals& starts, ClauseWriter& writer,
                     OpId op, EdgeId e, Cycle t, Cycle offset, const z3::expr& literal) {
  const Cycle shift = static_cast<Cycle>(frame.graph.edgeDistance(e)) * frame.ii;
  writer.clause(
      {}, {!starts.by(op, t), starts.by(frame.graph.edgeTarget(e), t + offset - shift), literal});
}

bool buildSmtModel(const SmtFrame& frame, SmtVariables& vars, ClauseWriter& writer,
                   const Deadline& deadline) {
  BuildClock clock(deadline);
  declareVariables(frame, vars, writer, clock);
  const StartLiterals& starts = vars.starts;
  const std::vector<std::function<void()>> families = {
      [&] { addDependence(frame, starts, writer, clock); },
      [&] { addCapacity(frame, vars.residue, writer, clock); },
      [&] { addMemory(frame, starts, writer, clock); },
      [&] { addWarpUniqueness(frame, vars.onWarp, writer); },
      [&] { addVariableLatency(frame, vars.onWarp, writer); },
      [&] { addRegisterLimit(frame, vars, writer, clock); },
      [&] { addSpillDelay(frame, starts, vars.crossEdge, writer, clock); },
      [&] { addBlockingConcurrency(frame, vars.residue, vars.onWarp, writer, clock); },
      [&] { addWarpIssue(frame, vars.residue, vars.onWarp, writer, clock); },
      [&] { addStrategy(frame, vars, writer); },
  };
  for (const auto& addFamily : families) {
    if (clock.outOfTime()) break;
    addFamily();
  }
  if (frame.options.breakSymmetry && !clock.outOfTime()) {
    addSymmetryBreaking(frame, vars, writer, clock);
  }
  return !clock.stopped();
}

}  // namespace gaus::exact::detail
