// Checking the SMT model (smt_encoding.hpp): each check assumes the guards of the families
// asked for, the latency cap of its L and the restriction of its query, so one model answers
// every L below the one it was built at and every minimization and explanation query; an UNSAT
// answer names its families through the unsat core, shrunk by deletion when asked.

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "../start_schedule.hpp"
#include "smt_encoding.hpp"

namespace gaus::exact::detail {

// The assumption "every op ends by L" for L below the model's own: the start bounds and,
// within the dependence family, the ALAP bounds at L.
z3::expr TwillSmtModel::Impl::latencyCapLiteral(Cycle bound) {
  if (const auto found = caps.literals.find(bound); found != caps.literals.end()) {
    return found->second;
  }
  const z3::expr capped = literal(fmt::format("latency_le_{}", bound));
  std::optional<std::vector<Cycle>> latest;
  if (domains.earliest) latest = latestStarts(frame.graph, frame.ii, bound, *domains.earliest);
  for (OpId op = 0; op < frame.graph.numOps(); ++op) {
    clause({capped}, {by(op, bound - frame.graph.duration(op))});
    if (latest) clause({capped, family(TwillFamily::kDependence)}, {by(op, (*latest)[op])});
  }
  if (!latest) clause({capped, family(TwillFamily::kDependence)}, {});
  caps.literals.emplace(bound, capped);
  return capped;
}

std::optional<Schedule> TwillSmtModel::Impl::decode() {
  const z3::model model = solver.get_model();
  Schedule schedule;
  schedule.ii = frame.ii;
  std::vector<WarpSet> warpSets;
  for (OpId op = 0; op < frame.graph.numOps(); ++op) {
    Cycle t = 0;
    while (t < domains.lastStart[op] && !model.eval(by(op, t), true).is_true()) ++t;
    schedule.start.push_back(t);
    WarpSet set = 0;
    for (int w = 0; w < warps(); ++w) {
      if (model.eval(vars.onWarp[op][w], true).is_true()) set |= WarpSet{1} << w;
    }
    warpSets.push_back(set);
  }
  schedule.warps = std::move(warpSets);
  return schedule;
}

z3::check_result TwillSmtModel::Impl::run(const z3::expr_vector& assumptions,
                                          double timeLimitSeconds) {
  z3::params parameters(context);
  const double ms = std::clamp(timeLimitSeconds * 1000.0, 1.0, 4.0e9);
  parameters.set("timeout", static_cast<unsigned>(ms));
  // Relevancy filtering only delays propagation in a model of clauses and cardinality rows.
  // (It was measured on the integer encoding, where it took the stand-in's first UNSAT checks
  // from 59 s to 6 s; on this one, with or without it, the stand-in's checks at II 18 take
  // 1.6-3.6 s in all, noise of the loaded machine.)
  parameters.set("smt.relevancy", 0U);
  solver.set(parameters);
  return solver.check(assumptions);
}

SmtAnswer TwillSmtModel::Impl::check(const SmtQuery& query) {
  const auto begin = std::chrono::steady_clock::now();
  z3::expr_vector assumptions(context);
  std::vector<TwillFamily> enabled;
  for (TwillFamily f : kAllTwillFamilies) {
    if (query.families.has(f)) {
      assumptions.push_back(family(f));
      enabled.push_back(f);
    }
  }
  const bool singlesOut = !query.restrictions.sameWarpSet.empty();
  if (frame.options.breakSymmetry && !singlesOut) assumptions.push_back(vars.opSymmetry);
  std::optional<z3::expr> latencyCap;
  if (caps.checked < frame.latency) {
    latencyCap = latencyCapLiteral(caps.checked);
    assumptions.push_back(*latencyCap);
  }
  std::optional<z3::expr> restriction;
  {
    z3::expr_vector parts(context);
    if (query.restrictions.maxWarpsUsed) {
      z3::expr_vector used(context);
      for (const auto& literal : vars.warpUsed) used.push_back(literal);
      parts.push_back(z3::atmost(used, static_cast<unsigned>(*query.restrictions.maxWarpsUsed)));
    }
    if (query.restrictions.maxCrossWarpEdges) {
      z3::expr_vector crossing(context);
      for (const auto& literal : vars.crossEdge) crossing.push_back(literal);
      parts.push_back(
          crossing.empty()
              ? context.bool_val(true)
              : z3::atmost(crossing, static_cast<unsigned>(*query.restrictions.maxCrossWarpEdges)));
    }
    for (const auto& group : query.restrictions.sameWarpSet) {
      for (std::size_t i = 1; i < group.size(); ++i)
        parts.push_back(sameWarpSet(group[0], group[i]));
    }
    if (!parts.empty()) {
      const z3::expr literal =
          context.bool_const(fmt::format("restriction_{}", restrictionCount++).c_str());
      solver.add(z3::implies(literal, z3::mk_and(parts)));
      assumptions.push_back(literal);
      restriction = literal;
    }
  }

  SmtAnswer answer;
  const z3::check_result outcome = run(assumptions, query.timeLimitSeconds);
  if (outcome == z3::sat) {
    answer.status = ModelStatus::kFeasible;
    answer.schedule = decode();
  } else if (outcome == z3::unsat) {
    answer.status = ModelStatus::kInfeasible;
    if (query.wantCore) core(query, enabled, restriction, latencyCap, begin, answer);
  } else {
    answer.reason = solver.reason_unknown();
    answer.status = answer.reason.find("timeout") != std::string::npos ||
                            answer.reason.find("canceled") != std::string::npos
                        ? ModelStatus::kTimeout
                        : ModelStatus::kUnknown;
  }
  answer.seconds = secondsBetween(begin);
  return answer;
}

// The families of the unsat core of the last check, shrunk by deletion when asked: a family
// is dropped when the rest stays UNSAT without it. Checks that time out keep the family.
void TwillSmtModel::Impl::core(const SmtQuery& query, const std::vector<TwillFamily>& enabled,
                               const std::optional<z3::expr>& restriction,
                               const std::optional<z3::expr>& latencyCap,
                               std::chrono::steady_clock::time_point begin, SmtAnswer& answer) {
  const z3::expr_vector unsatCore = solver.unsat_core();
  std::vector<TwillFamily> inCore;
  for (TwillFamily f : enabled) {
    for (unsigned i = 0; i < unsatCore.size(); ++i) {
      if (z3::eq(unsatCore[i], family(f))) inCore.push_back(f);
    }
  }
  bool withRestriction = false;
  if (restriction) {
    for (unsigned i = 0; i < unsatCore.size(); ++i) {
      withRestriction = withRestriction || z3::eq(unsatCore[i], *restriction);
    }
  }
  if (query.minimizeCore) {
    for (std::size_t i = 0; i < inCore.size();) {
      const double left = query.timeLimitSeconds - secondsBetween(begin);
      if (left <= 0.0) break;
      z3::expr_vector trial(context);
      for (std::size_t j = 0; j < inCore.size(); ++j) {
        if (j != i) trial.push_back(family(inCore[j]));
      }
      if (withRestriction) trial.push_back(*restriction);
      if (latencyCap) trial.push_back(*latencyCap);
      if (frame.options.breakSymmetry && query.restrictions.sameWarpSet.empty()) {
        trial.push_back(vars.opSymmetry);
      }
      if (run(trial, left) == z3::unsat) {
        inCore.erase(inCore.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        ++i;
      }
    }
  }
  answer.core = std::move(inCore);
  answer.coreHasRestriction = withRestriction;
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
  if (!impl->build(deadline)) {
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
  impl_->caps.checked = std::min(latency, impl_->frame.latency);
}

Cycle TwillSmtModel::latency() const {
  return impl_->caps.checked;
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

}  // namespace gaus::exact::detail

namespace gaus::exact {

TwillCheck checkTwill(const Problem& problem, std::int32_t ii, Cycle latency,
                      const TwillCheckOptions& options) {
  detail::SmtQuery query;
  query.families = options.families;
  query.timeLimitSeconds = options.timeLimitSeconds;
  query.wantCore = true;
  query.minimizeCore = options.minimizeCore;
  detail::SmtAnswer answer =
      detail::checkOnce(problem, ii, latency, {options.breakSymmetry}, query);
  TwillCheck check;
  check.status = answer.status;
  check.schedule = std::move(answer.schedule);
  check.core = std::move(answer.core);
  check.seconds = answer.seconds;
  return check;
}

}  // namespace gaus::exact
