// The strategy family (TwillFamily::kStrategy): a given warp strategy (core warp_strategy.hpp)
// as clauses over the warp and order literals, one guard for all of it, so that an UNSAT check
// under a strategy names `strategy` in its core when the strategy is what blocks. The rule is
// core strategyViolations', which checks every answer:
// - an op of a role has no warp literal outside the role's range;
// - an op of no role, or of another role, has none inside a role without ops, nor (for a role's
//   op) inside another role's range, which the first rule already gives: ranges are disjoint;
// - a stage s is s II <= t <= (s + 1) II - 1 on the order literals;
// - an order a, b, ... is t(a) + 1 <= t(b), a difference constraint like an edge's.

#include "smt_encoding.hpp"

namespace gaus::exact::detail {

namespace {

// The ops that may not run on the warps of `role`: those of other roles are kept out by their
// own ranges, so only the free ops, and only from a role without ops (FA4's epilogue warp).
bool keepsFreeOpsOut(const StrategyRole& role) {
  return role.ops.empty();
}

}  // namespace

void addStrategy(const SmtFrame& frame, const SmtVariables& vars, ClauseWriter& writer) {
  const WarpStrategy* strategy = frame.options.strategy;
  if (strategy == nullptr) return;
  const Graph& graph = frame.graph;
  const std::int32_t warps = frame.machine.warps;
  auto forbid = [&](OpId op, std::int32_t w) {
    const z3::expr& literal = vars.onWarp[op][static_cast<std::size_t>(w)];
    if (!literal.is_false()) writer.add(TwillFamily::kStrategy, !literal);
  };
  for (const StrategyRole& role : strategy->roles) {
    const WarpSet range = role.warpSet();
    for (OpId op : role.ops) {
      for (std::int32_t w = 0; w < warps; ++w) {
        if (((range >> w) & 1U) == 0) forbid(op, w);
      }
    }
    if (keepsFreeOpsOut(role)) {
      for (OpId op = 0; op < graph.numOps(); ++op) {
        if (strategy->roleOf(op) != nullptr) continue;
        for (std::int32_t w = 0; w < warps; ++w) {
          if (((range >> w) & 1U) != 0) forbid(op, w);
        }
      }
    }
    for (const auto& [op, stage] : role.stages) {
      const Cycle first = static_cast<Cycle>(stage) * frame.ii;
      writer.add(TwillFamily::kStrategy, !vars.starts.by(op, first - 1));
      writer.add(TwillFamily::kStrategy, vars.starts.by(op, first + frame.ii - 1));
    }
    for (std::size_t i = 1; i < role.order.size(); ++i) {
      precede(vars.starts, writer, {writer.guard(TwillFamily::kStrategy)}, role.order[i - 1],
              role.order[i], -1);
    }
  }
}

std::int64_t estimateStrategyLiterals(const Graph& graph, const Machine& machine,
                                      const WarpStrategy& strategy,
                                      const std::vector<std::int64_t>& cycles) {
  std::int64_t literals = 0;
  const std::int64_t warps = machine.warps;
  for (const StrategyRole& role : strategy.roles) {
    literals += 2 * warps * static_cast<std::int64_t>(role.ops.size());
    if (keepsFreeOpsOut(role))
      literals += 2 * role.warps * static_cast<std::int64_t>(graph.numOps());
    literals += 4 * static_cast<std::int64_t>(role.stages.size());
    for (std::size_t i = 1; i < role.order.size(); ++i) literals += 3 * cycles[role.order[i]];
  }
  return literals;
}

}  // namespace gaus::exact::detail
