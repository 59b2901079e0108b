// Internal to the exact engine: the SMT model of joint software pipelining and warp
// specialization at a fixed (II, L), on Z3 (smt_encoding.hpp has its pieces: smt_families.cpp
// builds it, smt_check.cpp checks it, smt_size.cpp sizes it). The model is built once per (II, L)
// and checked several times: with families switched off, with a bound on the warps used or on the
// cross-warp edges, or with groups of ops forced onto one warp set.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <gaus/core/deadline.hpp>
#include <gaus/core/expected.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/exact/twill.hpp>

#include "../smt_answer.hpp"

namespace gaus::exact::detail {

struct SmtModelOptions {
  bool breakSymmetry = true;
  // Whether the model's checks may ask for the register-file family (smt_registers.cpp). Its
  // warps are then interchangeable only within a warp group (orderWarps), so a model built for
  // a search without the family keeps the stronger symmetry breaking of the others.
  bool registerFile = false;
  // The warp strategy whose family (kStrategy, smt_strategy.cpp) the model holds; none for the
  // free problem. Its roles single out warps, so breakSymmetry is off with one. Not owned.
  const WarpStrategy* strategy = nullptr;
};

// The model options of a Twill call: symmetry breaking as asked unless a strategy singles out
// warps, the register-file family where the call may ask for it, the call's strategy.
SmtModelOptions modelOptionsOf(const TwillOptions& options);

struct SmtRestrictions {
  std::optional<std::int32_t> maxWarpsUsed;
  std::optional<std::int32_t> maxCrossWarpEdges;
  // Each group of ops must share one warp set. Op symmetry breaking is off for such checks (the
  // groups single out particular ops).
  std::vector<std::vector<OpId>> sameWarpSet;
};

struct SmtQuery {
  TwillFamilySet families;
  SmtRestrictions restrictions;
  double timeLimitSeconds = 60.0;
  bool wantCore = false;      // on UNSAT, name the families of an unsat core
  bool minimizeCore = false;  // and shrink it by deletion
};

// The size of the model buildSmtModel makes at (ii, latency), counted without Z3 family by family
// as buildSmtModel adds them (at least the literals buildSmtModel adds, and close to them: a row it
// skips as never binding is counted too), so that a model too large for --memory-limit is
// refused before it is built.
SmtModelSize estimateSmtModelSize(const Problem& problem, std::int32_t ii, Cycle latency,
                                  const SmtModelOptions& options);

class TwillSmtModel {
 public:
  // The model at (ii, latency) when it can be built, loaded into Z3 and torn down before
  // `deadline`, or why not: its estimated cost (SmtModelSize::cost) is above the time left (the
  // model is then not built), the deadline passed while it was being built (buildSmtModel looks at
  // the clock between the ops of each constraint family), or what the build left is less than
  // the estimated load and teardown. So a search never starts on a model whose first check
  // cannot end by its deadline. `estimatedSize`: estimateSmtModelSize at the same arguments,
  // when the caller has it already (it held the estimate against the memory limit); computed
  // here otherwise.
  static Expected<std::unique_ptr<TwillSmtModel>> buildWithin(
      const Problem& problem, std::int32_t ii, Cycle latency, const SmtModelOptions& options,
      const Deadline& deadline, std::optional<SmtModelSize> estimatedSize = std::nullopt);
  ~TwillSmtModel();
  TwillSmtModel(const TwillSmtModel&) = delete;
  TwillSmtModel& operator=(const TwillSmtModel&) = delete;

  // The L of the following checks, at most the L the model was built at. Satisfiability is
  // monotone in L at a fixed II (L only bounds the starts: every other family is per residue),
  // so a search over L may bisect.
  void setLatency(Cycle latency);
  Cycle builtLatency() const;  // the L the model was built at

  SmtAnswer check(const SmtQuery& query);

  // Its size as estimateSmtModelSize gave it before the build (for the memory held, and the
  // time its teardown takes).
  const SmtModelSize& estimatedSize() const;

  // The literal occurrences in the model's assertions as Z3 holds them (the leaves of each
  // assertion's expression tree): what estimateSmtModelSize is checked against.
  std::int64_t literalCount() const;

 private:
  struct Impl;
  TwillSmtModel(std::unique_ptr<Impl> impl, SmtModelSize estimatedSize);
  std::unique_ptr<Impl> impl_;
  SmtModelSize estimatedSize_;
};

// Builds the model at (ii, latency) and runs one query on it, both within
// query.timeLimitSeconds (buildWithin); a model that cannot be built in it answers kTimeout with
// the reason.
SmtAnswer checkOnce(const Problem& problem, std::int32_t ii, Cycle latency,
                    const SmtModelOptions& options, const SmtQuery& query);

// Warps used (bits set in any op's warp set) and cross-warp edges (edges between different warp
// sets, self-loops excluded) of a schedule with warps.
std::int32_t countWarpsUsed(const Schedule& schedule);
std::int32_t countCrossWarpEdges(const Graph& graph, const Schedule& schedule);

}  // namespace gaus::exact::detail
