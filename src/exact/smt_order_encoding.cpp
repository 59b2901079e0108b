// The order encoding shared by the exact engine's SAT models (smt_order_encoding.hpp).

#include "smt_order_encoding.hpp"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <fmt/format.h>

namespace gaus::exact::detail {

namespace {

// Ends a check at its limit with Z3_interrupt from a thread of ours, joined before the check
// returns, in place of Z3's "timeout" parameter. Z3 4.8.12 times a check with a thread from a
// static pool that puts itself back after the check has returned, so a process that exits in that
// window writes into freed memory (docs/exact.md, "The crash seen once"). With this watchdog no
// Z3 thread is ever started, so none can outlive its check, whatever Z3 the build links.
class CheckWatchdog {
 public:
  CheckWatchdog(z3::context& context, std::chrono::milliseconds limit)
      : thread_([this, &context, limit] { watch(context, limit); }) {}
  CheckWatchdog(const CheckWatchdog&) = delete;
  CheckWatchdog& operator=(const CheckWatchdog&) = delete;
  ~CheckWatchdog() {
    {
      std::lock_guard lock(mutex_);
      checkEnded_ = true;
    }
    ended_.notify_one();
    thread_.join();
  }

 private:
  void watch(z3::context& context, std::chrono::milliseconds limit) {
    std::unique_lock lock(mutex_);
    if (ended_.wait_for(lock, limit, [this] { return checkEnded_; })) return;
    // An interrupt that arrives before the check has begun is lost (Z3 interrupts only a running
    // operation), so it is repeated until the check has ended.
    do {
      context.interrupt();
    } while (!ended_.wait_for(lock, std::chrono::milliseconds(10), [this] { return checkEnded_; }));
  }

  std::mutex mutex_;
  std::condition_variable ended_;
  bool checkEnded_ = false;
  std::thread thread_;  // last: it starts once the members it uses exist
};

}  // namespace

double secondsBetween(std::chrono::steady_clock::time_point begin) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
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

z3::check_result checkWithin(z3::solver& solver, const z3::expr_vector& assumptions,
                             double timeLimitSeconds) {
  z3::params parameters(solver.ctx());
  const double ms = std::clamp(timeLimitSeconds * 1000.0, 1.0, 4.0e9);
  // Relevancy filtering only delays propagation in a model of clauses and cardinality rows.
  // (It was measured on the integer encoding, where it took the stand-in's first UNSAT checks
  // from 59 s to 6 s; on this one, with or without it, the stand-in's checks at II 18 take
  // 1.6-3.6 s in all, noise of the loaded machine.)
  parameters.set("smt.relevancy", 0U);
  solver.set(parameters);
  const CheckWatchdog watchdog(solver.ctx(),
                               std::chrono::milliseconds(static_cast<std::int64_t>(ms)));
  return solver.check(assumptions);
}

void setUndecided(z3::solver& solver, SmtAnswer& answer) {
  answer.reason = solver.reason_unknown();
  answer.status = answer.reason.find("timeout") != std::string::npos ||
                          answer.reason.find("canceled") != std::string::npos
                      ? ModelStatus::kTimeout
                      : ModelStatus::kUnknown;
}

}  // namespace gaus::exact::detail
