// Internal to the SMT model (smt_model.hpp): the pieces of the Z3 encoding behind TwillSmtModel,
// each with what it owns. The order encoding of the starts (StartLiterals) and the clause writer
// (ClauseWriter) are the exact engine's (../smt_order_encoding.hpp, shared with the latency SAT
// model); Twill's own variables (SmtVariables) are in smt_clauses.cpp; the constraint families, one function each over the
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

#include "../smt_order_encoding.hpp"
#include "smt_model.hpp"

namespace gaus::exact::detail {

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
