// Internal to the exact engine: what an SMT check on Z3 answers and what a model costs, shared
// by Twill's model (twill/smt_model.hpp) and the latency SAT model (latency_sat.hpp), whose size
// is counted in the same units and held against the same rates (twill/smt_size.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gaus/core/result.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/exact/twill.hpp>

namespace gaus::exact::detail {

// A satisfiable check is kFeasible (with a schedule), an unsatisfiable one kInfeasible; Z3 giving
// up on its time limit is kTimeout, for another reason kUnknown.
struct SmtAnswer {
  ModelStatus status = ModelStatus::kUnknown;
  std::optional<Schedule> schedule;  // II and warps set
  std::vector<TwillFamily> core;     // kInfeasible only; empty when L alone is too short
  bool coreHasRestriction = false;   // the restriction of the query is part of the core
  double seconds = 0.0;
  std::string reason;  // Z3's reason for unknown
  // Why no model was checked (checkOnce: it could not be built and loaded in the time given;
  // the status is then kTimeout).
  std::optional<std::string> notBuilt;
};

// What a model costs in wall time beyond its checks, in seconds: building it here, Z3's loading
// of it at its first check (preprocessing and internalizing the assertions, which does not look
// at the check's timeout: on a model of a million literals and more it runs tens of seconds past
// a timeout of 1 ms), and tearing it down. Estimated from the model's size (SmtModelSize::cost;
// smt_size.cpp says how the rates were measured).
struct SmtModelCost {
  double build = 0.0;
  double load = 0.0;
  double teardown = 0.0;
  double total() const { return build + load + teardown; }
};

// The size of the model at (II, L): its Boolean variables and the literal occurrences of its
// clauses and rows. Z3 holds each occurrence in its expressions and again in the SAT solver's
// clauses; bytes() is the memory of the built model that the estimate allows for
// (smt_size.cpp, kSmtBytesPerLiteral, says how it was measured). Z3's load of the model grows
// with the literals and, faster, with the length of the register rows: a pseudo-Boolean row per
// warp and residue over the terms "on this warp and live at this cycle" of every value, whose
// length grows with L. registerRowTermsSquared is the sum over those rows of their term count
// squared (the capacity and memory rows, over plain literals, showed no such growth).
struct SmtModelSize {
  std::int64_t booleans = 0;
  std::int64_t literals = 0;
  std::int64_t registerRowTermsSquared = 0;
  std::int64_t bytes() const;
  SmtModelCost cost() const;
};

}  // namespace gaus::exact::detail
