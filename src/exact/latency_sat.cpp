// The acyclic latency problem at a fixed L as a SAT model on Z3, and the destructive lower bound
// on it (Klein and Scholl, "Computing lower bounds by destructive improvement: an application to
// resource-constrained project scheduling", EJOR 112(2), 1999): a trial L is refuted, so L + 1
// bounds the latency from below; refuting the incumbent's L - 1 proves the incumbent optimal.
//
// Starts are in the order encoding (Tamura, Taga, Kitagawa and Banbara, "Compiling finite linear
// CSP into SAT", Constraints 14(2), 2009), the encoding of Twill's SMT model (twill/
// smt_families.cpp; the literals, the clause writer and the difference clauses are its
// StartLiterals, ClauseWriter and precede): per op and cycle t the literal "t(op) <= t", within
// the op's window [ASAP, ALAP at L]. Capacity is stated by energetic reasoning (Lopez, Erschler
// and Esquirol, "Ordonnancement de taches sous contraintes: une approche energetique", RAIRO-APII
// 26(5), 1992; Baptiste, Le Pape and Nuijten, "Constraint-Based Scheduling", 2001, chapter 3):
// for every resource r and interval of cycles [a, b], the units of r that the ops hold within
// [a, b] are at most capacity(r) x (b - a + 1). Cycle tau of a reservation block (begin,
// length, units) of an op is inside [a, b] exactly when its start is in [a - begin - j, b -
// begin - j] (j = tau - start - begin), so the energy of the op in [a, b] is the sum over the
// block's cycles of units x [start in that range], and each row is a pseudo-Boolean row over
// the literals "t(op) in [x, y]", one per op and range, forced true by the two order literals.
//
// Why interval rows: the rows of single cycles ([a, a]) already define capacity exactly, and
// every wider row is their sum, so the wider rows change no answer. They change how fast an
// answer comes: a resource that must fit k ops into fewer than k cycles is the pigeonhole
// principle, which takes resolution (and so CDCL over the cycle rows) exponentially long, while
// one interval row states it and its propagation pushes the other ops out of a full interval.
// On HeuriGym's jpeg_idct (a unary SUB and ASR unit, 122 ops) the model without the wider rows
// did not refute L = 25 in 120 s; with them it does in 0.6 s (docs/exact.md, "The latency
// problem by refutation").
//
// Departures from energetic reasoning as a propagator: it computes each op's minimal
// intersection with [a, b] over its current window and compares the sum with the interval's
// capacity; here the intersection is that of the op's actual start (a literal per range), and
// Z3's pseudo-Boolean propagation, which reads the literals the search has fixed, plays the
// propagator. Every interval inside [0, L) is stated, not only those bounded by release dates
// and deadlines (the windows move during the search, so the useful intervals are not known when
// the model is built); a row that can never bind (its terms cannot exceed its capacity) is left
// out. Restricting the intervals to at most 12 cycles made jpeg_idct's refutation 0.8 s and
// invert's (333 ops) impossible in 120 s, so none is left out by length.

#include "latency_sat.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include <gaus/core/deadline.hpp>
#include <gaus/core/memory_limit.hpp>
#include <gaus/core/problem_facts.hpp>
#include <gaus/core/verify.hpp>

#include "start_schedule.hpp"
#include "smt_order_encoding.hpp"

namespace gaus::exact::detail {

namespace {

// Above this many (interval, reserved cycle) pairs the size estimate does not count the terms
// one by one (estimateLatencySatSize): 50 M bounds a model of 200 M literals, far above any
// memory limit at 350 bytes a literal.
constexpr std::int64_t kMaxCountedTerms = 50'000'000;

// One term of an interval row: `units` x [t(op) in [from, to]], the range within the op's window.
struct EnergyTerm {
  OpId op = 0;
  Cycle from = 0;
  Cycle to = 0;
  std::int32_t units = 0;
};

// An interval row: the terms that may hold, and the units they may sum to at most (the capacity
// of the interval less the terms that hold for every start in the windows).
struct EnergyRow {
  std::vector<EnergyTerm> terms;
  std::int64_t bound = 0;
};

// Calls visit(row) for every resource and interval [a, b] of [0, horizon) whose row can bind;
// stops when visit returns false.
template <class Visit>
void forEachEnergyRow(const Graph& graph, const Machine& machine, const TimeWindows& windows,
                      Visit&& visit) {
  Cycle horizon = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    horizon = std::max(horizon, windows.latest[op] + graph.duration(op));
  }
  EnergyRow row;
  for (ResourceId r = 0; r < machine.numResources(); ++r) {
    if (!machine.resources[r].limited()) continue;
    const std::int64_t capacity = *machine.resources[r].capacity;
    for (Cycle a = 0; a < horizon; ++a) {
      for (Cycle b = a; b < horizon; ++b) {
        row.terms.clear();
        row.bound = capacity * (b - a + 1);
        std::int64_t open = 0;
        for (OpId op = 0; op < graph.numOps(); ++op) {
          for (const auto& block : graph.reservation(op)) {
            if (block.resource != r) continue;
            for (std::int32_t j = 0; j < block.length; ++j) {
              const Cycle from = std::max(a - block.begin - j, windows.earliest[op]);
              const Cycle to = std::min(b - block.begin - j, windows.latest[op]);
              if (from > to) continue;
              if (from == windows.earliest[op] && to == windows.latest[op]) {
                row.bound -= block.units;
              } else {
                row.terms.push_back({op, from, to, block.units});
                open += block.units;
              }
            }
          }
        }
        if (open <= row.bound) continue;
        if (!visit(row)) return;
      }
    }
  }
}

}  // namespace

SmtModelSize estimateLatencySatSize(const Graph& graph, const Machine& machine,
                                    const TimeWindows& windows) {
  SmtModelSize size;
  Cycle horizon = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    size.booleans += windows.latest[op];
    size.literals += 2 * windows.latest[op] + 1;  // the order chain and the window's lower end
    horizon = std::max(horizon, windows.latest[op] + graph.duration(op));
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    if (graph.edgeDistance(e) == 0) size.literals += 2 * (windows.latest[graph.edgeTarget(e)] + 1);
  }
  // Each term at most one new range literal, defined by a clause of three. Counting the terms
  // visits every interval and reserved cycle; above kMaxCountedTerms of those (L in the
  // thousands: raw cycles of Triton's dumps) the visits themselves would take seconds, so the
  // count that bounds them from above stands in for it (such a model is refused anyway).
  std::int64_t reservedCycles = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    for (const auto& block : graph.reservation(op)) {
      if (machine.resources[block.resource].limited()) reservedCycles += block.length;
    }
  }
  const std::int64_t visits = reservedCycles * (horizon * (horizon + 1) / 2);
  if (visits > kMaxCountedTerms) {
    size.booleans += visits;
    size.literals += 4 * visits;
    return size;
  }
  forEachEnergyRow(graph, machine, windows, [&](const EnergyRow& row) {
    const auto terms = static_cast<std::int64_t>(row.terms.size());
    size.booleans += terms;
    size.literals += 4 * terms;
    return true;
  });
  return size;
}

struct LatencySatModel::Impl {
  Impl(const Problem& problem, Cycle latency, TimeWindows startWindows)
      : graph(*problem.graph),
        machine(*problem.machine),
        facts(problem.facts()),
        built(latency),
        windows(std::move(startWindows)),
        solver(context),
        starts(context),
        writer(solver) {}

  // Declares the starts and adds the windows, the dependences and the interval rows; false when
  // the deadline passed first.
  bool build(const Deadline& deadline);
  // The literal "t(op) in [from, to]" (within its window), made once.
  z3::expr startsWithin(OpId op, Cycle from, Cycle to);
  // The assumption that every op ends by `latency` (< built).
  z3::expr cap(Cycle latency, const std::vector<Cycle>& latest);

  const Graph& graph;
  const Machine& machine;
  const std::shared_ptr<const ProblemFacts> facts;  // the topological order the caps read
  const Cycle built;
  const TimeWindows windows;
  SmtModelSize size;
  z3::context context;
  z3::solver solver;
  StartLiterals starts;
  ClauseWriter writer;
  std::map<std::tuple<OpId, Cycle, Cycle>, z3::expr> ranges;
  std::map<Cycle, z3::expr> caps;
};

bool LatencySatModel::Impl::build(const Deadline& deadline) {
  BuildClock clock(deadline);
  for (OpId op = 0; op < graph.numOps(); ++op) {
    starts.declare(windows.latest[op]);
    for (Cycle t = 1; t < windows.latest[op]; ++t) {
      writer.clause({}, {!starts.by(op, t - 1), starts.by(op, t)});
    }
    writer.clause({}, {!starts.by(op, windows.earliest[op] - 1)});
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    if (graph.edgeDistance(e) > 0) continue;  // one iteration: loop-carried edges do not apply
    if (clock.outOfTime()) return false;
    precede(starts, writer, {}, graph.edgeSource(e), graph.edgeTarget(e), -graph.edgeDelay(e));
  }
  forEachEnergyRow(graph, machine, windows, [&](const EnergyRow& row) {
    if (clock.outOfTime()) return false;
    if (row.bound < 0) {
      writer.require(context.bool_val(false));
      return true;
    }
    z3::expr_vector terms(context);
    std::vector<int> weights;
    bool unitWeights = true;
    for (const EnergyTerm& term : row.terms) {
      terms.push_back(startsWithin(term.op, term.from, term.to));
      weights.push_back(term.units);
      unitWeights = unitWeights && term.units == 1;
    }
    const auto bound = static_cast<int>(std::min<std::int64_t>(row.bound, INT32_MAX));
    writer.require(unitWeights ? z3::atmost(terms, static_cast<unsigned>(bound))
                               : z3::pble(terms, weights.data(), bound));
    return true;
  });
  return !clock.stopped();
}

z3::expr LatencySatModel::Impl::startsWithin(OpId op, Cycle from, Cycle to) {
  const auto key = std::make_tuple(op, from, to);
  if (const auto found = ranges.find(key); found != ranges.end()) return found->second;
  const z3::expr within = writer.literal(fmt::format("t_{}_in_{}_{}", op, from, to));
  // Forced true by a start in the range; only bounded from above (by the rows), so the other
  // direction would prune nothing.
  writer.clause({}, {starts.by(op, from - 1), !starts.by(op, to), within});
  ranges.emplace(key, within);
  return within;
}

z3::expr LatencySatModel::Impl::cap(Cycle latency, const std::vector<Cycle>& latest) {
  if (const auto found = caps.find(latency); found != caps.end()) return found->second;
  const z3::expr capped = writer.literal(fmt::format("latency_le_{}", latency));
  for (OpId op = 0; op < graph.numOps(); ++op) {
    writer.clause({capped}, {starts.by(op, latest[op])});
  }
  caps.emplace(latency, capped);
  return capped;
}

LatencySatModel::LatencySatModel(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
LatencySatModel::~LatencySatModel() = default;

Expected<std::unique_ptr<LatencySatModel>> LatencySatModel::buildWithin(
    const Problem& problem, Cycle latency, const TimeWindows& windows, const Deadline& deadline,
    std::int64_t memoryLimitBytes) {
  const SmtModelSize size = estimateLatencySatSize(*problem.graph, *problem.machine, windows);
  if (size.bytes() > memoryLimitBytes) {
    return Error{fmt::format("would take about {} ({} literals), above memory_limit ({})",
                             formatBytes(size.bytes()), size.literals,
                             formatBytes(memoryLimitBytes))};
  }
  const SmtModelCost cost = size.cost();
  if (cost.total() > deadline.remainingSeconds()) {
    return Error{fmt::format(
        "would take about {:.1f}s to build, load and tear down ({} literals), and {:.1f}s are "
        "left",
        cost.total(), size.literals, deadline.remainingSeconds())};
  }
  auto impl = std::make_unique<Impl>(problem, latency, windows);
  impl->size = size;
  if (!impl->build(deadline)) {
    return Error{fmt::format("ran out of time in its build (estimated at {:.1f}s)", cost.build)};
  }
  return std::unique_ptr<LatencySatModel>(new LatencySatModel(std::move(impl)));
}

SmtAnswer LatencySatModel::check(Cycle latency, double timeLimitSeconds) {
  const auto begin = std::chrono::steady_clock::now();
  SmtAnswer answer;
  z3::expr_vector assumptions(impl_->context);
  if (latency < impl_->built) {
    const auto latest = latestStarts(impl_->graph, *impl_->facts->order(), std::nullopt,
                                     std::max<Cycle>(latency, 0), impl_->windows.earliest);
    if (!latest) {
      answer.status = ModelStatus::kInfeasible;  // the critical path alone is longer
      answer.seconds = secondsBetween(begin);
      return answer;
    }
    assumptions.push_back(impl_->cap(latency, *latest));
  }
  const double limit = timeLimitSeconds > 0 ? timeLimitSeconds : 4.0e6;
  const z3::check_result outcome = checkWithin(impl_->solver, assumptions, limit);
  if (outcome == z3::sat) {
    answer.status = ModelStatus::kFeasible;
    const z3::model model = impl_->solver.get_model();
    Schedule schedule;
    for (OpId op = 0; op < impl_->graph.numOps(); ++op) {
      schedule.start.push_back(impl_->starts.startIn(model, op));
    }
    answer.schedule = std::move(schedule);
  } else if (outcome == z3::unsat) {
    answer.status = ModelStatus::kInfeasible;
  } else {
    setUndecided(impl_->solver, answer);
  }
  answer.seconds = secondsBetween(begin);
  return answer;
}

const SmtModelSize& LatencySatModel::estimatedSize() const {
  return impl_->size;
}

LatencyRefutation refuteLatencies(const Problem& problem, const std::vector<Cycle>& asap, Cycle top,
                                  Cycle lower, const Deadline& deadline,
                                  std::int64_t memoryLimitBytes) {
  LatencyRefutation refutation;
  if (top < lower) return refutation;
  auto attemptAt = [](Cycle latency) {
    Attempt attempt;
    attempt.phase = "sat";
    attempt.latency = latency;
    return attempt;
  };
  const auto facts = problem.facts();
  if (!facts->order()) return refutation;
  const auto latest = latestStarts(*problem.graph, *facts->order(), std::nullopt, top, asap);
  if (!latest) {
    Attempt attempt = attemptAt(top);
    attempt.status = ModelStatus::kInfeasible;
    attempt.bound = static_cast<double>(top + 1);
    attempt.detail = "the critical path is longer";
    refutation.attempts.push_back(std::move(attempt));
    refutation.refuted = top;
    return refutation;
  }
  const auto begin = std::chrono::steady_clock::now();
  auto model =
      LatencySatModel::buildWithin(problem, top, {asap, *latest}, deadline, memoryLimitBytes);
  if (!model) {
    Attempt attempt = attemptAt(top);
    attempt.status = ModelStatus::kTimeout;
    attempt.seconds = secondsBetween(begin);
    attempt.detail = fmt::format("model not built: the SAT model at L={} {}", top, model.error());
    refutation.attempts.push_back(std::move(attempt));
    return refutation;
  }
  const std::string size = fmt::format("{} literals", (*model)->estimatedSize().literals);
  for (Cycle latency = top; latency >= lower && !deadline.expired();) {
    SmtAnswer answer = (*model)->check(latency, deadline.remainingSeconds());
    Attempt attempt = attemptAt(latency);
    attempt.status = answer.status;
    attempt.seconds = answer.seconds;
    attempt.detail = answer.reason.empty() ? size : size + ", " + answer.reason;
    if (answer.status == ModelStatus::kFeasible) {
      // Every schedule passes the verifier before it counts.
      const VerificationReport report = verify(problem, *answer.schedule);
      if (!report.ok()) {
        attempt.call = CallStatus::kError;
        attempt.detail += "; its schedule fails the verifier: " + report.summary();
        refutation.attempts.push_back(std::move(attempt));
        break;
      }
      latency = report.metrics.latency - 1;
      refutation.best = std::move(answer.schedule);
      refutation.attempts.push_back(std::move(attempt));
      continue;
    }
    if (answer.status == ModelStatus::kInfeasible) {
      attempt.bound = static_cast<double>(latency + 1);
      refutation.refuted = latency;
    }
    refutation.attempts.push_back(std::move(attempt));
    break;
  }
  return refutation;
}

}  // namespace gaus::exact::detail
