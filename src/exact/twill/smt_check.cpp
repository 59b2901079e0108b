// Checking the SMT model (smt_encoding.hpp): each check assumes the guards of the families
// asked for, the latency cap of its L and the restriction of its query, so one model answers
// every L below the one it was built at and every minimization and explanation query; an UNSAT
// answer names its families through the unsat core, shrunk by deletion when asked.

#include <algorithm>
#include <bit>
#include <chrono>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/register_file.hpp>

#include "../start_schedule.hpp"
#include "smt_encoding.hpp"

namespace gaus::exact::detail {

namespace {

std::optional<std::vector<Cycle>> moduloAsap(const Graph& graph, std::int32_t ii) {
  auto asap = moduloAsapTimes(graph, ii);
  if (!asap) return std::nullopt;
  return std::move(asap).value();
}

// The two ops are on the same warp set.
z3::expr sameWarpSet(const OpLiterals& onWarp, OpId a, OpId b, z3::context& context) {
  z3::expr_vector equal(context);
  for (std::size_t w = 0; w < onWarp[a].size(); ++w) equal.push_back(onWarp[a][w] == onWarp[b][w]);
  return z3::mk_and(equal);
}

// The restrictions of a query as one assumption literal restriction_N (N counts them in
// `made`) that implies each of them; none when the query restricts nothing.
std::optional<z3::expr> restrictionLiteral(const SmtRestrictions& restrictions,
                                           const SmtVariables& vars, ClauseWriter& writer,
                                           std::int32_t& made) {
  z3::context& context = writer.context();
  z3::expr_vector parts(context);
  if (restrictions.maxWarpsUsed) {
    z3::expr_vector used(context);
    for (const auto& literal : vars.warpUsed) used.push_back(literal);
    parts.push_back(z3::atmost(used, static_cast<unsigned>(*restrictions.maxWarpsUsed)));
  }
  if (restrictions.maxCrossWarpEdges) {
    z3::expr_vector crossing(context);
    for (const auto& literal : vars.crossEdge) crossing.push_back(literal);
    parts.push_back(crossing.empty() ? context.bool_val(true)
                                     : z3::atmost(crossing, static_cast<unsigned>(
                                                                *restrictions.maxCrossWarpEdges)));
  }
  for (const auto& group : restrictions.sameWarpSet) {
    for (std::size_t i = 1; i < group.size(); ++i) {
      parts.push_back(sameWarpSet(vars.onWarp, group[0], group[i], context));
    }
  }
  if (parts.empty()) return std::nullopt;
  const z3::expr literal = writer.literal(fmt::format("restriction_{}", made++));
  writer.require(z3::implies(literal, z3::mk_and(parts)));
  return literal;
}

std::optional<Schedule> decode(const z3::model& model, const SmtFrame& frame,
                               const SmtVariables& vars) {
  Schedule schedule;
  schedule.ii = frame.ii;
  std::vector<WarpSet> warpSets;
  for (OpId op = 0; op < frame.graph.numOps(); ++op) {
    schedule.start.push_back(vars.starts.startIn(model, op));
    WarpSet set = 0;
    for (std::size_t w = 0; w < vars.onWarp[op].size(); ++w) {
      if (model.eval(vars.onWarp[op][w], true).is_true()) set |= WarpSet{1} << w;
    }
    warpSets.push_back(set);
  }
  schedule.warps = std::move(warpSets);
  return schedule;
}

// What the unsat core of the last check holds: the families among `enabled`, and whether
// `restriction` is there.
struct UnsatCore {
  std::vector<TwillFamily> families;
  bool hasRestriction = false;
};

UnsatCore unsatCore(z3::solver& solver, const ClauseWriter& writer,
                    const std::vector<TwillFamily>& enabled,
                    const std::optional<z3::expr>& restriction) {
  const z3::expr_vector core = solver.unsat_core();
  UnsatCore found;
  for (TwillFamily f : enabled) {
    for (unsigned i = 0; i < core.size(); ++i) {
      if (z3::eq(core[i], writer.guard(f))) found.families.push_back(f);
    }
  }
  if (restriction) {
    for (unsigned i = 0; i < core.size(); ++i) {
      found.hasRestriction = found.hasRestriction || z3::eq(core[i], *restriction);
    }
  }
  return found;
}

// The core's families shrunk by deletion: a family is dropped when the rest, with
// `alsoAssumed`, stays UNSAT without it. A check that times out keeps the family; the
// deletion stops when `timeLimitSeconds` from `begin` is used up.
std::vector<TwillFamily> shrinkCore(z3::solver& solver, const ClauseWriter& writer,
                                    std::vector<TwillFamily> families,
                                    const z3::expr_vector& alsoAssumed, double timeLimitSeconds,
                                    std::chrono::steady_clock::time_point begin) {
  for (std::size_t i = 0; i < families.size();) {
    const double left = timeLimitSeconds - secondsBetween(begin);
    if (left <= 0.0) break;
    z3::expr_vector trial(writer.context());
    for (std::size_t j = 0; j < families.size(); ++j) {
      if (j != i) trial.push_back(writer.guard(families[j]));
    }
    for (unsigned k = 0; k < alsoAssumed.size(); ++k) trial.push_back(alsoAssumed[k]);
    if (checkWithin(solver, trial, left) == z3::unsat) {
      families.erase(families.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  return families;
}

}  // namespace

std::optional<z3::expr> LatencyCaps::assumption(const SmtFrame& frame, const StartLiterals& starts,
                                                ClauseWriter& writer) {
  if (checked_ >= built_) return std::nullopt;
  const Cycle bound = checked_;
  if (const auto found = literals_.find(bound); found != literals_.end()) return found->second;
  const z3::expr capped = writer.literal(fmt::format("latency_le_{}", bound));
  const z3::expr dependence = writer.guard(TwillFamily::kDependence);
  std::optional<std::vector<Cycle>> latest;
  if (frame.earliest && frame.facts->order()) {
    latest = latestStarts(frame.graph, *frame.facts->order(), frame.ii, bound, *frame.earliest);
  }
  for (OpId op = 0; op < frame.graph.numOps(); ++op) {
    writer.clause({capped}, {starts.by(op, bound - frame.graph.duration(op))});
    if (latest) writer.clause({capped, dependence}, {starts.by(op, (*latest)[op])});
  }
  if (!latest) writer.clause({capped, dependence}, {});
  literals_.emplace(bound, capped);
  return capped;
}

TwillSmtModel::Impl::Impl(const Problem& problem, std::int32_t ii, Cycle latency,
                          const SmtModelOptions& options)
    : solver(context),
      frame{*problem.graph,
            *problem.machine,
            ii,
            latency,
            options,
            moduloAsap(*problem.graph, ii),
            problem.facts(),
            options.registerFile &&
                registerFileCanBind(*problem.graph, *problem.machine, ii, latency)},
      vars(context),
      writer(solver),
      caps(latency) {}

// The rows cut short by the clock are a part of the family, so an UNSAT answer still holds with
// them, but a schedule that exceeds the file is then no answer.
std::optional<z3::check_result> TwillSmtModel::Impl::recheckWithinRegisterFile(
    const SmtQuery& query, const z3::expr_vector& assumptions,
    std::chrono::steady_clock::time_point begin) {
  const auto schedule = decode(solver.get_model(), frame, vars);
  if (!schedule) return z3::sat;
  const auto use = registerFileUse(frame.graph, frame.machine, *schedule);
  if (!use || use->fitsIn(*frame.machine.registerFile)) return z3::sat;
  if (registerFileAdded) return std::nullopt;  // the rows are in, but incomplete
  registerFileAdded = true;
  BuildClock clock(Deadline(std::max(0.0, query.timeLimitSeconds - secondsBetween(begin))));
  registerFileComplete = addRegisterFile(frame, vars, writer, clock);
  const z3::check_result outcome = checkWithin(
      solver, assumptions, std::max(0.001, query.timeLimitSeconds - secondsBetween(begin)));
  if (outcome == z3::sat && !registerFileComplete) return std::nullopt;
  return outcome;
}

SmtAnswer TwillSmtModel::Impl::check(const SmtQuery& query) {
  const auto begin = std::chrono::steady_clock::now();
  z3::expr_vector assumptions(context);
  std::vector<TwillFamily> enabled;
  for (TwillFamily f : kAllTwillFamilies) {
    // A model without a strategy has no clause behind its guard: not assuming it keeps the
    // checks of a free model exactly those of before the family existed.
    if (f == TwillFamily::kStrategy && frame.options.strategy == nullptr) continue;
    if (query.families.has(f)) {
      assumptions.push_back(writer.guard(f));
      enabled.push_back(f);
    }
  }
  const bool orderOps = frame.options.breakSymmetry && query.restrictions.sameWarpSet.empty();
  if (orderOps) assumptions.push_back(vars.opSymmetry);
  const std::optional<z3::expr> latencyCap = caps.assumption(frame, vars.starts, writer);
  if (latencyCap) assumptions.push_back(*latencyCap);
  const std::optional<z3::expr> restriction =
      restrictionLiteral(query.restrictions, vars, writer, restrictionsMade);
  if (restriction) assumptions.push_back(*restriction);

  SmtAnswer answer;
  z3::check_result outcome = checkWithin(solver, assumptions, query.timeLimitSeconds);
  // The register-file family's rows come with the first schedule that exceeds the file
  // (smt_registers.cpp), and once complete keep every later schedule within it.
  std::optional<z3::check_result> standing = outcome;
  if (outcome == z3::sat && frame.registerFileCanBind && !registerFileComplete &&
      query.families.has(TwillFamily::kRegisterFile)) {
    standing = recheckWithinRegisterFile(query, assumptions, begin);
    if (standing) outcome = *standing;
  }
  if (!standing) {
    answer.status = ModelStatus::kTimeout;
    answer.reason = "the time limit stopped the register-file rows before they were complete";
  } else if (outcome == z3::sat) {
    answer.status = ModelStatus::kFeasible;
    answer.schedule = decode(solver.get_model(), frame, vars);
  } else if (outcome == z3::unsat) {
    answer.status = ModelStatus::kInfeasible;
    if (query.wantCore) {
      UnsatCore core = unsatCore(solver, writer, enabled, restriction);
      if (query.minimizeCore) {
        // The other assumptions, in the order the deletion checks make them.
        z3::expr_vector alsoAssumed(context);
        if (core.hasRestriction) alsoAssumed.push_back(*restriction);
        if (latencyCap) alsoAssumed.push_back(*latencyCap);
        if (orderOps) alsoAssumed.push_back(vars.opSymmetry);
        core.families = shrinkCore(solver, writer, std::move(core.families), alsoAssumed,
                                   query.timeLimitSeconds, begin);
      }
      answer.core = std::move(core.families);
      answer.coreHasRestriction = core.hasRestriction;
    }
  } else {
    setUndecided(solver, answer);
  }
  answer.seconds = secondsBetween(begin);
  return answer;
}

TwillSmtModel::TwillSmtModel(std::unique_ptr<Impl> impl, SmtModelSize estimatedSize)
    : impl_(std::move(impl)), estimatedSize_(estimatedSize) {}

Expected<std::unique_ptr<TwillSmtModel>> TwillSmtModel::buildWithin(
    const Problem& problem, std::int32_t ii, Cycle latency, const SmtModelOptions& options,
    const Deadline& deadline, std::optional<SmtModelSize> estimatedSize) {
  const SmtModelSize size =
      estimatedSize ? *estimatedSize : estimateSmtModelSize(problem, ii, latency, options);
  const SmtModelCost cost = size.cost();
  if (cost.total() > deadline.remainingSeconds()) {
    return Error{fmt::format(
        "would take about {:.1f}s to build ({:.1f}s), load into Z3 at its first check ({:.1f}s) "
        "and tear down ({:.1f}s), estimated from its {} literals and {} squared register row "
        "terms, and {:.1f}s are left",
        cost.total(), cost.build, cost.load, cost.teardown, size.literals,
        size.registerRowTermsSquared, deadline.remainingSeconds())};
  }
  const auto begin = std::chrono::steady_clock::now();
  auto impl = std::make_unique<Impl>(problem, ii, latency, options);
  if (!buildSmtModel(impl->frame, impl->vars, impl->writer, deadline)) {
    return Error{fmt::format("ran out of time {:.1f}s into its build (estimated at {:.1f}s)",
                             secondsBetween(begin), cost.build)};
  }
  if (cost.load + cost.teardown > deadline.remainingSeconds()) {
    return Error{fmt::format(
        "was built in {:.1f}s (estimated at {:.1f}s), and loading it into Z3 ({:.1f}s) and "
        "tearing it down ({:.1f}s) would not end in the {:.1f}s left",
        secondsBetween(begin), cost.build, cost.load, cost.teardown, deadline.remainingSeconds())};
  }
  return std::unique_ptr<TwillSmtModel>(new TwillSmtModel(std::move(impl), size));
}

TwillSmtModel::~TwillSmtModel() = default;

void TwillSmtModel::setLatency(Cycle latency) {
  impl_->caps.setChecked(latency);
}

Cycle TwillSmtModel::builtLatency() const {
  return impl_->frame.latency;
}

SmtAnswer TwillSmtModel::check(const SmtQuery& query) {
  return impl_->check(query);
}

const SmtModelSize& TwillSmtModel::estimatedSize() const {
  return estimatedSize_;
}

SmtAnswer checkOnce(const Problem& problem, std::int32_t ii, Cycle latency,
                    const SmtModelOptions& options, const SmtQuery& query) {
  const auto begin = std::chrono::steady_clock::now();
  const Deadline deadline(query.timeLimitSeconds);
  auto model = TwillSmtModel::buildWithin(problem, ii, latency, options, deadline);
  if (!model) {
    SmtAnswer answer;
    answer.status = ModelStatus::kTimeout;
    answer.notBuilt = model.error();
    answer.seconds = secondsBetween(begin);
    return answer;
  }
  SmtQuery within = query;
  // What is left after the build, less its teardown, which ends the call too.
  within.timeLimitSeconds =
      std::max(0.0, deadline.remainingSeconds() - (*model)->estimatedSize().cost().teardown);
  return (*model)->check(within);
}

std::int32_t countWarpsUsed(const Schedule& schedule) {
  WarpSet all = 0;
  if (schedule.warps) {
    for (WarpSet set : *schedule.warps) all |= set;
  }
  return std::popcount(all);
}

std::int32_t countCrossWarpEdges(const Graph& graph, const Schedule& schedule) {
  if (!schedule.warps) return 0;
  std::int32_t crossing = 0;
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    const OpId u = graph.edgeSource(e);
    const OpId v = graph.edgeTarget(e);
    if (u != v && (*schedule.warps)[u] != (*schedule.warps)[v]) ++crossing;
  }
  return crossing;
}

SmtModelOptions modelOptionsOf(const TwillOptions& options) {
  SmtModelOptions modelOptions;
  modelOptions.breakSymmetry = options.smt.breakSymmetry && options.strategy == nullptr;
  modelOptions.registerFile = options.smt.families.has(TwillFamily::kRegisterFile);
  modelOptions.strategy = options.strategy;
  return modelOptions;
}

}  // namespace gaus::exact::detail

namespace gaus::exact {

TwillCheck checkTwill(const Problem& problem, std::int32_t ii, Cycle latency,
                      const TwillCheckOptions& options) {
  detail::SmtQuery query;
  query.families = options.families;
  query.timeLimitSeconds = options.timeLimitSeconds;
  query.wantCore = true;
  query.minimizeCore = options.minimizeCore;
  detail::SmtModelOptions modelOptions;
  modelOptions.breakSymmetry = options.breakSymmetry && options.strategy == nullptr;
  modelOptions.registerFile = options.families.has(TwillFamily::kRegisterFile);
  modelOptions.strategy = options.strategy;
  detail::SmtAnswer answer = detail::checkOnce(problem, ii, latency, modelOptions, query);
  TwillCheck check;
  check.status = answer.status;
  check.schedule = std::move(answer.schedule);
  check.core = std::move(answer.core);
  check.seconds = answer.seconds;
  return check;
}

}  // namespace gaus::exact
