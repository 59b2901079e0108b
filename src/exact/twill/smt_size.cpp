// The size and cost of the SMT model before it is built (smt_model.hpp: SmtModelSize): its
// Boolean variables and literal occurrences counted family by family as buildSmtModel adds them
// (smt_families.cpp), and the memory and wall time they stand for, measured as the constants
// below say.

#include <algorithm>

#include "../symmetry.hpp"
#include "smt_encoding.hpp"

namespace gaus::exact::detail {

namespace {

// Memory of a built model after its first check (RSS growth): a Z3 context of about 10 MB and
// 160-320 bytes per literal occurrence (literalCount), measured on Triton's dumps in raw cycles
// from (II, L) = (260, 1235) to (2000, 8000), 40-925 MB (docs/exact.md, "The SMT model's
// size"). The estimate takes 32 MB and 350 bytes, above every point measured: later checks
// add learned clauses.
constexpr std::int64_t kSmtContextBytes = 32'000'000;
constexpr double kSmtBytesPerLiteral = 350.0;

// Wall time of a model beyond its checks (SmtModelCost), measured with `gaus-bench
// twill-model-cost` on the 2-core development machine at load 6-8 (2026-11-27; 21 models from
// toy_fa to Triton's FA dump in raw cycles; docs/exact.md, "The SMT model's time", has the
// table): building took 0.7-2.6 us per literal (plus the Z3 context), tearing down 0.1-0.4 us,
// and Z3's load at the first check (a check with a timeout of 1 ms: it returns only once the
// model is loaded) 0.3-1.6 us per literal on models without register rows (Triton's dumps, 0.15-
// 4.8 M literals) and up to 0.16 us per squared register row term on top of that on those with
// them (108 s for tests/data/twill/fa_blackwell_galloping.yaml at L 612: 2.9 M literals, 685 M
// squared terms). The rates below are above every point measured (the load by 1.3 times at
// least), since a model refused a little early only leaves an II undecided, while one loaded too
// late breaks the time limit.
constexpr double kSmtBuildSeconds = 0.05;
constexpr double kSmtBuildSecondsPerLiteral = 3.0e-6;
constexpr double kSmtLoadSecondsPerLiteral = 2.5e-6;
constexpr double kSmtLoadSecondsPerSquaredRowTerm = 0.2e-6;
constexpr double kSmtTeardownSecondsPerLiteral = 0.6e-6;

// The leaves of an expression tree (shared subterms counted at each use, as in the assertion).
std::int64_t leafCount(const z3::expr& e) {
  if (!e.is_app() || e.num_args() == 0) return 1;
  std::int64_t leaves = 0;
  for (unsigned i = 0; i < e.num_args(); ++i) leaves += leafCount(e.arg(i));
  return leaves;
}

}  // namespace

std::int64_t SmtModelSize::bytes() const {
  return kSmtContextBytes +
         static_cast<std::int64_t>(static_cast<double>(literals) * kSmtBytesPerLiteral);
}

SmtModelCost SmtModelSize::cost() const {
  const auto literalCount = static_cast<double>(literals);
  SmtModelCost cost;
  cost.build = kSmtBuildSeconds + literalCount * kSmtBuildSecondsPerLiteral;
  cost.load = literalCount * kSmtLoadSecondsPerLiteral +
              static_cast<double>(registerRowTermsSquared) * kSmtLoadSecondsPerSquaredRowTerm;
  cost.teardown = literalCount * kSmtTeardownSecondsPerLiteral;
  return cost;
}

namespace {
// Clauses over two ops' warp literals, one per warp where the two are not both the literal of
// the warp before (the warps of a group share one).
std::int64_t distinctWarpClauses(const Graph& graph, std::int64_t warps, OpId a, OpId b) {
  return warps / std::min(graph.minWarps(a), graph.minWarps(b));
}
}  // namespace

SmtModelSize estimateSmtModelSize(const Problem& problem, std::int32_t ii, Cycle latency,
                                  const SmtModelOptions& options) {
  const Graph& graph = *problem.graph;
  const Machine& machine = *problem.machine;
  const std::int64_t warps = machine.warps;
  const OpId count = graph.numOps();
  SmtModelSize size;
  // Cycles t with a clause "t(op) <= t ..." (0..lastStart, none when it is negative).
  std::vector<std::int64_t> cycles(static_cast<std::size_t>(count));
  for (OpId op = 0; op < count; ++op) {
    const Cycle last = latency - graph.duration(op);
    cycles[op] = std::max<Cycle>(0, last + 1);
    // Order and residue literals, the chain and residue clauses, the one-hot row, the warps
    // (one literal per aligned group an op on several warps may take).
    size.booleans += std::max<Cycle>(0, last) + ii + warps / graph.minWarps(op);
    size.literals += 2 * std::max<Cycle>(0, last - 1) + 3 * cycles[op] + ii + warps;
    // The dependence family's ASAP and ALAP bounds, warp uniqueness's row, the variable-latency
    // warp's rule.
    size.literals += 4 + 1 + warps + (machine.variableLatencyWarp ? 1 + warps : 0);
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    const OpId u = graph.edgeSource(e);
    const OpId v = graph.edgeTarget(e);
    if (u == v) continue;
    // The cross-edge literal and its clauses, the precedence clauses, the spill delay's.
    size.booleans += 1;
    size.literals += 6 * distinctWarpClauses(graph, warps, u, v) + 3 * cycles[v];
    if (graph.spillCost(u) > 0) size.literals += 4 * cycles[v];
  }
  // Capacity: a row per limited unit and residue over the reserved cycles.
  for (OpId op = 0; op < count; ++op) {
    for (const auto& block : graph.reservation(op)) {
      if (machine.resources[block.resource].limited()) {
        size.literals += static_cast<std::int64_t>(ii) * (block.length + 1);
      }
    }
  }
  // Liveness and lifetime: per consumer, a clause per cycle of the producer's horizon (its
  // register liveness) and of each stage its value may outlive (memory rings).
  std::int64_t worstRegisters = 0;
  std::int64_t registerTerms = 0;
  // Per residue, the terms of the register row of each warp (every value's liveness at the
  // absolute cycles of that residue).
  std::vector<std::int64_t> registerRowTerms(static_cast<std::size_t>(ii), 0);
  for (OpId op = 0; op < count; ++op) {
    const auto outs = graph.outEdges(op);
    if (outs.empty()) continue;
    const Cycle horizon = liveHorizon(graph, op, ii, latency);
    const auto outDegree = static_cast<std::int64_t>(outs.size());
    const std::int64_t stages = (horizon + ii - 1) / ii;
    for (const auto& print : graph.footprints(op)) {
      if (print.amount <= 0) continue;
      size.booleans += stages;
      size.literals += stages * (1 + 3 * outDegree * cycles[op]);
    }
    if (machine.registerLimit && graph.regs(op) != 0) {
      size.booleans += horizon;
      size.literals += 3 * outDegree * horizon;
      worstRegisters += graph.regs(op) * stages;
      registerTerms += 2 * warps * horizon;
      for (std::int32_t rho = 0; rho < ii; ++rho) {
        registerRowTerms[static_cast<std::size_t>(rho)] +=
            horizon / ii + (rho < horizon % ii ? 1 : 0);
      }
    }
  }
  // The register rows, per warp and residue, when some schedule could exceed the limit. (The
  // register-file rows are not part of the model as built: a check adds them when a schedule
  // exceeds the file, smt_registers.cpp.)
  if (machine.registerLimit && worstRegisters > *machine.registerLimit) {
    size.literals += registerTerms + warps * ii;
    for (const std::int64_t terms : registerRowTerms) {
      size.registerRowTermsSquared += warps * terms * terms;
    }
  }
  // Blocking concurrency: per op with a blocking input and per other op, the sharing literal
  // and the clauses that keep the other's busy residues apart from the op's.
  for (OpId op = 0; op < count; ++op) {
    bool blocking = false;
    for (EdgeId e : graph.inEdges(op)) blocking = blocking || graph.edgeBlocking(e);
    if (!blocking) continue;
    for (OpId other = 0; other < count; ++other) {
      if (other == op) continue;
      const std::int64_t window = std::max<std::int64_t>(1, graph.reservationLength(other));
      size.booleans += 1;
      size.literals +=
          3 * distinctWarpClauses(graph, warps, op, other) + (window >= ii ? 2 : 4 * ii * window);
    }
  }
  // Warp issue: per warp and residue, a row over "on the warp and started at residue r" of
  // every op with a literal on the warp, one term per residue its execution window reaches;
  // none for a warp whose every literal is the warp before's (warp groups share one). Rows that
  // cannot bind are counted too.
  if (machine.warpIssueWidth) {
    for (std::int64_t w = 0; w < warps; ++w) {
      std::int64_t terms = 0;
      bool repeats = w > 0;
      for (OpId op = 0; op < count; ++op) {
        const std::int64_t group = graph.minWarps(op);
        const std::int64_t first = w / group * group;
        const bool onMachine = first + group <= warps;
        repeats =
            repeats && (w != first || (!onMachine && (w - 1) / group * group + group > warps));
        if (onMachine) {
          terms += std::min<std::int64_t>(ii, std::max(1, graph.reservationLength(op)));
        }
      }
      if (!repeats) size.literals += ii * (1 + 2 * terms);
    }
  }
  if (options.strategy)
    size.literals += estimateStrategyLiterals(graph, machine, *options.strategy, cycles);
  if (options.breakSymmetry) {
    // Warps in first-use order: op i's clause names the warp's use by ops 0..i - 1.
    size.literals += warps * (static_cast<std::int64_t>(count) * (count + 3) / 2);
    for (const auto& [first, second] : findSymmetries(graph).before) {
      size.literals += 3 * cycles[second];
    }
  }
  return size;
}

std::int64_t TwillSmtModel::literalCount() const {
  std::int64_t literals = 0;
  const z3::expr_vector assertions = impl_->solver.assertions();
  for (unsigned i = 0; i < assertions.size(); ++i) literals += leafCount(assertions[i]);
  return literals;
}

}  // namespace gaus::exact::detail
