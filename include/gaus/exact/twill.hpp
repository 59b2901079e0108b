// Joint software pipelining and warp specialization (Twill: Soi, Yadav, Kjolstad, Aiken, Mehri
// Dehnavi, Garland, Bauer, "Optimal Software Pipelining and Warp Specialization for Tensor Core
// GPUs", OSDI'26, arXiv 2512.18134; TWILL.md). For the body of a loop, find the smallest II at
// which a modulo schedule and a warp assignment exist that respect dependences, unit capacity,
// memory and register capacity, variable-latency isolation, cross-warp spill delay and blocking
// synchronization; then, beyond the paper, the assignment with the fewest warps and cross-warp
// edges, and an explanation of the answer.
//
// Everything here is solver-free data. The search lives in src/exact/twill/, one file per step
// (docs/exact.md, "The Twill search").
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gaus/core/enum_names.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/core/warp_roles.hpp>
#include <gaus/core/warp_strategy.hpp>
#include <gaus/exact/cost_normalization.hpp>
#include <gaus/exact/modulo_milp.hpp>

namespace gaus::exact {

// The constraint families of the SMT model (TWILL.md section 3), each of which can be switched
// off (ablations, tests) and is named when it blocks a solution.
enum class TwillFamily : std::uint8_t {
  kDependence,           // t(v) + distance II >= t(u) + delay
  kCapacity,             // units per residue <= capacity
  kMemory,               // rings of buffers per memory kind <= capacity (core ringBuffers)
  kWarpUniqueness,       // each op on exactly min_warps warps
  kVariableLatency,      // variable-latency ops alone on the variable-latency warp
  kRegisterLimit,        // live registers per warp and residue <= limit
  kSpillDelay,           // cross-warp edges pay the producer's spill cost
  kBlockingConcurrency,  // an op with a blocking in-edge runs alone on its warp when it issues
  // Beyond the paper: ops executing per warp and residue <= the machine's warpIssueWidth (one
  // instruction stream per warp). Built only when the machine sets a width (option warp_issue).
  kWarpIssue,
  // Beyond the paper: the warp groups' registers (setmaxnreg: the most their warps' values hold
  // at once, rounded up to 8, at least 24) fit the SM's register file (core register_file.hpp).
  // Built only when the machine names its register file and some schedule could exceed it.
  kRegisterFile,
  // Beyond the paper: the ops of a given warp strategy's roles run on their roles' warps (at
  // their stages, in their order; core warp_strategy.hpp). Built only under --strategy.
  kStrategy,
};
inline constexpr std::size_t kNumTwillFamilies = 11;
inline constexpr auto kTwillFamilyNames = makeEnumNames<TwillFamily>({
    {TwillFamily::kDependence, "dependence"},
    {TwillFamily::kCapacity, "capacity"},
    {TwillFamily::kMemory, "memory"},
    {TwillFamily::kWarpUniqueness, "warp-uniqueness"},
    {TwillFamily::kVariableLatency, "variable-latency"},
    {TwillFamily::kRegisterLimit, "register-limit"},
    {TwillFamily::kSpillDelay, "spill-delay"},
    {TwillFamily::kBlockingConcurrency, "blocking-concurrency"},
    {TwillFamily::kWarpIssue, "warp-issue"},
    {TwillFamily::kRegisterFile, "register-file"},
    {TwillFamily::kStrategy, "strategy"},
});
inline std::string_view toString(TwillFamily family) {
  return kTwillFamilyNames.name(family);
}
// What the family requires, in words ("variable-latency ops run alone on the variable-latency
// warp"), for explanations.
std::string_view describe(TwillFamily family);
inline constexpr std::array<TwillFamily, kNumTwillFamilies> kAllTwillFamilies = {
    TwillFamily::kDependence,      TwillFamily::kCapacity,
    TwillFamily::kMemory,          TwillFamily::kWarpUniqueness,
    TwillFamily::kVariableLatency, TwillFamily::kRegisterLimit,
    TwillFamily::kSpillDelay,      TwillFamily::kBlockingConcurrency,
    TwillFamily::kWarpIssue,       TwillFamily::kRegisterFile,
    TwillFamily::kStrategy};

struct TwillFamilySet {
  std::array<bool, kNumTwillFamilies> enabled{true, true, true, true, true, true,
                                              true, true, true, true, true};
  bool has(TwillFamily family) const { return enabled[static_cast<std::size_t>(family)]; }
  TwillFamilySet without(TwillFamily family) const {
    TwillFamilySet copy = *this;
    copy.enabled[static_cast<std::size_t>(family)] = false;
    return copy;
  }
};

// How the L of one II are tried on its SMT model (one model per II, src/exact/twill/smt_model.hpp).
enum class LatencySearch {
  // L = the bound, bound + 1, ... up to the stage limit: Algorithm 1's order.
  kAscending,
  // The bound, then the stage limit, then bisection between them (SAT is monotone in L).
  kBisect,
};
inline constexpr auto kLatencySearchNames = makeEnumNames<LatencySearch>({
    {LatencySearch::kAscending, "ascending"},
    {LatencySearch::kBisect, "bisect"},
});
inline std::string_view toString(LatencySearch search) {
  return kLatencySearchNames.name(search);
}

// The search over II and L (Algorithm 1 with the guards of TWILL.md section 4).
struct TwillSearchOptions {
  std::optional<double> timeLimitSeconds;  // the whole call; unset: no limit
  std::optional<std::int32_t> maxIi;       // unset: serialNonOverlappedIi() of the graph
  std::optional<std::int32_t> warps;       // overrides the machine's warp count
  // Stages beyond the MILP's that the inner loop may try at one II. 0 is Algorithm 1 of the
  // paper (L grows while ceil(L / II) is unchanged).
  std::int32_t extraStages = 0;
  LatencySearch latencySearch = LatencySearch::kAscending;
};

// The SMT model and its checks (src/exact/twill/smt_model.hpp).
struct TwillSmtOptions {
  double timeLimitSeconds = 60.0;  // per (II, L) satisfiability check
  TwillFamilySet families;         // all on; switch off for ablations
  bool breakSymmetry = true;       // interchangeable ops and warps
  // One instruction stream per warp (beyond the paper): the machine's warpIssueWidth, or 1
  // where it sets none, bounds the ops each warp executes per cycle (family kWarpIssue). Off:
  // the machine's own setting holds (none on the built-in machines).
  bool warpIssue = false;
};

// After SAT, beyond the paper: the fewest warps used, then the fewest cross-warp edges.
struct TwillMinimizeOptions {
  bool warps = true;
  bool crossWarpEdges = true;
  double timeLimitSeconds = 10.0;  // per minimization step
};

// What binds II and why ops were split across warps (TwillExplanation).
struct TwillExplainOptions {
  bool enabled = false;
  double timeLimitSeconds = 10.0;  // per explanation query
};

// A start schedule (`gaus schedule --init`, raw cycles; docs/exact.md "Warm starts"). Its (II, L),
// in the units solved, is the first SMT check (phase "probe"); a satisfiable probe, or the start
// itself when it verifies, is an incumbent, so the search only tries the (II, L) that could beat
// it and a timeout still answers with it. A start that does not fit the problem (op count, no
// II, II below MII) is ignored with a note.
struct TwillStart {
  const Schedule* schedule = nullptr;  // none: no start; not owned
  std::string origin = "--init";       // where it came from, for the notes
};

// The options of method twill, grouped by the step they steer; the option table (methods.cpp)
// names each field as `gaus methods` lists it.
struct TwillOptions {
  NormalizationOptions normalization;
  // Phase 1, per II. Its only use here is a lower bound on L (and a quick proof that an II has
  // no modulo schedule): the SMT decides either way, and since its order encoding refutes an
  // L in hundredths of a second, a bound the MILP needs long for is not worth the wait. So it
  // gets 2 s, not the 60 s of "ilp" (docs/exact.md, "The Twill search").
  ModuloMilpOptions milp = [] {
    ModuloMilpOptions defaults;
    defaults.attemptSeconds = 2.0;
    return defaults;
  }();
  TwillSearchOptions search;
  TwillSmtOptions smt;
  TwillMinimizeOptions minimize;
  TwillExplainOptions explain;
  TwillStart start;
  // A warp strategy to solve under (`gaus twill --strategy`), placed (core placeStrategy): the
  // family kStrategy holds, and warps are no longer interchangeable (no warp symmetry breaking).
  // None: the free problem. Not owned.
  const WarpStrategy* strategy = nullptr;
  // Receives one line per attempt as it ends (Attempt::describe: II, L, phase, status,
  // seconds, blocking families), for a progress display. May be empty.
  std::function<void(std::string_view)> progress;
};

struct RoleSplitReason {
  std::size_t firstRole = 0;
  std::size_t secondRole = 0;
  // Of the check with both roles on one warp set: kInfeasible when they cannot share one.
  ModelStatus merged = ModelStatus::kUnknown;
  std::vector<TwillFamily> blocking;  // the families that forbid merging
};

struct TwillExplanation {
  std::string iiBinding;  // "ResMII: TC (16 of 16 cycles)", "warp constraints above MII=6 ..."
  // For every II tried below the answer: why it failed (MILP infeasible, or the families that
  // made every L UNSAT).
  std::vector<std::pair<std::int32_t, std::string>> iiFailures;
  std::vector<RoleSplitReason> splits;
  std::string text;  // all of the above as readable lines
};

// How far the proof that no smaller II has a schedule reaches (docs/exact.md, "II proofs for
// every L").
enum class IiProof : std::uint8_t {
  kNone,              // II not proven minimal
  kEveryLength,       // every smaller II refuted for every schedule length L
  kWithinStageCount,  // some smaller II refuted only for L up to TwillIiBound::provenWithin
};
inline constexpr auto kIiProofNames = makeEnumNames<IiProof>({
    {IiProof::kNone, "none"},
    {IiProof::kEveryLength, "every_length"},
    {IiProof::kWithinStageCount, "within_stage_count"},
});
inline std::string_view toString(IiProof proof) {
  return kIiProofNames.name(proof);
}

// The lower bound on II in the units the search solved (normalized when the costs were).
struct TwillIiBound {
  std::int64_t mii = 0, resMii = 0, recMii = 0;
  // RecMII with the spill cost of every edge whose ends can never share a warp set (the
  // warp-aware RecMII, modulo_bounds.hpp): the search starts at max(MII, this), since every II
  // below it is refuted for every L.
  std::int64_t warpRecMii = 0;
  bool provenMinimal = false;  // every smaller II failed conclusively (under search.extraStages)
  IiProof proof = IiProof::kNone;
  // With kWithinStageCount: the largest L up to which every smaller II is refuted, and the
  // stage count ceil(L / II') at the II' that limits it.
  std::optional<Cycle> provenWithinLatency;
  std::optional<std::int32_t> provenWithinStages;
};

// The answer's warp assignment: its roles, and beyond the paper the warps used and the
// cross-warp edges, minimized in that order.
struct TwillAssignment {
  std::vector<WarpRole> roles;
  std::int32_t warpsUsed = 0;
  std::int32_t crossWarpEdges = 0;
  bool warpsProvenMinimal = false;
  bool crossEdgesProvenMinimal = false;
  std::vector<BufferUsage> buffers;  // per value with a footprint: its ring of buffers
};

// The units the search solved in: raw cycles, or normalized costs (cost_normalization.hpp).
struct TwillUnits {
  std::optional<CostNormalization> normalization;
  std::int64_t timeUnit = 1;                   // raw cycles per normalized cycle
  std::optional<Schedule> normalizedSchedule;  // the answer in normalized units
};

// What only Twill finds, beside the Result of the call: typed, where Result::figures publishes
// the numbers among them (twill_figures.hpp).
struct TwillFindings {
  std::optional<Cycle> latency;  // of the answer, raw cycles
  // No schedule at the answer's II has a smaller L (raw cycles; unset with normalized costs, or
  // where the search knows no bound): the answer's L where every smaller L from the II's bound
  // on L was refuted (L is then the least at that II), else that bound.
  std::optional<Cycle> latencyLowerBound;
  std::optional<std::int32_t> stages;  // ceil(L / II)
  TwillIiBound iiBound;
  TwillAssignment assignment;
  TwillUnits units;
  // Per entry of Result::attempts: the families of its unsat core (an infeasible SMT check's),
  // which the entry's detail also names.
  std::vector<std::vector<TwillFamily>> blocking;
  TwillExplanation explanation;
  // Seconds from the call's start to the first schedule of the SMT model (the probe's, or the
  // search's first satisfiable check); unset when there was none.
  std::optional<double> firstSmtScheduleSeconds;
};

// A Twill call: the method's Result (call and model status, message, the schedule in raw
// cycles with its II and warps, the bound on II and what binds it, every attempt, figures,
// notes, the verification against the raw problem, the seconds) and Twill's findings. The
// attempts are logged in order ("probe" for the check at a start's (II, L), "milp", "smt",
// "minimize-warps", "minimize-cross-edges" or "explain"; an SMT check that is satisfiable is
// kFeasible, one that is not kInfeasible, its detail naming the blocking families).
struct TwillSolution {
  Result result;
  TwillFindings twill;

  std::optional<std::int32_t> ii() const {  // of the answer, raw cycles
    return result.schedule ? result.schedule->ii : std::nullopt;
  }
};

// "capacity, memory": the families in the order given.
std::string familyList(const std::vector<TwillFamily>& families);

// Runs the search (Algorithm 1 with the guards of TWILL.md section 4), the minimizations and,
// when asked, the explanation. With normalized costs the MII and the minimality proof hold in
// normalized units: the Result then has the figures normalized_mii and normalized_ii_proven and
// no lower bound (the method adds the raw MII). The problem must be kModuloWarp (or kModulo: warps
// default to the machine's). A fixed problem.ii restricts the search to that II.
TwillSolution solveTwill(const Problem& problem, const TwillOptions& options = {});

// The machine as twill's options describe it: `warps` sets its warp count, `warp_issue` one
// instruction stream per warp (issue width 1 where the machine names none). The method declares
// it (describeMachineWith), so that the registry checks the input and verifies the schedule on
// this machine; the search applies it to its own copy of the problem too.
void describeTwillMachine(Machine& machine, const TwillOptions& options);

// One satisfiability check of the SMT model at (ii, latency), in the problem's own units. For
// tests and ablations. Status kFeasible when satisfiable (with a schedule), kInfeasible when
// not (`core` lists the families of the unsat core), else kTimeout or kUnknown.
struct TwillCheck {
  ModelStatus status = ModelStatus::kUnknown;
  std::optional<Schedule> schedule;
  std::vector<TwillFamily> core;
  double seconds = 0.0;
};
struct TwillCheckOptions {
  TwillFamilySet families;
  double timeLimitSeconds = 60.0;
  bool breakSymmetry = true;
  bool minimizeCore = true;                // shrink the core until removing any family makes it SAT
  const WarpStrategy* strategy = nullptr;  // placed; its family kStrategy, no symmetry breaking
};
TwillCheck checkTwill(const Problem& problem, std::int32_t ii, Cycle latency,
                      const TwillCheckOptions& options = {});

}  // namespace gaus::exact
