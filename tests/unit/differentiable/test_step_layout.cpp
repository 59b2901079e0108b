// The fused step's layout and memory (issue 49) against the plain evaluation, to the bit: the
// active columns (the fused terms skip window columns that hold exact zeros), the rows by latest
// start (row_order.hpp), and the step's buffers reused from one step to the next
// (step_buffers.hpp). Each changes where and how much the kernels read and write, never the
// order of a sum, so each must give the very same floats as the plain evaluation: the expected
// value of every check here is bitwise equality (torch::equal), not a tolerance.
#include <random>

#include <gaus/core/analysis.hpp>
#include <gaus/core/random_graph.hpp>

#include "augmented_lagrangian.hpp"
#include "formulation.hpp"
#include "model_fixtures.hpp"
#include "term_fixtures.hpp"
#include "torch_catch.hpp"

using namespace gaus;
using namespace gaus::differentiable;

namespace {

// 400 ops whose ids follow no order (the generator's hidden order is shuffled), three op types
// on limited units, mems and weights on half of them, communication on a third of the edges,
// and a few loop-carried edges for formulation C.
Instance shuffledGraph() {
  RandomGraphOptions options;
  options.ops = 400;
  options.averageDegree = 2.5;
  options.maxIdSpan = 60;
  options.opTypes = {{"ALU", 1, 2, 1, 3, 2.0}, {"MUL", 2, 3, 2, 1, 1.0}, {"MEM", 1, 1, 1, 2, 1.0}};
  options.backEdges = 6;
  options.maxDistance = 2;
  options.weightedFraction = 0.5;
  options.minWeight = 1.0;
  options.maxWeight = 3.0;
  options.commFraction = 0.3;
  options.seed = 17;
  return fixture::generatedInstance(options);
}

struct ModelCase {
  const char* name;
  Formulation formulation;
  ModuloObjective objective;
  std::optional<std::int64_t> ii;
};

const ModelCase kCases[] = {
    {"L", Formulation::kLatency, ModuloObjective::kNone, std::nullopt},
    {"A", Formulation::kStageWeight, ModuloObjective::kNone, std::nullopt},
    {"B", Formulation::kPeakMemory, ModuloObjective::kNone, std::nullopt},
    {"C memory", Formulation::kModulo, ModuloObjective::kMemory, 40},
    {"C latency", Formulation::kModulo, ModuloObjective::kLatency, 40},
};

constexpr std::int64_t kHorizon = 300;

// Means spread over the horizon (fractional parts anywhere), widths from sigma_min to sigma_max:
// windows whose active columns run from a handful to all 65.
std::pair<torch::Tensor, torch::Tensor> parameters(std::int64_t batch, std::int64_t ops,
                                                   std::uint64_t seed) {
  torch::manual_seed(seed);
  const torch::Tensor mu = torch::rand({batch, ops}) * (kHorizon - 1);
  const torch::Tensor sigma = 0.2 + torch::rand({batch, ops}).pow(3) * 7.8;
  return {mu, sigma};
}

struct Evaluation {
  std::vector<torch::Tensor> values;  // objective, then every constraint family
  torch::Tensor gradMu, gradSigma;
};

// The model's values and the gradients of a loss that weighs every element differently.
Evaluation evaluate(const FormulationModel& model, const torch::Tensor& mu,
                    const torch::Tensor& sigma, StepBuffers* buffers) {
  const torch::Tensor m = mu.clone().requires_grad_(true);
  const torch::Tensor s = sigma.clone().requires_grad_(true);
  const ModelEvaluation evaluation = model.evaluate(m, s, buffers);
  torch::Tensor loss = evaluation.objective.sum();
  Evaluation result;
  result.values.push_back(evaluation.objective.detach().clone());
  for (const torch::Tensor& constraint : evaluation.constraints) {
    const torch::Tensor weight = torch::linspace(0.5, 2.0, constraint.numel()).view_as(constraint);
    loss = loss + (constraint * weight + 0.5 * constraint.square()).sum();
    result.values.push_back(constraint.detach().clone());
  }
  loss.backward();
  result.gradMu = m.grad().clone();
  result.gradSigma = s.grad().clone();
  return result;
}

void requireSameBits(const Evaluation& a, const Evaluation& b) {
  REQUIRE(a.values.size() == b.values.size());
  for (std::size_t k = 0; k < a.values.size(); ++k) {
    INFO("value " << k << " (0: objective, then the constraint families)");
    CHECK(torch::equal(a.values[k], b.values[k]));
  }
  CHECK(torch::equal(a.gradMu, b.gradMu));
  CHECK(torch::equal(a.gradSigma, b.gradSigma));
}

GausOptions engineOptions() {
  GausOptions options;  // sigma_max 8, window_k 4: W = 65, the engine's default
  return options;
}

FormulationModel makeModel(const Problem& problem, const ModelCase& modelCase, const RowOrder& rows,
                           bool fused) {
  TensorSettings settings;  // float32 on the CPU, as the engine runs
  settings.fused = fused;
  const GausOptions options = engineOptions();
  return FormulationModel(problem, modelCase.formulation, modelCase.objective, options,
                          makeWindowGeometry(kHorizon, options), modelCase.ii, 7.0, settings, rows);
}

}  // namespace

TEST_CASE("rows by latest start give the values and gradients of rows in op order, to the bit",
          "[differentiable][layout]") {
  const Instance instance = shuffledGraph();
  const Problem problem = instance.problem(ProblemKind::kLatency);
  const auto order = topologicalOrder(*instance.graph);
  REQUIRE(order);
  const RowOrder rows = RowOrder::byLatestStart(*instance.graph, *order);
  REQUIRE_FALSE(rows.identity());
  const auto [mu, sigma] = parameters(2, instance.graph->numOps(), 5);
  for (const ModelCase& modelCase : kCases) {
    for (bool fused : {true, false}) {
      INFO(modelCase.name << (fused ? ", fused" : ", LibTorch"));
      const Evaluation inOpOrder =
          evaluate(makeModel(problem, modelCase, RowOrder(), fused), mu, sigma, nullptr);
      const Evaluation inRows =
          evaluate(makeModel(problem, modelCase, rows, fused), mu, sigma, nullptr);
      requireSameBits(inOpOrder, inRows);
    }
  }
}

TEST_CASE(
    "active columns: the fused terms give the values and mu, sigma gradients of whole-window "
    "loops, to the bit",
    "[differentiable][layout]") {
  // Without the table of active columns every fused loop runs over the whole window, as the
  // kernels did before it existed; with it they skip columns that hold exact zeros.
  const Instance instance = fixture::thirtyOpGraph();
  const GausOptions options = engineOptions();
  const std::int64_t horizon = 90;
  const WindowGeometry geometry = makeWindowGeometry(horizon, options);
  for (std::optional<std::int64_t> ii :
       {std::optional<std::int64_t>{}, std::optional<std::int64_t>{7}}) {
    INFO((ii ? "modulo II=7" : "acyclic"));
    TensorSettings settings;
    const fixture::AllTerms terms(instance, geometry, ii, settings);
    torch::manual_seed(8);
    const torch::Tensor mu = torch::rand({2, instance.graph->numOps()}) * (horizon - 1);
    const torch::Tensor sigma = 0.2 + torch::rand({2, instance.graph->numOps()}) * 4;
    std::vector<Evaluation> runs;
    for (bool withActive : {true, false}) {
      const torch::Tensor m = mu.clone().requires_grad_(true);
      const torch::Tensor s = sigma.clone().requires_grad_(true);
      WindowedDistribution model = computeWindowedDistribution(m, s, geometry, settings);
      REQUIRE(model.active.defined());
      if (!withActive) model.active = torch::Tensor();
      const std::vector<torch::Tensor> parts = {
          terms.precedence.evaluate(model), terms.resources.evaluate(model),
          terms.memory.expectedLiveMemory(model), terms.stageWeight.stageWeights(model)};
      Evaluation run;
      torch::Tensor loss = torch::zeros({});
      for (const torch::Tensor& part : parts) {
        loss = loss + (part * torch::linspace(0.5, 2.0, part.numel()).view_as(part)).sum();
        run.values.push_back(part.detach().clone());
      }
      loss.backward();
      run.gradMu = m.grad().clone();
      run.gradSigma = s.grad().clone();
      runs.push_back(run);
    }
    requireSameBits(runs[0], runs[1]);
  }
}

TEST_CASE("active columns: one run of the columns within the tail cutoff",
          "[differentiable][layout]") {
  // W = 65 at D = 80; every offset below clamps to 0. mu 10, sigma 1: z = j + 0.5 - 10 for
  // column j, so |z| <= 9 holds for j = 1 .. 18: active columns [1, 18], the CDF 0 at column 0
  // and 1 from column 19 on. mu 0.5, sigma 0.2: z = (j + 0.5 - 0.5) / 0.2 = 5 j, active [0, 1].
  // mu -5, sigma 0.2 (a mean below the window): z = 5 (j + 5.5) > 9 everywhere, the CDF is 1
  // in every column and no column is active (first 0, last -1).
  const GausOptions options = engineOptions();
  const WindowGeometry geometry = makeWindowGeometry(80, options);
  const torch::Tensor mu = torch::tensor({10.0f, 0.5f, -5.0f}).view({1, 3});
  const torch::Tensor sigma = torch::tensor({1.0f, 0.2f, 0.2f}).view({1, 3});
  TensorSettings settings;
  WindowedDistribution model = computeWindowedDistribution(mu, sigma, geometry, settings);
  const torch::Tensor active = model.active;
  CHECK(active[0][0][0].item<int>() == 1);
  CHECK(active[0][0][1].item<int>() == 18);
  CHECK(model.cdf[0][0][0].item<float>() == 0.0f);
  CHECK(model.cdf[0][0][1].item<float>() > 0.0f);
  CHECK(model.cdf[0][0][19].item<float>() == 1.0f);
  CHECK(active[0][1][0].item<int>() == 0);
  CHECK(active[0][1][1].item<int>() == 1);
  CHECK(active[0][2][0].item<int>() == 0);
  CHECK(active[0][2][1].item<int>() == -1);
  CHECK(model.pmf[0][2][0].item<float>() == 1.0f);
}

TEST_CASE(
    "step buffers: evaluations into reused buffers equal fresh ones, to the bit, and the "
    "second step allocates nothing",
    "[differentiable][layout]") {
  const Instance instance = shuffledGraph();
  const Problem problem = instance.problem(ProblemKind::kLatency);
  const auto order = topologicalOrder(*instance.graph);
  REQUIRE(order);
  const RowOrder rows = RowOrder::byLatestStart(*instance.graph, *order);
  for (const ModelCase& modelCase : kCases) {
    INFO(modelCase.name);
    const FormulationModel model = makeModel(problem, modelCase, rows, true);
    StepBuffers buffers;
    // Three steps of different parameters through the same buffers, each against a fresh
    // evaluation: stale values of the step before would show.
    for (std::uint64_t step = 0; step < 3; ++step) {
      const auto [mu, sigma] = parameters(2, instance.graph->numOps(), 30 + step);
      const Evaluation fresh = evaluate(model, mu, sigma, nullptr);
      const std::int64_t allocationsBefore = buffers.allocations();
      const Evaluation reused = evaluate(model, mu, sigma, &buffers);
      requireSameBits(fresh, reused);
      if (step > 0) CHECK(buffers.allocations() == allocationsBefore);
    }
    CHECK(buffers.allocations() > 0);
  }
}

TEST_CASE("step buffers: the optimizer's steps with buffers equal its steps without, to the bit",
          "[differentiable][layout]") {
  // 120 Adam steps and their multiplier updates (K = 50) of formulation L on the shuffled graph.
  const Instance instance = shuffledGraph();
  const Problem problem = instance.problem(ProblemKind::kLatency);
  const auto order = topologicalOrder(*instance.graph);
  REQUIRE(order);
  const FormulationModel model =
      makeModel(problem, kCases[0], RowOrder::byLatestStart(*instance.graph, *order), true);
  const auto [mu, sigma] = parameters(2, instance.graph->numOps(), 3);
  std::vector<torch::Tensor> means, widths;
  for (bool reuse : {true, false}) {
    GausOptions options = engineOptions();
    options.adamSteps = 50;
    AugmentedLagrangian lagrangian(model, options, mu, sigma, reuse);
    for (int update = 0; update < 3; ++update) {
      UpdateFigures figures;
      REQUIRE(lagrangian.run(40, {}, figures) == 40);
    }
    means.push_back(lagrangian.mu());
    widths.push_back(lagrangian.sigma());
  }
  CHECK(torch::equal(means[0], means[1]));
  CHECK(torch::equal(widths[0], widths[1]));
}
