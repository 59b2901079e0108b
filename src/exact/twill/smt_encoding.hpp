// Internal to the SMT model (smt_model.hpp): the pieces of the Z3 encoding behind TwillSmtModel,
// each with what it owns. The order encoding of the starts (StartLiterals) and the clause writer
// (ClauseWriter) are the exact engine's (../smt_order_encoding.hpp, shared with the latency SAT
// model); Twill's own variables (SmtVariables) are in smt_clauses.cpp; the constraint families, one
// function each over the literals it reads, in smt_families.cpp, whose opening says what the
// encoding is and where it departs from the paper; the checks (LatencyCaps, TwillSmtModel::Impl) in
// smt_check.cpp; the size estimate in smt_size.cpp.
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
  // options.registerFile and some schedule at (II, L) could exceed the register file
  // (registerFileCanBind): the family has rows to add, and warps keep to their warp groups.
  bool registerFileCanBind = false;
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
  // The values that hold registers and, per value, its liveness literals [tau] (smt_registers.cpp),
  // made by the first register family built.
  std::vector<OpId> registerHolders;
  std::vector<std::vector<z3::expr>> live;
  bool liveBuilt = false;
};

// The clause "t(op) <= t and the consumer of out-edge e reads after t + offset (its start
// plus distance II) force `literal`": how liveness and lifetime literals get set.
void readAfterForces(const SmtFrame& frame, const StartLiterals& starts, ClauseWriter& writer,
                     OpId op, EdgeId e, Cycle t, Cycle offset, const z3::expr& literal);

// Whether some schedule at (ii, latency) could exceed the machine's register file (core
// register_file.hpp), so that the register-file family has rows: the machine names its file,
// some op holds registers, and the most every warp group could need does not fit.
bool registerFileCanBind(const Graph& graph, const Machine& machine, std::int32_t ii,
                         Cycle latency);

// The register-limit family (smt_registers.cpp) and the liveness literals it reads, when the
// machine has a register limit.
void addRegisterLimit(const SmtFrame& frame, SmtVariables& vars, ClauseWriter& writer,
                      BuildClock& clock);
// The register-file family (smt_registers.cpp), over the same liveness literals (made here when
// the register limit did not make them). Added to a model by its first satisfiable check whose
// schedule exceeds the file (TwillSmtModel::Impl::check), not when it is built: the family only
// removes schedules, so every answer before it is added is one of the problem's or a refutation
// that holds with it. False when the clock stopped the rows (the model is then incomplete).
bool addRegisterFile(const SmtFrame& frame, SmtVariables& vars, ClauseWriter& writer,
                     BuildClock& clock);

// The strategy family (smt_strategy.cpp), when the frame's options hold a strategy.
void addStrategy(const SmtFrame& frame, const SmtVariables& vars, ClauseWriter& writer);
// Its literals as addStrategy writes them, at most: `cycles` holds each op's cycles with an
// order literal (the size estimate's).
std::int64_t estimateStrategyLiterals(const Graph& graph, const Machine& machine,
                                      const WarpStrategy& strategy,
                                      const std::vector<std::int64_t>& cycles);

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
  // After a satisfiable check whose schedule exceeds the register file: adds the family's rows
  // once and checks again. Returns the outcome that stands, or nothing when the clock stopped the
  // rows and the schedule still exceeds the file (the check is then undecided).
  std::optional<z3::check_result> recheckWithinRegisterFile(
      const SmtQuery& query, const z3::expr_vector& assumptions,
      std::chrono::steady_clock::time_point begin);

  z3::context context;
  z3::solver solver;
  const SmtFrame frame;
  SmtVariables vars;
  ClauseWriter writer;
  LatencyCaps caps;
  std::int32_t restrictionsMade = 0;  // restriction literals so far (their names)
  // Whether the register-file family's rows were added (by a check whose schedule exceeded the
  // file), and whether the clock let them be complete.
  bool registerFileAdded = false;
  bool registerFileComplete = false;  // the clock did not stop its rows
};

}  // namespace gaus::exact::detail
