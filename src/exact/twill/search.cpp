// The Twill search: Algorithm 1 of Soi et al. (OSDI'26, arXiv 2512.18134), with the guards of
// TWILL.md section 4:
//     for II = MII, MII + 1, ...:
//       M = modulo MILP at II (modulo_milp.cpp); if infeasible, next II
//       for L = LEN(M) while ceil(L / II) is unchanged:
//         if SMT(II, L) (smt_model.hpp) is satisfiable, return (II, L, schedule, warps)
//
// The steps, one file each (search.hpp): setUpSearch (the warps option, the input check,
// normalization, MII and the II range), adoptStart (a start schedule as the first check and the
// incumbent), searchIis and tryIi (the loops above), then answerWithFound (minimizations,
// roles, the explanation, raw cycles, verification, a better start), answerWithStart (only the
// start) or answerWithoutSchedule (which families block every II).
//
// Departures and additions:
// - Guards the paper lacks: II stops at an upper bound (option max_ii, default the serial
//   non-overlapped II of modulo_milp.hpp, at which one iteration runs alone); every MILP and
//   SMT call has a time limit and a timeout is reported as such (the answer is then "feasible",
//   never "optimal"); every attempt is logged with (II, L, status, seconds); when no II up to
//   the bound is satisfiable, the message names the constraint families of the unsat cores.
// - One SMT model per II, built at its stage limit; each L is an assumption on it, so Z3 keeps
//   what it learned from one L to the next (smt_model.hpp; SAT is monotone in L). The L are
//   tried in Algorithm 1's order, or (latency_search=bisect) the bound, the stage limit, then
//   bisection between them.
// - The MILP only bounds L from below: it has a 10 s limit per II, and when it stops without
//   proving L minimal the SMT starts from the larger of its bound and the critical path at II
//   (smaller L might be SAT); when it stops without any schedule, the II is still decided by
//   the SMT, with the stage limit taken from that bound.
// - `extraStages` lets the inner loop go past the paper's ceil(L / II) bound; and an II whose L
//   loop ends UNSAT gets one more check at the serial latency with spill costs (goBeyondStages),
//   so an II whose schedules need more stages than the MILP's is neither skipped nor called
//   infeasible.
// - After SAT (beyond the paper, TWILL.md "Going beyond the paper"): minimize the warps used,
//   then the cross-warp edges, by iterated SAT with a cardinality bound on the same model; and
//   optionally explain the answer (explain.cpp).
// - Costs are normalized first when they are large (cost_normalization.hpp); the answer is then
//   mapped back to raw cycles and is optimal only in normalized units.
// - A start schedule (`--init`, adoptStart) is the first check: its (II, L) in the units solved
//   (phase "probe"). A satisfiable probe, or the start itself when it verifies, is an incumbent:
//   the II loop stops at its II and, there, tries only the L below its L, so the search proves
//   from below what the incumbent is worth; on a timeout the incumbent is the answer.
// - The register file (beyond the paper, family register-file): the search runs first without
//   the family, and again with it only when its answer does not fit the file (solveTwill).

#include "search.hpp"

namespace gaus::exact {

namespace {

// One search: Algorithm 1, the minimizations and the answer, within `deadline`.
TwillSolution searchOnce(const Problem& input, const TwillOptions& options,
                         const Deadline& deadline) {
  TwillSolution solution;
  if (auto setup = detail::setUpSearch(input, options, deadline, solution)) {
    detail::StartOutcome start = detail::adoptStart(*setup, solution);
    if (auto loop = detail::searchIis(*setup, start, solution)) {
      std::optional<detail::Found> found = std::move(loop->found);
      const bool fromIncumbent = !found && start.incumbent;
      if (fromIncumbent) {
        found = std::move(start.incumbent);
        start.incumbent.reset();
      }
      if (found) {
        detail::answerWithFound(*setup, std::move(*found), fromIncumbent, *loop, start, solution);
      } else if (start.verifiedStart) {
        detail::answerWithStart(*setup, *loop, start, solution);
      } else {
        detail::answerWithoutSchedule(*setup, *loop, start, solution);
      }
    }
  }
  return solution;
}

bool exceedsRegisterFile(const TwillSolution& solution) {
  const auto& verification = solution.result.verification;
  return verification && verification->count(ConstraintFamily::kRegisterFile) > 0;
}

}  // namespace

// The register-file family (smt_registers.cpp) changes every model it may enter: warps are
// interchangeable only within a warp group, so the models break less symmetry, and its rows,
// where a check adds them, slow every later check of the model (smt_registers.cpp). So the
// search runs first
// without it, on the very models of a search that never heard of the register file: each of
// its refutations holds with the family (which only removes schedules), so its answer is the
// problem's when it fits the file (the verifier says). Only otherwise does a second search run
// with the family, in the time left, its log after the first's.
TwillSolution solveTwill(const Problem& input, const TwillOptions& options) {
  const auto begin = std::chrono::steady_clock::now();
  // The time limit counts from the call's start: normalization and the set-up come out of it.
  const Deadline deadline(options.search.timeLimitSeconds);
  TwillSolution solution;
  if (!options.smt.families.has(TwillFamily::kRegisterFile) || !input.machine ||
      !input.machine->registerFile) {
    solution = searchOnce(input, options, deadline);
  } else {
    TwillOptions withoutFile = options;
    withoutFile.smt.families = options.smt.families.without(TwillFamily::kRegisterFile);
    solution = searchOnce(input, withoutFile, deadline);
    if (exceedsRegisterFile(solution)) {
      TwillSolution first = std::move(solution);
      solution = searchOnce(input, options, deadline);
      Result& result = solution.result;
      result.attempts.insert(result.attempts.begin(), first.result.attempts.begin(),
                             first.result.attempts.end());
      solution.twill.blocking.insert(solution.twill.blocking.begin(), first.twill.blocking.begin(),
                                     first.twill.blocking.end());
      result.notes.emplace_back(
          "register file",
          "the search without the register-file family found a schedule that does not fit the "
          "register file (" +
              first.result.verification->summary() +
              "); the search was made again with the family (the log holds both)");
    }
  }
  detail::publishFigures(solution);
  solution.result.stats.seconds = secondsSince(begin);
  return solution;
}

}  // namespace gaus::exact
