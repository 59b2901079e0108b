// Modulo scheduling at a fixed II minimizing L: phase 1 of Twill (Soi et al., OSDI'26, arXiv
// 2512.18134, section 5 and Algorithm 1), as restated in TWILL.md section 2. The model is
// stage_residue_model.hpp; the search over II from MII = max(ResMII, RecMII) upward is
// modulo_search.cpp. One attempt at a fixed II, step by step (members of AttemptAtIi below):
//   ruleOut            infeasible without a solve: a unit's work exceeds II, or a recurrence
//   boundWindows       ASAP starts at II, a start schedule, the bound on L, latest starts
//   chooseFormulation  stage/residue or time-indexed, and the size guard
//   solve              build the model, give the solver the start and what is left of the time
//   interpret          status, schedule, bound on L, and the detail line
//
// Departures from the paper, all for speed (TWILL.md section 2 "Speed"; figures in
// docs/benchmarks.md "Exact engine"):
// - Windows: M(v) lies in [ASAP(v), ALAP(v)] at the current II, where ASAP is the longest path
//   over all edges weighted d - distance II and ALAP is taken from an upper bound on L (a
//   greedy modulo schedule's latency). The window fixes the stage range and, when narrower
//   than II, removes residues. The upper bound on L is the start schedule's latency.
// - The start schedule (the better of the heuristic module's modulo list schedule and iterative
//   modulo scheduling, Rau, MICRO 1994; start_schedule.hpp) is the solver's first incumbent.
// - Interchangeable ops are ordered (symmetry.hpp); ops of one recurrence have their residues
//   linked (residue_links.hpp); an upper bound on L that loses no schedule bounds the windows when
//   no start schedule is found (modulo_bounds.hpp).
// - With an upper bound on L and narrow windows, the time-indexed form (time_indexed.cpp) is
//   used instead: one binary per op and start cycle, which folds each start to its residue.
// - L >= M(v) + duration(v) with the project's duration = max(latency, reservation length)
//   (contributing.md), where TWILL.md writes max(1, cycles(v)); they differ only for ops of
//   duration 0, which here do not lengthen the schedule.

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/deadline.hpp>
#include <gaus/exact/modulo_milp.hpp>
#include <gaus/core/problem_facts.hpp>
#include <gaus/milp/milp_call.hpp>

#include "modulo_bounds.hpp"
#include "residue_links.hpp"
#include "stage_residue_model.hpp"
#include "start_schedule.hpp"
#include "symmetry.hpp"
#include "time_indexed.hpp"

namespace gaus::exact {

namespace {

// One MILP at a fixed II (the steps are listed at the top of this file). Each step but the last
// returns false when it has settled the attempt.
class AttemptAtIi {
 public:
  AttemptAtIi(const Problem& problem, std::int32_t ii, const ModuloMilpOptions& options)
      : graph_(*problem.graph),
        machine_(*problem.machine),
        problem_(problem),
        ii_(ii),
        options_(options),
        facts_(problem.facts()),
        begin_(std::chrono::steady_clock::now()),
        // The attempt's time covers all of it: the start heuristics and building the model take
        // their share before the solver gets the rest.
        call_(options.call) {
    call_.deadline = options.call.deadline.share(1.0, options.attemptSeconds);
    limitSeconds_ = call_.deadline.remainingLimit();
    attempt_.ii = ii;
  }

  ModuloAttempt run() {
    if (ruleOut() && boundWindows() && chooseFormulation()) interpret(solve());
    attempt_.seconds = secondsSince(begin_);
    return std::move(attempt_);
  }

 private:
  bool settle(ModelStatus status, std::string formulation, std::string detail) {
    attempt_.status = status;
    attempt_.formulation = std::move(formulation);
    attempt_.detail = std::move(detail);
    return false;
  }

  // A failed call: the attempt could not be made (a bad II, a model refused for its size).
  bool fail(std::string formulation, std::string detail) {
    attempt_.call = CallStatus::kError;
    return settle(ModelStatus::kUnknown, std::move(formulation), std::move(detail));
  }

  // Infeasible without a solve: a unit's reservations exceed its capacity x II, or II is below
  // a recurrence (no ASAP starts exist at II).
  bool ruleOut() {
    if (ii_ < 1) {
      return fail("", fmt::format("II must be positive, got {}", ii_));
    }
    if (auto reason = detail::reservationTooLong(graph_, machine_, ii_)) {
      return settle(ModelStatus::kInfeasible, "resource bound", *reason);
    }
    auto earliest = moduloAsapTimes(graph_, ii_);
    if (!earliest) return settle(ModelStatus::kInfeasible, "recurrence", earliest.error());
    earliest_ = std::move(earliest).value();
    if (!options_.useWindows) earliest_.assign(earliest_.size(), 0);
    latencyLower_ = scheduleLatency(graph_, earliest_);
    return true;
  }

  // A first schedule (bound on L and incumbent), the upper bound on L and the latest starts.
  bool boundWindows() {
    symmetries_ = detail::findSymmetries(graph_);
    breaking_ = options_.breakSymmetry ? &symmetries_ : nullptr;
    if (options_.call.useStart) {
      start_ = detail::moduloStartSchedule(problem_, ii_, options_.startHeuristic);
      const auto& initial = options_.initialStart;
      if (initial &&
          (!start_ || scheduleLatency(graph_, *initial) < scheduleLatency(graph_, *start_))) {
        start_ = *initial;
      }
      if (start_ && breaking_) detail::orderBySymmetries(symmetries_, *start_);
    }
    latencyUpper_ = options_.latencyBound;
    if (options_.useWindows) {
      const Cycle lossless = detail::existenceLatencyBound(graph_, ii_, earliest_);
      latencyUpper_ = latencyUpper_ ? std::min(*latencyUpper_, lossless) : lossless;
    }
    if (start_) {
      const Cycle startLatency = scheduleLatency(graph_, *start_);
      latencyUpper_ = latencyUpper_ ? std::min(*latencyUpper_, startLatency) : startLatency;
    }
    if (latencyUpper_ && options_.useWindows) {
      latest_ = detail::latestStarts(graph_, *facts_->order(), ii_, *latencyUpper_, earliest_);
      if (!latest_) {
        // Only possible with a caller's bound below every schedule's latency.
        return settle(
            ModelStatus::kInfeasible, "windows",
            fmt::format("no modulo schedule at II={} completes within L={}", ii_, *latencyUpper_));
      }
    }
    startUsable_ = start_ && (!latencyUpper_ || scheduleLatency(graph_, *start_) <= *latencyUpper_);
    return true;
  }

  // The formulation asked for (auto: time-indexed when the windows are narrow), then the size
  // guard before anything is built; auto falls back to the other form when that one is smaller.
  bool chooseFormulation() {
    formulation_ = options_.formulation;
    if (formulation_ == ModuloFormulation::kAuto) {
      formulation_ = ModuloFormulation::kStageResidue;
      if (latest_) {
        double width = 0.0;
        for (OpId op = 0; op < graph_.numOps(); ++op) {
          width += static_cast<double>((*latest_)[op] - earliest_[op] + 1);
        }
        if (width <= options_.timeIndexedWindowFactor * ii_ * graph_.numOps()) {
          formulation_ = ModuloFormulation::kTimeIndexed;
        }
      }
    }
    if (formulation_ == ModuloFormulation::kTimeIndexed && !latest_) {
      // The time-indexed form needs finite windows: without a bound on L fall back.
      formulation_ = ModuloFormulation::kStageResidue;
    }
    milp::ModelSize size = sizeOf(formulation_);
    if (size.nonzeros > call_.maxNonzeros && options_.formulation == ModuloFormulation::kAuto &&
        formulation_ == ModuloFormulation::kTimeIndexed) {
      const milp::ModelSize other = sizeOf(ModuloFormulation::kStageResidue);
      if (other.nonzeros < size.nonzeros) {
        formulation_ = ModuloFormulation::kStageResidue;
        size = other;
      }
    }
    attempt_.formulation = std::string(toString(formulation_));
    attempt_.variables = size.variables;
    if (auto refused = call_.refusal(
            fmt::format("the modulo MILP at II={} ({})", ii_, attempt_.formulation), size)) {
      return fail(attempt_.formulation, *refused);
    }
    return true;
  }

  // The residue links (stage/residue form only), computed once, when that form is first sized.
  const std::vector<detail::ResidueLink>& links() {
    if (!links_) {
      links_ = options_.linkResidues ? detail::residueLinks(graph_, ii_)
                                     : std::vector<detail::ResidueLink>{};
    }
    return *links_;
  }

  milp::ModelSize sizeOf(ModuloFormulation form) {
    return form == ModuloFormulation::kTimeIndexed
               ? detail::TimeIndexedModel::estimateSize(graph_, machine_, ii_,
                                                        {earliest_, *latest_}, breaking_)
               : detail::StageResidueModel::estimateSize(graph_, machine_, ii_, breaking_, links());
  }

  // Builds the chosen model with the start as the solver's incumbent and solves it in what the
  // heuristics and the building left of the attempt's time (none left is a timeout).
  milp::MilpSolution solve() {
    const auto solveWithinLimit = [&](milp::MilpModel& model) {
      if (!call_.deadline.expired()) return call_.solve(model);
      milp::MilpSolution expired;
      expired.status = ModelStatus::kTimeout;
      return expired;
    };
    const auto solveModel = [&](auto& model) {
      if (startUsable_) model.model().setStart(model.encode(*start_));
      attempt_.variables = model.shape().variables;
      attempt_.rows = model.shape().rows;
      milp::MilpSolution solution = solveWithinLimit(model.model());
      if (solution.hasSolution()) decoded_ = model.decode(solution);
      return solution;
    };
    if (formulation_ == ModuloFormulation::kTimeIndexed) {
      detail::TimeIndexedModel model(graph_, machine_, ii_, {earliest_, *latest_}, latencyLower_,
                                     *latencyUpper_, breaking_);
      return solveModel(model);
    }
    detail::StageResidueModel model(graph_, machine_, ii_, earliest_, latest_, latencyLower_,
                                    latencyUpper_, breaking_, links());
    return solveModel(model);
  }

  // The status, the schedule (the solver's, or the start when it found nothing in time), the
  // bound on L and the detail line.
  void interpret(const milp::MilpSolution& solution) {
    attempt_.call = solution.call;
    attempt_.status = solution.status;
    if (solution.bound) {
      attempt_.latencyLowerBound =
          std::max(latencyLower_, static_cast<Cycle>(std::ceil(*solution.bound - 1e-6)));
    }
    if (solution.hasSolution()) {
      keepSchedule(std::move(decoded_));
      if (attempt_.status == ModelStatus::kOptimal) {
        attempt_.latencyLowerBound = attempt_.latency;
      }
    } else if (attempt_.status == ModelStatus::kTimeout && startUsable_) {
      // The solver found nothing better in time; the start is still a schedule.
      keepSchedule(*start_);
    }
    const std::string solver(milp::toString(call_.solver));
    const std::string limit =
        limitSeconds_ ? fmt::format("time limit {:.3g}s", *limitSeconds_) : "stopped";
    if (attempt_.call == CallStatus::kError) {
      attempt_.detail = fmt::format("{} failed at II={}", solver, ii_);
    } else if (attempt_.status == ModelStatus::kInfeasible) {
      attempt_.detail = fmt::format("{} proved no modulo schedule exists at II={}", solver, ii_);
    } else if (attempt_.status == ModelStatus::kTimeout) {
      attempt_.detail =
          attempt_.latency
              ? fmt::format("{} at II={}: L={} not proven minimal", limit, ii_, *attempt_.latency)
              : fmt::format("{} at II={}: nothing found, nothing proven", limit, ii_);
    } else if (attempt_.status == ModelStatus::kFeasible) {
      attempt_.detail = fmt::format("{} stopped at II={} before proving L={} minimal", solver, ii_,
                                    *attempt_.latency);
    }
    if (!solution.note.empty()) attempt_.detail += " (" + solution.note + ")";
  }

  void keepSchedule(std::vector<Cycle> start) {
    Schedule schedule;
    schedule.start = std::move(start);
    schedule.ii = ii_;
    attempt_.latency = scheduleLatency(graph_, schedule.start);
    attempt_.schedule = std::move(schedule);
  }

  const Graph& graph_;
  const Machine& machine_;
  const Problem& problem_;
  const std::int32_t ii_;
  const ModuloMilpOptions& options_;
  const std::shared_ptr<const ProblemFacts> facts_;
  const std::chrono::steady_clock::time_point begin_;
  milp::MilpCall call_;                  // the options' call, its deadline the attempt's
  std::optional<double> limitSeconds_;  // the attempt's time, for the detail line
  ModuloAttempt attempt_;
  std::vector<Cycle> earliest_;
  Cycle latencyLower_ = 0;
  detail::SymmetryOrderings symmetries_;
  const detail::SymmetryOrderings* breaking_ = nullptr;
  std::optional<std::vector<Cycle>> start_;
  bool startUsable_ = false;
  std::optional<Cycle> latencyUpper_;
  std::optional<std::vector<Cycle>> latest_;
  ModuloFormulation formulation_ = ModuloFormulation::kAuto;
  std::optional<std::vector<detail::ResidueLink>> links_;
  std::vector<Cycle> decoded_;
};

}  // namespace

Attempt ModuloAttempt::record() const {
  Attempt attempt;
  attempt.phase = "milp";
  attempt.ii = ii;
  attempt.latency = latency;
  attempt.call = call;
  attempt.status = status;
  attempt.seconds = seconds;
  if (latencyLowerBound) attempt.bound = static_cast<double>(*latencyLowerBound);
  attempt.detail = formulation;
  if (variables > 0) attempt.detail += fmt::format(", {} variables, {} rows", variables, rows);
  return attempt;
}

ModuloAttempt solveModuloAtIi(const Problem& problem, std::int32_t ii,
                              const ModuloMilpOptions& options) {
  return AttemptAtIi(problem, ii, options).run();
}

}  // namespace gaus::exact
