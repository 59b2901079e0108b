// Cost normalization: Twill (Soi et al., OSDI'26, arXiv 2512.18134), section 5.2, as restated in
// TWILL.md section 1. Given the distinct costs C of a problem, find integers C' >= 0 with
//     minimize F  s.t.  -F <= C_i C'_j - C_j C'_i <= F  (i < j),   1 <= sum C' <= U,
// then, since the optimal face is not unique and may zero out most entries, a second solve that
// maximizes sum C' subject to F <= F*.
//
// Departures from the paper:
// - The pool is divided by its gcd first. The optimum is the same up to that factor, the rows
//   have smaller coefficients, and scaling every cost by k gives the identical MILP, hence the
//   identical C' (the paper does not say how ties are broken beyond the second solve).
// - The paper does not say how a normalized schedule maps back to cycles. Here one normalized
//   cycle stands for timeUnit = max ceil(C_i / C'_i) raw cycles, which makes the scaled schedule
//   legal in raw cycles (cost_normalization.hpp), and a nonzero cost whose C' is 0 is given 1.
// - When the result zeroes a cost or distorts a ratio beyond NormalizationOptions::
//   maxRatioError, a third solve minimizes F with the sum fixed at U, and the mapping with the
//   smaller worst ratio error is kept (see the comment at that solve).
// - Each C' is bounded by its raw cost C (not by U alone): the paper's second solve maximizes the
//   sum up to U, which scales costs that already fit U up (1, 2, 5, 65 became 4, 8, 20, 260, and
//   the schedule came back four times longer). With the bound, such costs map to themselves and
//   the callers solve in raw cycles (CostNormalization::shrinksSomeCost).
// - The project's MILP solver (HiGHS or CBC) instead of SCIP.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <numeric>

#include <fmt/format.h>

#include <gaus/core/deadline.hpp>
#include <gaus/exact/cost_normalization.hpp>
#include <gaus/milp/milp_model.hpp>

namespace gaus::exact {

namespace {

// Builds the normalization MILP over `scaled` (values divided by their gcd). Variables 0..k-1 are
// C', variable k is F. Phase 1 (fStar unset) minimizes F; phase 2 maximizes sum C' with F <= F*;
// the fallback (sumExactly) minimizes F with the sum fixed at U, or at the sum of the raw costs
// when that is smaller. Each C' is at most its raw cost (`raw`): normalization exists to shrink
// costs, and a C' above its cost would only stretch the schedule (phase 2 scaled the costs
// 1, 2, 5, 65 up to 4, 8, 20, 260 before this bound).
milp::MilpModel normalizationModel(const std::vector<std::int64_t>& scaled,
                                   const std::vector<std::int64_t>& raw, std::int64_t sumBound,
                                   std::optional<std::int64_t> fStar, bool sumExactly = false) {
  milp::MilpModel model;
  const auto count = static_cast<milp::VariableId>(scaled.size());
  const double sumCost = fStar ? 1.0 : 0.0;
  for (milp::VariableId i = 0; i < count; ++i) {
    model.addVariable(0, static_cast<double>(std::min(sumBound, raw[static_cast<std::size_t>(i)])),
                      true, sumCost, fmt::format("c{}", i));
  }
  // F is integral at the optimum (integer data), so declaring it integer loses nothing and lets
  // the solver round its bound up.
  const milp::VariableId f = model.addVariable(0, fStar ? static_cast<double>(*fStar) : 1e30, true,
                                               fStar ? 0.0 : 1.0, "F");
  for (milp::VariableId i = 0; i < count; ++i) {
    for (milp::VariableId j = i + 1; j < count; ++j) {
      // C_i C'_j - C_j C'_i - F <= 0 and C_i C'_j - C_j C'_i + F >= 0.
      milp::LinearExpression upper;
      upper.add(j, static_cast<double>(scaled[i]));
      upper.add(i, -static_cast<double>(scaled[j]));
      milp::LinearExpression lower = upper;
      upper.add(f, -1.0);
      lower.add(f, 1.0);
      model.addLessEqual(upper, 0.0);
      model.addGreaterEqual(lower, 0.0);
    }
  }
  milp::LinearExpression sum;
  for (milp::VariableId i = 0; i < count; ++i) sum.add(i, 1.0);
  const double sumLimit = static_cast<double>(
      std::min(sumBound, std::accumulate(raw.begin(), raw.end(), std::int64_t{0})));
  model.addRow(sum, sumExactly ? sumLimit : 1.0, sumLimit);
  model.setMaximize(fStar.has_value());
  return model;
}

// The largest |C_i C'_j - C_j C'_i| of a mapping.
std::int64_t crossError(const std::vector<std::int64_t>& scaled,
                        const std::vector<std::int64_t>& mapped) {
  std::int64_t worst = 0;
  for (std::size_t i = 0; i < scaled.size(); ++i) {
    for (std::size_t j = i + 1; j < scaled.size(); ++j) {
      worst = std::max(worst, std::abs(scaled[i] * mapped[j] - scaled[j] * mapped[i]));
    }
  }
  return worst;
}

// A start: C' proportional to C, rounded down, with the sum at most U and each C' at most its raw
// cost (the sum exactly min(U, sum of the raw costs) when asked: the remainder goes to the
// largest values, up to their raw costs).
std::vector<double> proportionalStart(const std::vector<std::int64_t>& scaled,
                                      const std::vector<std::int64_t>& raw, std::int64_t sumBound,
                                      bool sumExactly = false) {
  const double total = std::accumulate(scaled.begin(), scaled.end(), 0.0);
  const std::int64_t sumLimit =
      std::min(sumBound, std::accumulate(raw.begin(), raw.end(), std::int64_t{0}));
  std::vector<std::int64_t> mapped;
  for (std::size_t i = 0; i < scaled.size(); ++i) {
    const auto proportional =
        static_cast<std::int64_t>(std::floor(static_cast<double>(scaled[i] * sumBound) / total));
    mapped.push_back(std::min(proportional, raw[i]));
  }
  std::int64_t sum = std::accumulate(mapped.begin(), mapped.end(), std::int64_t{0});
  if (sumExactly) {
    for (std::size_t i = mapped.size(); i-- > 0 && sum < sumLimit;) {
      const std::int64_t added = std::min(sumLimit - sum, raw[i] - mapped[i]);
      mapped[i] += added;
      sum += added;
    }
  } else if (sum == 0) {
    mapped.back() = 1;
  }
  std::vector<double> start(mapped.begin(), mapped.end());
  start.push_back(static_cast<double>(crossError(scaled, mapped)));
  return start;
}

// |(C'_i / C'_j) / (C_i / C_j) - 1| over pairs with both C' > 0.
double worstRatioError(const std::vector<std::int64_t>& values,
                       const std::vector<std::int64_t>& mapped) {
  double worst = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::size_t j = 0; j < values.size(); ++j) {
      if (i == j || mapped[i] == 0 || mapped[j] == 0) continue;
      const double ratio = (static_cast<double>(mapped[i]) / static_cast<double>(mapped[j])) /
                           (static_cast<double>(values[i]) / static_cast<double>(values[j]));
      worst = std::max(worst, std::abs(ratio - 1.0));
    }
  }
  return worst;
}

std::int64_t ceilDivide(std::int64_t numerator, std::int64_t denominator) {
  return (numerator + denominator - 1) / denominator;
}

}  // namespace

std::optional<std::int64_t> CostNormalization::map(std::int64_t raw) const {
  if (raw == 0) return 0;
  const auto it = std::lower_bound(values.begin(), values.end(), raw);
  if (it == values.end() || *it != raw) return std::nullopt;
  return normalized[static_cast<std::size_t>(it - values.begin())];
}

bool CostNormalization::shrinksSomeCost() const {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (std::max<std::int64_t>(1, normalized[i]) < values[i]) return true;
  }
  return false;
}

std::string CostNormalization::describe() const {
  std::string text;
  for (std::size_t i = 0; i < values.size(); ++i) {
    text += fmt::format("{}{}->{}", i == 0 ? "" : ", ", values[i], normalized[i]);
  }
  return fmt::format("{} (F{}={}, worst ratio error {:.1f}%{})", text, fixedScale ? "" : "*",
                     worstCrossError, 100.0 * worstRatioError,
                     fixedScale ? ", sum fixed at U" : "");
}

namespace {

// Each solve gets its own limit, cut to what is left of the call's.
milp::MilpSolution solveWithin(milp::MilpModel& model, const NormalizationOptions& options) {
  milp::MilpCall call = options.call;
  call.deadline = options.call.deadline.share(1.0, options.solveSeconds);
  return call.solve(model);
}

// Departure: F is an absolute cross error, which small C' keep small too, so the paper's
// optimum can map most costs to 0 or 1. Fixing the sum at U compares mappings at one scale;
// the one with the smaller worst ratio error (then fewer zeros) is kept.
// Solves with the sum fixed at U and takes that mapping into `mapped` and `result` when it is
// better.
void tryFixedScale(const std::vector<std::int64_t>& scaled, const NormalizationOptions& options,
                   std::vector<std::int64_t>& mapped, CostNormalization& result) {
  const auto count = static_cast<milp::VariableId>(scaled.size());
  milp::MilpModel fixed =
      normalizationModel(scaled, result.values, options.sumBound, std::nullopt, true);
  fixed.setStart(proportionalStart(scaled, result.values, options.sumBound, true));
  fixed.setNodeLimit(options.nodeLimit);
  const auto fixedSolution = solveWithin(fixed, options);
  if (fixedSolution.hasSolution()) {
    std::vector<std::int64_t> candidate;
    for (milp::VariableId i = 0; i < count; ++i) candidate.push_back(fixedSolution.integerValue(i));
    const double error = worstRatioError(result.values, candidate);
    const auto zeros = [](const std::vector<std::int64_t>& v) {
      return std::count(v.begin(), v.end(), 0);
    };
    if (error < result.worstRatioError ||
        (error == result.worstRatioError && zeros(candidate) < zeros(mapped))) {
      mapped = std::move(candidate);
      result.normalized = mapped;
      result.worstRatioError = error;
      result.worstCrossError = crossError(scaled, mapped);
      result.fixedScale = true;
    }
  }
}

}  // namespace

Expected<CostNormalization> normalizeCosts(std::span<const std::int64_t> costs,
                                           const NormalizationOptions& options) {
  const auto begin = std::chrono::steady_clock::now();
  CostNormalization result;
  for (std::int64_t cost : costs) {
    if (cost < 0) return Error{fmt::format("cost normalization: negative cost {}", cost)};
    if (cost > 0) result.values.push_back(cost);
  }
  std::sort(result.values.begin(), result.values.end());
  result.values.erase(std::unique(result.values.begin(), result.values.end()), result.values.end());
  if (options.sumBound < 1) {
    return Error{fmt::format("cost normalization: the bound U on the sum must be >= 1, got {}",
                             options.sumBound)};
  }
  if (result.values.empty()) {
    result.provenOptimal = true;
    return result;
  }
  result.divisor = 0;
  for (std::int64_t value : result.values) result.divisor = std::gcd(result.divisor, value);
  std::vector<std::int64_t> scaled;
  for (std::int64_t value : result.values) scaled.push_back(value / result.divisor);

  const Deadline& deadline = options.call.deadline;

  // Phase 1: minimize F.
  milp::MilpModel first = normalizationModel(scaled, result.values, options.sumBound, std::nullopt);
  const std::vector<double> firstStart = proportionalStart(scaled, result.values, options.sumBound);
  first.setStart(firstStart);
  first.setNodeLimit(options.nodeLimit);
  auto firstSolution = solveWithin(first, options);
  if (!firstSolution.hasSolution()) {
    if (firstSolution.status != ModelStatus::kTimeout) {
      return Error{fmt::format(
          "cost normalization MILP over {} values: {} after {:.2f}s", scaled.size(),
          gaus::statusText(firstSolution.call, firstSolution.status), firstSolution.seconds)};
    }
    // Stopped before the solver reported its incumbent: the proportional start is a mapping too.
    firstSolution.values = firstStart;
  }
  const auto count = static_cast<milp::VariableId>(scaled.size());
  std::vector<std::int64_t> mapped;
  for (milp::VariableId i = 0; i < count; ++i) mapped.push_back(firstSolution.integerValue(i));
  const std::int64_t fStar = crossError(scaled, mapped);

  // Phase 2: maximize sum C' at F <= F*, starting from the phase-1 optimum.
  milp::MilpModel second = normalizationModel(scaled, result.values, options.sumBound, fStar);
  std::vector<double> secondStart(mapped.begin(), mapped.end());
  secondStart.push_back(static_cast<double>(fStar));
  second.setStart(std::move(secondStart));
  second.setNodeLimit(options.nodeLimit);
  milp::MilpSolution secondSolution;
  secondSolution.status = ModelStatus::kTimeout;
  if (!deadline.expired()) secondSolution = solveWithin(second, options);
  if (secondSolution.hasSolution()) {
    std::vector<std::int64_t> better;
    for (milp::VariableId i = 0; i < count; ++i) better.push_back(secondSolution.integerValue(i));
    if (crossError(scaled, better) <= fStar) mapped = std::move(better);
  }
  result.normalized = mapped;
  result.worstCrossError = fStar;
  result.worstRatioError = worstRatioError(result.values, mapped);
  if (options.fixedScaleFallback && !deadline.expired() &&
      (result.worstRatioError > options.maxRatioError ||
       std::count(mapped.begin(), mapped.end(), 0) > 0)) {
    tryFixedScale(scaled, options, mapped, result);
  }
  result.normalizedSum = std::accumulate(mapped.begin(), mapped.end(), std::int64_t{0});
  result.provenOptimal = firstSolution.status == ModelStatus::kOptimal &&
                         secondSolution.status == ModelStatus::kOptimal;
  if (!result.provenOptimal) {
    result.warnings.push_back(fmt::format(
        "cost normalization not proven optimal within {}s and {} nodes per solve (phase 1 {}, "
        "phase 2 {})",
        options.solveSeconds, options.nodeLimit, firstSolution.statusWithNote(),
        secondSolution.statusWithNote()));
  }
  std::string zeroed;
  for (std::size_t i = 0; i < mapped.size(); ++i) {
    if (mapped[i] == 0) zeroed += fmt::format("{}{}", zeroed.empty() ? "" : ", ", result.values[i]);
  }
  if (!zeroed.empty()) {
    result.warnings.push_back(
        fmt::format("cost normalization maps {} to 0 (negligible next to the largest cost {}); the "
                    "normalized problem uses 1 for them",
                    zeroed, result.values.back()));
  }
  if (result.worstRatioError > options.maxRatioError) {
    result.warnings.push_back(fmt::format(
        "cost normalization distorts a ratio by {:.0f}% (> {:.0f}%): raise the sum bound U "
        "(option normalize_sum, now {})",
        100.0 * result.worstRatioError, 100.0 * options.maxRatioError, options.sumBound));
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return result;
}

std::vector<std::int64_t> costPool(const Graph& graph) {
  std::vector<std::int64_t> pool;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    pool.push_back(graph.latency(op));
    pool.push_back(graph.spillCost(op));
    for (const auto& block : graph.reservation(op)) pool.push_back(block.length);
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) pool.push_back(graph.edgeDelay(e));
  std::sort(pool.begin(), pool.end());
  pool.erase(std::unique(pool.begin(), pool.end()), pool.end());
  if (!pool.empty() && pool.front() == 0) pool.erase(pool.begin());
  return pool;
}

bool costsAreLarge(const Graph& graph, std::int64_t threshold) {
  const auto pool = costPool(graph);
  return !pool.empty() && pool.back() > threshold;
}

Expected<bool> shouldNormalize(const Problem& problem, const NormalizationOptions& options) {
  switch (options.mode) {
    case NormalizationMode::kOff:
      return false;
    case NormalizationMode::kOn:
      if (problem.ii) {
        return Error{
            fmt::format("normalization changes the II, but the problem fixes II={}: "
                        "use normalize=off or leave the II free",
                        *problem.ii)};
      }
      return true;
    case NormalizationMode::kAuto:
      return !problem.ii && costsAreLarge(*problem.graph, options.largeCostThreshold);
  }
  return false;
}

Expected<NormalizedProblem> normalizeProblem(const Problem& problem,
                                             const NormalizationOptions& options) {
  const Graph& graph = *problem.graph;
  const auto pool = costPool(graph);
  auto normalization = normalizeCosts(pool, options);
  if (!normalization) return Error{normalization.error()};

  NormalizedProblem result;
  result.normalization = std::move(normalization).value();
  const CostNormalization& mapping = result.normalization;
  // A nonzero cost never maps below 1 (see the header).
  auto mapped = [&](std::int64_t raw) -> std::int64_t {
    if (raw == 0) return 0;
    return std::max<std::int64_t>(1, mapping.map(raw).value_or(1));
  };
  result.timeUnit = 1;
  for (std::int64_t value : mapping.values) {
    result.timeUnit = std::max(result.timeUnit, ceilDivide(value, mapped(value)));
  }
  const std::int64_t unit = result.timeUnit;

  const auto scaleOp = [&](OpId, OpAttributes& attributes) {
    attributes.latency = static_cast<std::int32_t>(mapped(attributes.latency));
    attributes.spillCost = static_cast<std::int32_t>(mapped(attributes.spillCost));
    for (auto& block : attributes.reservation) {
      // Raw [b, b + l) must lie inside the scaled [unit b', unit (b' + l')).
      const std::int64_t begin = block.begin / unit;
      const std::int64_t end = ceilDivide(block.begin + block.length, unit);
      const std::int64_t length =
          block.length == 0 ? 0 : std::max(mapped(block.length), end - begin);
      block.begin = static_cast<std::int32_t>(begin);
      block.length = static_cast<std::int32_t>(length);
    }
  };
  const auto scaleEdge = [&](EdgeId e, EdgeAttributes& attributes) {
    attributes.delay = static_cast<std::int32_t>(mapped(graph.edgeDelay(e)));
  };
  auto normalizedGraph = withEditedAttributes(graph, scaleOp, scaleEdge);
  if (!normalizedGraph) {
    return Error{fmt::format("cost normalization: rebuilding graph '{}' failed: {}", graph.name(),
                             normalizedGraph.error())};
  }
  result.problem = problem;
  result.problem.graph = std::make_shared<const Graph>(std::move(normalizedGraph).value());
  if (problem.horizon) result.problem.horizon = *problem.horizon / unit;
  return result;
}

Schedule toRawSchedule(const NormalizedProblem& normalized, const Schedule& schedule) {
  Schedule raw = schedule;
  for (auto& start : raw.start) start *= normalized.timeUnit;
  if (raw.ii) raw.ii = static_cast<std::int32_t>(*raw.ii * normalized.timeUnit);
  return raw;
}

}  // namespace gaus::exact
