// Internal to the exact engine: the order encoding of starts in SAT (per op and cycle t the
// literal "t(op) <= t"), the writer of guarded clauses, one bounded Z3 check and its undecided
// answer, and the clock of a build in progress. Shared by Twill's model (twill/smt_encoding.hpp,
// which adds its own variables and families) and the latency SAT model (latency_sat.hpp).
#pragma once

#include <chrono>
#include <initializer_list>
#include <string>
#include <vector>

#include <z3++.h>

#include <gaus/core/deadline.hpp>
#include <gaus/core/graph.hpp>
#include <gaus/exact/twill.hpp>

#include "smt_answer.hpp"

namespace gaus::exact::detail {

// Seconds since `begin`.
double secondsBetween(std::chrono::steady_clock::time_point begin);

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

}  // namespace gaus::exact::detail
