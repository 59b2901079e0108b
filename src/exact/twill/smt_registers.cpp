// The register families of the SMT model (smt_encoding.hpp): register-limit, the paper's (TWILL.md
// section 3: at every cycle and warp, the registers of the values live on that warp stay within
// the per-warp limit), and register-file, beyond the paper: the SM's register file as
// warp-specialized code takes it (core register_file.hpp). Both read one set of liveness
// literals, "the value of op is live at absolute cycle tau", summed per residue modulo II as the
// verifier folds them.
//
// register-file: registers are given per warp group of 128 threads (setmaxnreg, 24 to 256 per
// thread in steps of 8), so each group g of G = 128 / threads_per_warp schedule warps has a
// need n_g in the order encoding: literals "n_g >= 8k" for k = 1..32, each implying the one
// below, n_g = 8 x (the number true), with
//   - at every residue, the registers of the values live on any of its warps <= n_g
//     (sum regs x live + sum_k 8 !level_k <= 256: one pseudo-Boolean row per group and residue,
//     the register-limit rows' terms with the group's warps in place of one warp);
//   - n_g >= 24 when an op is on the group (a clause per warp), n_g <= 256 (the levels end
//     there);
//   - every level of every group, at most the register file / (128 threads x 8) of them true.
// Rounding to 8 and the 24 of a group that holds no register are exact, since n_g takes only
// multiples of 8 and nothing else bounds it from below. Implied clauses make the search
// propagate: a value that is live at some cycle of every schedule raises the need of each group
// it is on to its registers. (A binary need, 6 bits per group, made the checks at
// fa_fwd_blackwell_subtiled_32w's (II, L) = (18, 35) 3 to 8 times slower.)
//
// The family's rows are added to a model lazily, by the first satisfiable check whose schedule
// exceeds the file (TwillSmtModel::Impl::check), and only where some schedule could
// (registerFileCanBind: a group's peak is at most the registers of every value at every stage it
// may live). Every family only removes schedules, so an UNSAT answer without the rows holds with
// them, and a SAT answer that fits the file is one of the problem's. On the built-in kernels no
// schedule the search meets exceeds the file, and the rows made their SAT checks up to 8 times
// slower (fa_fwd_blackwell_subtiled_32w: SMT 0.76 s -> 1.54 s), so they are built only when a
// schedule needs them.

#include <algorithm>

#include <fmt/format.h>

#include <gaus/core/register_file.hpp>

#include "smt_encoding.hpp"

namespace gaus::exact::detail {

namespace {

// Levels of a group's need in units of 8: up to setmaxnreg's 256.
constexpr int kNeedLevels = kMostGroupRegisters / kGroupRegisterStep;

// Literals "the value of op is live at absolute cycle tau" for tau in [0, horizon): t(op) <=
// tau and some consumer starts (plus distance II) after tau. Forced true by those two; only
// bounded from above (by the register rows), so the other direction is not needed.
std::vector<z3::expr> liveLiterals(const SmtFrame& frame, const StartLiterals& starts,
                                   ClauseWriter& writer, OpId op) {
  const Cycle horizon = liveHorizon(frame.graph, op, frame.ii, frame.latency);
  std::vector<z3::expr> live;
  for (Cycle tau = 0; tau < horizon; ++tau) {
    live.push_back(writer.literal(fmt::format("live_{}_{}", op, tau)));
    for (EdgeId e : frame.graph.outEdges(op)) {
      readAfterForces(frame, starts, writer, op, e, tau, 0, live.back());
    }
  }
  return live;
}

bool holdsRegisters(const Graph& graph, OpId op) {
  return graph.regs(op) != 0 && !graph.outEdges(op).empty();
}

std::int64_t worstRegisters(const Graph& graph, std::int32_t ii, Cycle latency) {
  std::int64_t worst = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (!holdsRegisters(graph, op)) continue;
    const Cycle horizon = liveHorizon(graph, op, ii, latency);
    worst += graph.regs(op) * ((horizon + ii - 1) / ii);
  }
  return worst;
}

// The liveness literals of every value that holds registers, once per model.
void buildLiveness(const SmtFrame& frame, SmtVariables& vars, ClauseWriter& writer,
                   BuildClock& clock) {
  if (vars.liveBuilt) return;
  for (OpId op = 0; op < frame.graph.numOps(); ++op) {
    if (clock.outOfTime()) return;
    if (!holdsRegisters(frame.graph, op)) continue;
    vars.registerHolders.push_back(op);
    vars.live.push_back(liveLiterals(frame, vars.starts, writer, op));
  }
  vars.liveBuilt = true;
}

// "op is on a warp of the group [first, end)": the distinct warp literals of op there.
z3::expr onGroup(const OpLiterals& onWarp, OpId op, int first, int end, z3::context& context) {
  z3::expr_vector any(context);
  for (int w = first; w < end; ++w) {
    if (w > first && z3::eq(onWarp[op][w], onWarp[op][w - 1])) continue;
    any.push_back(onWarp[op][w]);
  }
  return z3::mk_or(any).simplify();
}

// Whether op's value is live at some cycle of every schedule: it lives until its last read,
// at least the largest delay of its out-edges after its start (dependence), so one delay of a
// cycle or more suffices.
bool alwaysLive(const Graph& graph, OpId op) {
  const auto out = graph.outEdges(op);
  return std::any_of(out.begin(), out.end(), [&](EdgeId e) { return graph.edgeDelay(e) >= 1; });
}

void addRegisterFileRows(const SmtFrame& frame, const SmtVariables& vars, ClauseWriter& writer,
                         BuildClock& clock) {
  z3::context& context = writer.context();
  const int size = warpsPerRegisterGroup(frame.machine);
  const int warps = frame.machine.warps;
  const z3::expr family = writer.guard(TwillFamily::kRegisterFile);
  const z3::expr dependence = writer.guard(TwillFamily::kDependence);
  z3::expr_vector allLevels(context);
  for (int first = 0, g = 0; first < warps; first += size, ++g) {
    if (clock.outOfTime()) return;
    const int end = std::min(first + size, warps);
    // at[k - 1]: "the group's need is at least 8k", each implying the one below.
    std::vector<z3::expr> at;
    for (int k = 1; k <= kNeedLevels; ++k) {
      at.push_back(writer.literal(fmt::format("group_{}_needs_{}", g, k * kGroupRegisterStep)));
      allLevels.push_back(at.back());
      if (k > 1) writer.clause({}, {!at.back(), at[static_cast<std::size_t>(k - 2)]});
    }
    std::vector<z3::expr> onIt;
    for (OpId op : vars.registerHolders) {
      onIt.push_back(onGroup(vars.onWarp, op, first, end, context));
    }
    // At every residue, the values live on the group's warps hold at most its need.
    for (std::int32_t rho = 0; rho < frame.ii; ++rho) {
      z3::expr_vector terms(context);
      std::vector<int> weights;
      for (std::size_t h = 0; h < vars.registerHolders.size(); ++h) {
        if (onIt[h].is_false()) continue;
        for (std::size_t tau = static_cast<std::size_t>(rho); tau < vars.live[h].size();
             tau += frame.ii) {
          terms.push_back(onIt[h] && vars.live[h][tau]);
          weights.push_back(frame.graph.regs(vars.registerHolders[h]));
        }
      }
      if (terms.empty()) continue;
      for (const z3::expr& level : at) {
        terms.push_back(!level);
        weights.push_back(kGroupRegisterStep);
      }
      writer.add(TwillFamily::kRegisterFile,
                 z3::pble(terms, weights.data(), kGroupRegisterStep * kNeedLevels));
    }
    // Implied by the rows: a value live at some cycle of every schedule needs its registers on
    // each group it is on (binary clauses, which propagate where the rows' sums do not). "Every
    // schedule" holds only with the consumers' dependences, so the clauses are guarded by both.
    for (std::size_t h = 0; h < vars.registerHolders.size(); ++h) {
      const OpId op = vars.registerHolders[h];
      if (onIt[h].is_false() || !alwaysLive(frame.graph, op)) continue;
      const std::int64_t level =
          (frame.graph.regs(op) + kGroupRegisterStep - 1) / kGroupRegisterStep;
      if (level > kNeedLevels) {
        writer.clause({family, dependence}, {!onIt[h]});
      } else if (level > 0) {
        writer.clause({family, dependence}, {!onIt[h], at[static_cast<std::size_t>(level - 1)]});
      }
    }
    // A group that holds an op takes at least 24 (setmaxnreg's least).
    const auto least = static_cast<std::size_t>(kFewestGroupRegisters / kGroupRegisterStep - 1);
    for (int w = first; w < end; ++w) {
      writer.clause({family}, {!vars.warpUsed[static_cast<std::size_t>(w)], at[least]});
    }
  }
  // The groups' needs times their threads fit the file: a cardinality row over every level.
  const std::int64_t slots =
      *frame.machine.registerFile / threadsPerRegisterGroup(frame.machine) / kGroupRegisterStep;
  if (slots < static_cast<std::int64_t>(allLevels.size())) {
    writer.add(TwillFamily::kRegisterFile, z3::atmost(allLevels, static_cast<unsigned>(slots)));
  }
}

}  // namespace

bool registerFileCanBind(const Graph& graph, const Machine& machine, std::int32_t ii,
                         Cycle latency) {
  if (!machine.registerFile) return false;
  bool holds = false;
  for (OpId op = 0; op < graph.numOps() && !holds; ++op) holds = graph.regs(op) > 0;
  if (!holds) return false;
  const std::int64_t need = groupRegisterNeed(worstRegisters(graph, ii, latency));
  const int size = warpsPerRegisterGroup(machine);
  const std::int64_t groups = (machine.warps + size - 1) / size;
  return need > kMostGroupRegisters ||
         groups * need * threadsPerRegisterGroup(machine) > *machine.registerFile;
}

void addRegisterLimit(const SmtFrame& frame, SmtVariables& vars, ClauseWriter& writer,
                      BuildClock& clock) {
  if (!frame.machine.registerLimit) return;
  buildLiveness(frame, vars, writer, clock);
  const std::int64_t limit = *frame.machine.registerLimit;
  if (worstRegisters(frame.graph, frame.ii, frame.latency) <= limit) return;
  for (int w = 0; w < frame.machine.warps; ++w) {
    if (clock.outOfTime()) return;
    for (std::int32_t rho = 0; rho < frame.ii; ++rho) {
      z3::expr_vector terms(writer.context());
      std::vector<int> weights;
      for (std::size_t h = 0; h < vars.registerHolders.size(); ++h) {
        for (std::size_t tau = static_cast<std::size_t>(rho); tau < vars.live[h].size();
             tau += frame.ii) {
          terms.push_back(vars.onWarp[vars.registerHolders[h]][w] && vars.live[h][tau]);
          weights.push_back(frame.graph.regs(vars.registerHolders[h]));
        }
      }
      if (terms.empty()) continue;
      writer.add(TwillFamily::kRegisterLimit,
                 z3::pble(terms, weights.data(),
                          static_cast<int>(std::min<std::int64_t>(limit, INT32_MAX))));
    }
  }
}

bool addRegisterFile(const SmtFrame& frame, SmtVariables& vars, ClauseWriter& writer,
                     BuildClock& clock) {
  buildLiveness(frame, vars, writer, clock);
  if (!clock.outOfTime()) addRegisterFileRows(frame, vars, writer, clock);
  return !clock.stopped();
}

}  // namespace gaus::exact::detail
