// Internal to the SMT model (smt_model.hpp): the pieces of the Z3 encoding behind TwillSmtModel,
// each with what it owns. The literals (StartLiterals, SmtVariables) and the clause writer
// (ClauseWriter) are in smt_clauses.cpp; the constraint families, one function each over the
// literals it reads, in smt_families.cpp, whose opening says what the encoding is and where it
// departs from the paper; the checks (LatencyCaps, TwillSmtModel::Impl) in smt_check.cpp; the
// size estimate in smt_size.cpp.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <z3++.h>

#include <gaus/core/deadline.hpp>
#include <gaus/core/problem_facts.hpp>

#include "smt_model.hpp"

namespace gaus::exact::detail {

// Seconds since `begin`.
double secondsBetween(std::chrono::steady_clock::time_point begin);

// The absolute cycles [0, horizon) at which op's value can be live within L: up to the latest
// read, its last consumer's last start (L - duration) plus distance II. The model has a
// liveness literal per such cycle; the size estimate counts them.
Cycle liveHorizon(const Graph& graph, OpId op, std::int32_t ii, Cycle latency);

// What the model is of, fixed when it is made.
struct SmtFrame {
  const Graph& graph;
  const Machine& machine;
  std::int32_t ii = 1;
  Cycle latency = 0;  // the model is built at this L (smaller L are assumptions)
  SmtModelOptions options;
  // The modulo ASAP starts at II, the lower end of every start's domain (the dependence
  // family's bounds, and the ALAP bounds of LatencyCaps); none: no room at all.
  std::optional<std::vector<Cycle>> earliest;
  // The problem's facts: the topological order the latest starts are measured over.
  std::shared_ptr<const ProblemFacts> facts;
};

// Per op, one literal per index: [op][cycle], [op][residue] or [op][warp].
using OpLiterals = std::vector<std::vector<z3::expr>>;

// The starts in the order encoding of scheduling by SAT: per op, the literals "t(op) <= t" for
// t below its last start L - duration, each implying the next (declareVariables adds those
// clauses).
class StartLiterals {
 public:
  explicit StartLiterals(z3::context& context) : context_(context) {}
  // Declares the literals t_OP_le_T of the next op, whose starts are [0, lastStart].
  void declare(Cycle lastStart);
  // The literal "t(op) <= t": the constant false before the domain, true from its end on.
  z3::expr by(OpId op, Cycle t) const;
  Cycle lastStart(OpId op) const { return lastStart_[op]; }
  // The start of op in `model`: the first t whose literal "t(op) <= t" is true.
  Cycle startIn(const z3::model& model, OpId op) const;

 private:
  z3::context& context_;
  std::vector<Cycle> lastStart_;
  OpLiterals startsBy_;  // [op][t] for t < lastStart
};

class ClauseWriter;

// t(u) <= t(v) + slack (an edge u -> v has slack distance II - delay), guarded: for every t,
// t(v) <= t forces t(u) <= t + slack. Twill's dependence and spill-delay families and the
// latency problem's SAT model (latency_sat.hpp) write their difference constraints with it.
void precede(const StartLiterals& starts, ClauseWriter& writer,
             std::initializer_list<z3::expr> guards, OpId u, OpId v, Cycle slack);

// One check of `solver` under `assumptions`, stopped after `timeLimitSeconds` (Z3's timeout).
z3::check_result checkWithin(z3::solver& solver, const z3::expr_vector& assumptions,
                             double timeLimitSeconds);

// The answer of a check that ended neither sat nor unsat: Z3's reason, and kTimeout when its
// time limit (or a cancel) stopped it, kUnknown for any other reason.
void setUndecided(z3::solver& solver, SmtAnswer& answer);

// The model's literals, apart from the family guards (ClauseWriter's).
struct SmtVariables {
  explicit SmtVariables(z3::context& context);

  z3::expr opSymmetry;  // the guard of the op-ordering constraints
  StartLiterals starts;
  OpLiterals residue;  // [op][r]: t(op) mod II == r
  OpLiterals onWarp;   // [op][warp]
  std::vector<z3::expr> warpUsed;
  std::vector<z3::expr> crossEdge;  // per edge between two ops: their warp sets differ
};

// Writes the model's constraints into its solver: clauses with their guards, folding the
// constant literals of StartLiterals::by; a family's constraints behind that family's guard
// literal, so that a check can switch the family off and an unsat core names it; and the
// structural constraints, which no check switches off.
class ClauseWriter {
 public:
  // Declares the guard literal family_NAME of every family.
  explicit ClauseWriter(z3::solver& solver);

  z3::context& context() const { return solver_.ctx(); }
  z3::expr literal(const std::string& name) const;
  z3::expr guard(TwillFamily family) const;
  // Adds the clause (OR of `literals`) guarded by `guards` (each must hold for it to apply).
  void clause(std::initializer_list<z3::expr> guards, std::initializer_list<z3::expr> literals);
  // Adds `constraint` to family f.
  void add(TwillFamily family, const z3::expr& constraint);
  // Adds a structural constraint.
  void require(const z3::expr& constraint);

 private:
  z3::solver& solver_;
  std::vector<z3::expr> guards_;  // per TwillFamily
};

// The deadline of a build in progress. The family builders look at it between the ops (or
// edges, warps, units) of each family, each a few thousand clauses at most, so a build stops
// within milliseconds of its deadline.
class BuildClock {
 public:
  explicit BuildClock(const Deadline& deadline) : deadline_(deadline) {}
  // Whether the build must stop: the deadline has passed, now or before.
  bool outOfTime();
  // Whether outOfTime() has said so.
  bool stopped() const { return stopped_; }

 private:
  const Deadline& deadline_;
  bool stopped_ = false;
};

// Declares the variables and adds every constraint family (smt_families.cpp); false when
// `deadline` passed first (the model is then incomplete and must not be checked).
bool buildSmtModel(const SmtFrame& frame, SmtVariables& vars, ClauseWriter& writer,
                   const Deadline& deadline);

// The L the checks ask for, at most the L the model was built at, and the assumption of each
// smaller one: every op ends by L (its start bound and, within the dependence family, its ALAP
// bound at L).
class LatencyCaps {
 public:
  explicit LatencyCaps(Cycle built) : built_(built), checked_(built) {}
  void setChecked(Cycle latency) { checked_ = std::min(latency, built_); }
  Cycle checked() const { return checked_; }
  // The assumption of the checked L, made once per L; none at the L built at.
  std::optional<z3::expr> assumption(const SmtFrame& frame, const StartLiterals& starts,
                                     ClauseWriter& writer);

 private:
  Cycle built_ = 0;
  Cycle checked_ = 0;
  std::map<Cycle, z3::expr> literals_;  // L below the built one -> its assumption
};

// The model: its solver with what was built into it, and what its checks add (smt_check.cpp).
struct TwillSmtModel::Impl {
  Impl(const Problem& problem, std::int32_t ii, Cycle latency, const SmtModelOptions& options);

  SmtAnswer check(const SmtQuery& query);

  z3::context context;
  z3::solver solver;
  const SmtFrame frame;
  SmtVariables vars;
  ClauseWriter writer;
  LatencyCaps caps;
  std::int32_t restrictionsMade = 0;  // restriction literals so far (their names)
};

}  // namespace gaus::exact::detail
