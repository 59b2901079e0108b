// Internal to the SMT model (smt_model.hpp): the Z3 encoding behind TwillSmtModel, shared by
// the files that build it (smt_families.cpp: the variables and one function per constraint
// family), check it (smt_check.cpp) and size it (smt_size.cpp). smt_families.cpp's opening says
// what the encoding is and where it departs from the paper.
#pragma once

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <z3++.h>

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
};

// The model's literals.
struct SmtVariables {
  std::vector<z3::expr> family;                 // per TwillFamily: the guard of its constraints
  z3::expr opSymmetry;                          // the guard of the op-ordering constraints
  std::vector<std::vector<z3::expr>> startsBy;  // [op][t]: t(op) <= t, for t < lastStart
  std::vector<std::vector<z3::expr>> residue;   // [op][r]: t(op) mod II == r
  std::vector<std::vector<z3::expr>> onWarp;    // [op][warp]
  std::vector<z3::expr> warpUsed;
  std::vector<z3::expr> crossEdge;  // per edge between two ops: their warp sets differ
};

// The start domains of the ops.
struct SmtDomains {
  std::vector<Cycle> lastStart;                // per op: L - duration, its domain's end
  std::optional<std::vector<Cycle>> earliest;  // modulo ASAP at II; none: no room at all
};

// The L the checks ask for, at most the L built at, and the assumption of each smaller one.
struct LatencyCaps {
  Cycle checked = 0;
  std::map<Cycle, z3::expr> literals;  // L below the built one -> its assumption
};

// The deadline of a build in progress (build() looks at it between the ops of each family).
struct BuildClock {
  const Deadline* deadline = nullptr;
  bool stopped = false;  // the deadline passed during build()
};

struct TwillSmtModel::Impl {
  Impl(const Problem& problem, std::int32_t ii, Cycle latency, const SmtModelOptions& options);

  z3::context context;
  z3::solver solver;
  const SmtFrame frame;
  SmtVariables vars;
  SmtDomains domains;
  LatencyCaps caps;
  std::int32_t restrictionCount = 0;  // restriction literals made so far (their names)
  BuildClock clock;

  z3::expr literal(const std::string& name) { return context.bool_const(name.c_str()); }
  z3::expr family(TwillFamily f) { return vars.family[static_cast<std::size_t>(f)]; }
  int warps() const { return frame.machine.warps; }

  // ---- building (smt_families.cpp) ----
  // Whether build() must stop: its deadline has passed. Looked at between the ops (or edges,
  // warps, units) of each family, each a few thousand clauses at most, so a build stops within
  // milliseconds of its deadline.
  bool outOfTime();
  // The order literal "t(op) <= t": false before the domain, true from its end on.
  z3::expr by(OpId op, Cycle t);
  // Adds the clause (OR of `literals`) guarded by `guards` (each must hold for it to apply),
  // folding the constant literals of by().
  void clause(std::initializer_list<z3::expr> guards, std::initializer_list<z3::expr> literals);
  void add(TwillFamily f, const z3::expr& constraint);
  z3::expr sameWarpSet(OpId a, OpId b);
  // Adds every constraint family; false when `deadline` passed first (the model is then
  // incomplete and must not be checked).
  bool build(const Deadline& deadline);
  void buildVariables();
  void precede(std::initializer_list<z3::expr> guards, OpId u, OpId v, Cycle slack);
  void readAfterForces(OpId op, EdgeId e, Cycle t, Cycle offset, const z3::expr& forced);
  void buildDependence();
  void buildCapacity();
  std::optional<z3::expr> livesPastStages(OpId op, std::int64_t k);
  void buildMemory();
  void buildWarpUniqueness();
  void buildVariableLatency();
  std::vector<z3::expr> liveLiterals(OpId op);
  void buildRegisterLimit();
  void buildSpillDelay();
  void buildBlockingConcurrency();
  void buildSymmetryBreaking();

  // ---- checking (smt_check.cpp) ----
  z3::expr latencyCapLiteral(Cycle bound);
  std::optional<Schedule> decode();
  z3::check_result run(const z3::expr_vector& assumptions, double timeLimitSeconds);
  SmtAnswer check(const SmtQuery& query);
  void core(const SmtQuery& query, const std::vector<TwillFamily>& enabled,
            const std::optional<z3::expr>& restriction, const std::optional<z3::expr>& latencyCap,
            std::chrono::steady_clock::time_point begin, SmtAnswer& answer);
};

}  // namespace gaus::exact::detail
