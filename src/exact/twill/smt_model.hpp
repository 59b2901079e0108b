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

namespace gaus::exact::detail {

struct SmtModelOptions {
  bool breakSymmetry = true;
};

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

// A satisfiable check is kFeasible (with a schedule), an unsatisfiable one kInfeasible; Z3 giving
// up on its time limit is kTimeout, for another reason kUnknown.
struct SmtAnswer {
  ModelStatus status = ModelStatus::kUnknown;
  std::optional<Schedule> schedule;  // II and warps set
  std::vector<TwillFamily> core;     // kInfeasible only; empty when L alone is too short
  bool coreHasRestriction = false;   // the restriction of the query is part of the core
  double seconds = 0.0;
  std::string reason;  // Z3's reason for unknown
  // Why no model was checked (checkOnce: it could not be built and loaded in the time given;
  // the status is then kTimeout).
  std::optional<std::string> notBuilt;
};

// What a model costs in wall time beyond its checks, in seconds: building it here, Z3's loading
// of it at its first check (preprocessing and internalizing the assertions, which does not look
// at the check's timeout: on a model of a million literals and more it runs tens of seconds past
// a timeout of 1 ms), and tearing it down. Estimated from the model's size (SmtModelSize::cost;
// smt_size.cpp says how the rates were measured).
struct SmtModelCost {
  double build = 0.0;
  double load = 0.0;
  double teardown = 0.0;
  double total() const { return build + load + teardown; }
};

// The size of the model at (II, L): its Boolean variables and the literal occurrences of its
// clauses and rows. Z3 holds each occurrence in its expressions and again in the SAT solver's
// clauses; bytes() is the memory of the built model that the estimate allows for
// (smt_size.cpp, kSmtBytesPerLiteral, says how it was measured). Z3's load of the model grows
// with the literals and, faster, with the length of the register rows: a pseudo-Boolean row per
// warp and residue over the terms "on this warp and live at this cycle" of every value, whose
// length grows with L. registerRowTermsSquared is the sum over those rows of their term count
// squared (the capacity and memory rows, over plain literals, showed no such growth).
struct SmtModelSize {
  std::int64_t booleans = 0;
  std::int64_t literals = 0;
  std::int64_t registerRowTermsSquared = 0;
  std::int64_t bytes() const;
  SmtModelCost cost() const;
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
