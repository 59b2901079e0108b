// Internal to the exact engine: warp roles of a solution and the explanation of the answer
// (twill_explain.cpp).
#pragma once

#include <string>
#include <vector>

#include <gaus/core/analysis.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/exact/twill.hpp>

#include "twill_smt.hpp"

namespace gaus::exact::detail {

// Why every II below the answer failed, as the search recorded it.
struct IiFailure {
  std::int32_t ii = 0;
  bool moduloInfeasible = false;  // the MILP proved no modulo schedule
  std::string milpDetail;
  Cycle firstLatency = 0, lastLatency = 0;  // the L range the SMT tried
  bool conclusive = true;                   // no timeout
};

struct ExplainContext {
  const Problem& problem;  // in the units solved
  std::int32_t ii = 0;
  Cycle latency = 0;
  TwillSmtModel& model;  // built at (ii, latency)
  const Schedule& schedule;
  const std::vector<WarpRole>& roles;
  const std::vector<IiFailure>& failures;
  const TwillOptions& options;
  // The call's, less the teardown of the models it holds: each query gets at most what is left.
  const Deadline& deadline;
};

// What binds II (ResMII, RecMII or the warp constraints, with the blocking families of every
// failed II) and, for every pair of warp roles, whether and why they cannot share a warp set.
// Adds its solver calls to `attempts`.
TwillExplanation explain(const ExplainContext& context, std::vector<TwillAttempt>& attempts);

std::string familyList(const std::vector<TwillFamily>& families);

// Why (ii, latency) is UNSAT: a fresh model checked with a deletion-minimized core within
// options.explainTimeLimitSeconds and what `deadline` leaves, building the model included (a
// model that cannot be built in that time is not: the answer is then kTimeout); the check is
// logged in `attempts` with `detail`.
SmtAnswer explainFailure(const Problem& problem, std::int32_t ii, Cycle latency,
                         const TwillOptions& options, const Deadline& deadline, std::string detail,
                         std::vector<TwillAttempt>& attempts);

// The log line of one SMT check.
TwillAttempt smtAttempt(std::string phase, std::int32_t ii, Cycle latency, const SmtAnswer& answer,
                        std::string detail = {});

}  // namespace gaus::exact::detail
