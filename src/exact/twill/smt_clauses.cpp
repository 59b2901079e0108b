// The literals of the SMT model and the writer of its clauses (smt_encoding.hpp).

#include <algorithm>

#include <fmt/format.h>

#include "smt_encoding.hpp"

namespace gaus::exact::detail {

double secondsBetween(std::chrono::steady_clock::time_point begin) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

Cycle liveHorizon(const Graph& graph, OpId op, std::int32_t ii, Cycle latency) {
  Cycle horizon = 0;
  for (EdgeId e : graph.outEdges(op)) {
    horizon = std::max(horizon, latency - graph.duration(graph.edgeTarget(e)) +
                                    static_cast<Cycle>(graph.edgeDistance(e)) * ii);
  }
  return horizon;
}

void StartLiterals::declare(Cycle lastStart) {
  const auto op = static_cast<OpId>(startsBy_.size());
  lastStart_.push_back(lastStart);
  std::vector<z3::expr> order;
  for (Cycle t = 0; t < lastStart; ++t) {
    order.push_back(context_.bool_const(fmt::format("t_{}_le_{}", op, t).c_str()));
  }
  startsBy_.push_back(std::move(order));
}

z3::expr StartLiterals::by(OpId op, Cycle t) const {
  if (t < 0) return context_.bool_val(false);
  if (t >= lastStart_[op]) return context_.bool_val(true);
  return startsBy_[op][static_cast<std::size_t>(t)];
}

Cycle StartLiterals::startIn(const z3::model& model, OpId op) const {
  Cycle t = 0;
  while (t < lastStart_[op] && !model.eval(by(op, t), true).is_true()) ++t;
  return t;
}

void precede(const StartLiterals& starts, ClauseWriter& writer,
             std::initializer_list<z3::expr> guards, OpId u, OpId v, Cycle slack) {
  for (Cycle t = 0; t <= starts.lastStart(v); ++t) {
    writer.clause(guards, {!starts.by(v, t), starts.by(u, t + slack)});
  }
}

SmtVariables::SmtVariables(z3::context& context)
    : opSymmetry(context.bool_const("op_symmetry")), starts(context) {}

ClauseWriter::ClauseWriter(z3::solver& solver) : solver_(solver) {
  for (TwillFamily family : kAllTwillFamilies) {
    guards_.push_back(literal(fmt::format("family_{}", toString(family))));
  }
}

z3::expr ClauseWriter::literal(const std::string& name) const {
  return context().bool_const(name.c_str());
}

z3::expr ClauseWriter::guard(TwillFamily family) const {
  return guards_[static_cast<std::size_t>(family)];
}

void ClauseWriter::clause(std::initializer_list<z3::expr> guards,
                          std::initializer_list<z3::expr> literals) {
  z3::expr_vector terms(context());
  for (const z3::expr& guard : guards) terms.push_back(!guard);
  for (const z3::expr& l : literals) {
    if (l.is_true()) return;
    if (!l.is_false()) terms.push_back(l);
  }
  solver_.add(z3::mk_or(terms));
}

void ClauseWriter::add(TwillFamily family, const z3::expr& constraint) {
  solver_.add(z3::implies(guard(family), constraint));
}

void ClauseWriter::require(const z3::expr& constraint) {
  solver_.add(constraint);
}

bool BuildClock::outOfTime() {
  stopped_ = stopped_ || deadline_.expired();
  return stopped_;
}

}  // namespace gaus::exact::detail
