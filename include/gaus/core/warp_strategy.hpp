// A warp strategy: the roles a kernel author gives the ops of a loop (FA3's producer and two
// consumers, FA4's load, MMA, softmax, correction and epilogue warps), each role with its warp
// count and, optionally, its first warp, a stage per op and an order of its ops' starts. Twill
// solves under it (`gaus twill G --strategy S`, family `strategy`) and judges it against the free
// optimum; strategyViolations is the rule both the SMT model and the check of every answer read
// (docs/exact.md, "A given warp strategy").
//
// What a role means: every op it names runs on warps of the role's range (an op of min_warps k
// on an aligned group of k of them), and no op of another role runs there. Ops the strategy does
// not name are free: they may run on any warp, a role's included. A role without ops holds its
// warps for code outside the loop body (FA4's epilogue warp): no op of the loop runs there.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/core/verify.hpp>

namespace gaus {

struct StrategyRole {
  std::string name;
  std::int32_t warps = 1;
  // Its first warp: as the file gives it, or where placeStrategy put the role.
  std::optional<std::int32_t> firstWarp;
  std::vector<OpId> ops;
  std::vector<OpId> order;  // ops of the role that start in this order, each after the last
  std::vector<std::pair<OpId, std::int32_t>> stages;  // op -> its stage floor(t / II)

  // The role's warps; requires firstWarp.
  WarpSet warpSet() const;
};

struct WarpStrategy {
  std::string name;  // the file's stem: "fa_fwd_blackwell_fa4.fa4"
  std::vector<StrategyRole> roles;

  // Some role fixes stages or an order: start times are then constrained, not only warps.
  bool constrainsTimes() const;
  // The warps of every role, ops or not.
  std::int32_t warpsHeld() const;
  // The role naming op, if any.
  const StrategyRole* roleOf(OpId op) const;
};

// The strategy with every role placed: a role without firstWarp takes the first range of its
// warps, aligned to the largest min_warps of its ops, that holds no other role's warp (and not
// the variable-latency warp unless the role has variable-latency ops, whose range must hold
// it); roles with more warps are placed first, so that roles of one warp share the last warp
// groups as FA4's MMA, load and epilogue warps do. An error names what cannot hold: an op in
// two roles, a role with fewer warps than an op's min_warps, a first warp out of alignment or
// range, roles that overlap or need more warps than the machine has, a stage or order of an op
// the role does not name.
Expected<WarpStrategy> placeStrategy(WarpStrategy strategy, const Graph& graph,
                                     const Machine& machine);

// Why `schedule` does not follow the placed strategy, one line per broken rule ("op 'ldo0' of
// role correction runs on warps {0,1,2,3}, outside the role's {8,9,10,11}"); empty when it does.
std::vector<std::string> strategyViolations(const Graph& graph, const WarpStrategy& strategy,
                                            const Schedule& schedule);
// The verifier's family kStrategy: options.strategy's violations added to `report` (nothing
// without a strategy). The schedule's shape must be valid.
void addStrategyViolations(const Graph& graph, const Schedule& schedule,
                           const VerifyOptions& options, VerificationReport& report);

}  // namespace gaus
