// The profile of a generated circuit checked and split into components, and each component's
// level widths and outputs per level (random_circuit_plan.hpp; the distributions and what they
// were fitted to are in docs/random_graphs.md, "Circuits").

#include "random_circuit_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include <gaus/core/types.hpp>

namespace gaus::detail {

namespace {

constexpr double kLog2E = 1.44269504088896340736;

std::optional<std::string> checkParameters(const RandomCircuitOptions& options) {
  const CircuitParameters& p = options.parameters;
  const auto fraction = [](double value) { return value >= 0 && value <= 1; };
  if (!(p.level1PerInput >= 0 && p.level1PerInput <= 1e6)) {
    return fmt::format("level1PerInput must be in [0, 1e6], got {}", p.level1PerInput);
  }
  if (!(std::abs(p.widthDecay) <= 50)) {
    return fmt::format("widthDecay must be in [-50, 50], got {}", p.widthDecay);
  }
  if (!(p.widthNoise >= 0 && p.widthNoise <= 5)) {
    return fmt::format("widthNoise must be in [0, 5], got {}", p.widthNoise);
  }
  if (!(p.widthCorrelation > -1 && p.widthCorrelation < 1)) {
    return fmt::format("widthCorrelation must be in (-1, 1), got {}", p.widthCorrelation);
  }
  if (!fraction(p.inputReads) || !fraction(p.sameLevelFanin) || !fraction(p.outputsOnLastLevel)) {
    return fmt::format(
        "inputReads, sameLevelFanin and outputsOnLastLevel are fractions in [0, 1], got {}, {} "
        "and {}",
        p.inputReads, p.sameLevelFanin, p.outputsOnLastLevel);
  }
  if (!(p.innerOutputDepth > 0 && p.innerOutputDepth < 1)) {
    return fmt::format("innerOutputDepth must be in (0, 1), got {}", p.innerOutputDepth);
  }
  if (!(p.heightFraction > 0 && p.heightFraction < 1)) {
    return fmt::format("heightFraction must be in (0, 1), got {}", p.heightFraction);
  }
  if (p.criticalGates < 1) {
    return fmt::format("criticalGates must be >= 1, got {}", p.criticalGates);
  }
  if (!(options.componentGates >= 1 && options.componentGates <= 1e9)) {
    return fmt::format("componentGates must be in [1, 1e9], got {}", options.componentGates);
  }
  return std::nullopt;
}

// Failures before the first success, success probability 1 / mean-plus-one: mean `mean`.
std::int64_t geometric(double mean, RandomStream& random) {
  if (mean <= 0) return 0;
  const double u = 1.0 - random.unit();  // (0, 1]
  const double failures = portableLog2(u) / portableLog2(mean / (mean + 1));
  return static_cast<std::int64_t>(std::min(failures, 1e9));
}

// The most gates a component of this depth and outputs can have with every gate but an output
// read by a gate below it: a gate of height h (the longest path down to an output) has a reader
// of height h - 1, which reads two values, so at most outputs * 2^h gates have height h < depth.
std::int64_t mostGates(std::int64_t outputs, std::int64_t depth) {
  if (depth >= 31) return std::numeric_limits<std::int64_t>::max();
  return outputs * ((std::int64_t{1} << depth) - 1);
}

bool feasible(const ComponentPlan& plan) {
  return plan.inputs >= 2 && plan.inputs <= plan.gates + 1 && plan.gates >= plan.depth &&
         plan.outputs >= 1 && plan.outputs <= plan.gates - plan.depth + 1 &&
         (plan.depth > 1 || plan.outputs == plan.gates) &&
         plan.gates <= mostGates(plan.outputs, plan.depth);
}

// A small cone: about `gates` gates, the profile's ratios of inputs and outputs to gates, a
// depth drawn from those its outputs allow four times over.
ComponentPlan minorComponent(const RandomCircuitOptions& options, std::int32_t outputs,
                             std::int64_t gates, RandomStream& random) {
  ComponentPlan plan;
  plan.gates = static_cast<std::int32_t>(std::clamp<std::int64_t>(gates, 1, options.ands));
  const double share = static_cast<double>(plan.gates) / options.ands;
  plan.inputs = static_cast<std::int32_t>(
      std::clamp<std::int64_t>(std::lround(share * options.inputs), 2, plan.gates + 1));
  plan.depth = 1;
  plan.outputs = plan.gates;
  if (plan.gates < 2 || options.depth < 2) return plan;
  std::int64_t ends = std::max<std::int64_t>(1, std::lround(share * outputs));
  const std::int32_t deepest = std::min(options.depth, plan.gates);
  std::int32_t shallowest = 2;
  // with room to spare: close to the bound only a binary tree reads every gate
  while (shallowest < deepest && mostGates(ends, shallowest) < 4 * plan.gates) ++shallowest;
  plan.depth = static_cast<std::int32_t>(random.between(shallowest, deepest));
  while (mostGates(ends, plan.depth) < plan.gates) ++ends;
  plan.outputs =
      static_cast<std::int32_t>(std::min<std::int64_t>(ends, plan.gates - plan.depth + 1));
  return plan;
}

// Component 0 as what the others leave.
ComponentPlan mainComponent(const RandomCircuitOptions& options, std::int32_t outputs,
                            const std::vector<ComponentPlan>& others) {
  ComponentPlan plan;
  plan.inputs = options.inputs;
  plan.gates = options.ands;
  plan.depth = options.depth;
  plan.outputs = outputs;
  for (const ComponentPlan& other : others) {
    plan.inputs -= other.inputs;
    plan.gates -= other.gates;
    plan.outputs -= other.outputs;
  }
  return plan;
}

// Widths of levels 2..depth-1 (the first and last are set): 1 each, and `extra` more in
// proportion to exp(-decay x + noise), apportioned by largest remainder.
void shapeMiddleLevels(const CircuitParameters& p, std::int32_t extra, ComponentPlan& plan,
                       RandomStream& random) {
  const std::int32_t depth = plan.depth;
  const std::int32_t middle = depth - 2;
  std::vector<double> weight(static_cast<std::size_t>(middle));
  const double innovation = p.widthNoise * std::sqrt(1 - p.widthCorrelation * p.widthCorrelation);
  double noise = 0;
  for (std::int32_t i = 0; i < middle; ++i) {
    // Irwin-Hall: the sum of four uniforms, centred and scaled to variance 1.
    const double sum = random.unit() + random.unit() + random.unit() + random.unit();
    const double gaussian = (sum - 2) * 1.73205080756887729353;
    noise = i == 0 ? p.widthNoise * gaussian
                   : std::fma(p.widthCorrelation, noise, innovation * gaussian);
    const double x = (i + 0.5) / (depth - 1);
    weight[i] = portableExp2(std::fma(-p.widthDecay, x, noise) * kLog2E);
  }
  const double total = std::accumulate(weight.begin(), weight.end(), 0.0);
  std::vector<double> remainder(weight.size());
  std::int64_t given = 0;
  for (std::int32_t i = 0; i < middle; ++i) {
    const double share = extra * (weight[i] / total);
    const double whole = std::floor(share);
    plan.width[2 + i] = 1 + static_cast<std::int32_t>(whole);
    given += static_cast<std::int64_t>(whole);
    remainder[i] = share - whole;
  }
  std::vector<std::int32_t> order(static_cast<std::size_t>(middle));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::int32_t a, std::int32_t b) { return remainder[a] > remainder[b]; });
  for (std::int64_t k = 0; k < extra - given; ++k) ++plan.width[2 + order[k % middle]];
}

// Every value but an output needs a reader below it. What the first fan-ins of level l + 1 leave
// unread of level l (the excess w_l - w_l+1) waits for second fan-ins further down, and a
// fraction 1 - inputReads of those reads gates. So from the last level up the widths keep
//   sum over levels >= s of max(0, w_l - w_l+1) <= (1 - inputReads) (gates on levels > s).
// And no level past the first holds more values than twice the next one's gates (in the
// circuits 70-100 % of the values are read on the next level; level 1's, made of inputs, are
// read at every depth as the inputs are). Level depth - 1 reads nothing of its own but the
// critical gates (random_circuit.cpp): its other gates are outputs, at most the outputs that
// the last level leaves.
class ReaderBudget {
 public:
  ReaderBudget(const CircuitParameters& p, ComponentPlan& plan, std::int32_t innerOutputs)
      : gateShare_(1 - p.inputReads),
        plan_(plan),
        lastButOne_(std::int64_t{p.criticalGates} + innerOutputs) {}

  // The most gates level s may have given the levels below it (walked from the bottom up).
  std::int64_t most(std::int32_t s) const {
    if (s == plan_.depth - 1) return std::max<std::int64_t>(1, lastButOne_);
    const auto readers = static_cast<std::int64_t>(std::floor(gateShare_ * below_));
    const std::int64_t next = plan_.width[s + 1];
    const std::int64_t most = next + std::max<std::int64_t>(0, readers - waiting_);
    return s >= 2 ? std::min(most, 2 * next) : most;
  }
  void pass(std::int32_t s) {
    if (s < plan_.depth - 1) waiting_ += std::max(0, plan_.width[s] - plan_.width[s + 1]);
    below_ += plan_.width[s];
  }
  void restart() {
    below_ = plan_.width[plan_.depth];
    waiting_ = 0;
  }

 private:
  double gateShare_;
  ComponentPlan& plan_;
  std::int64_t lastButOne_ = 0;
  std::int64_t below_ = 0;    // gates on the levels below s
  std::int64_t waiting_ = 0;  // the excess of those levels
};

// Moves gates up from levels over their budget (each hands its surplus to the level above);
// what level 1 cannot keep goes back down where the budget leaves room, bottom first. A few
// rounds settle it; a surplus left after them stays on level 1 (values the repair of
// random_circuit.cpp reads, or outputs beyond those asked for).
void keepReadersBelow(const CircuitParameters& p, std::int32_t innerOutputs, ComponentPlan& plan) {
  const std::int32_t depth = plan.depth;
  ReaderBudget budget(p, plan, innerOutputs);
  for (int round = 0; round < 16; ++round) {
    budget.restart();
    std::int64_t surplus = 0;
    for (std::int32_t s = depth - 1; s >= 1; --s) {
      plan.width[s] += static_cast<std::int32_t>(surplus);
      surplus = std::max<std::int64_t>(0, plan.width[s] - budget.most(s));
      plan.width[s] -= static_cast<std::int32_t>(surplus);
      budget.pass(s);
    }
    if (surplus == 0) return;
    budget.restart();
    for (std::int32_t s = depth - 1; s >= 2 && surplus > 0; --s) {
      const std::int64_t room = std::max<std::int64_t>(0, budget.most(s) - plan.width[s]);
      const std::int64_t add = std::min(room, surplus);
      plan.width[s] += static_cast<std::int32_t>(add);
      surplus -= add;
      budget.pass(s);
    }
    plan.width[1] += static_cast<std::int32_t>(surplus);
    if (surplus > 0) return;
  }
}

// The outputs below the last level but one: each on level 1 + floor(top u^(1/a)), top = the
// levels 1..depth - 2, a chosen so that level / depth has mean innerOutputDepth, or the nearest
// level that still keeps a gate for the next level to read.
void placeInnerOutputs(const CircuitParameters& p, std::int32_t count, ComponentPlan& plan,
                       RandomStream& random) {
  const std::int32_t top = std::max(1, plan.depth - 2);
  const double a = p.innerOutputDepth / (1 - p.innerOutputDepth);
  const auto free = [&](std::int32_t level) {
    return level >= 1 && level < plan.depth && plan.outputsAt[level] < plan.width[level] - 1;
  };
  for (std::int32_t k = 0; k < count; ++k) {
    const double x = portableRoot(random.unit(), a);
    auto level = std::clamp(static_cast<std::int32_t>(1 + std::floor(top * x)), 1, top);
    for (std::int32_t step = 1; !free(level); ++step) {
      if (free(level - step)) {
        level -= step;
      } else if (free(level + step)) {
        level += step;
      }
    }
    ++plan.outputsAt[level];
  }
}

}  // namespace

std::int32_t circuitOutputs(const RandomCircuitOptions& options) {
  if (options.outputs) return *options.outputs;
  if (options.depth == 1) return options.ands;
  const std::int32_t most = std::max(1, options.ands - options.depth + 1);
  return std::clamp(options.inputs, std::min(options.components, most), most);
}

std::optional<std::string> checkCircuitProfile(const RandomCircuitOptions& options,
                                               std::int32_t outputs) {
  const std::int64_t inputs = options.inputs, ands = options.ands, depth = options.depth;
  const std::int64_t components = options.components;
  if (inputs < 2) {
    return fmt::format("inputs must be >= 2 (a gate reads two distinct values), got {}", inputs);
  }
  if (ands < 1 || depth < 1 || components < 1) {
    return fmt::format("ands, depth and components must be >= 1, got {}, {} and {}", ands, depth,
                       components);
  }
  if (2 * ands > kMaxInputValue || inputs + ands > kMaxInputValue) {
    return fmt::format("inputs + ands and 2 * ands (the edges) must fit in 32 bits, got {} and {}",
                       inputs + ands, 2 * ands);
  }
  if (depth + components - 1 > ands) {
    if (components == 1) {
      return fmt::format(
          "depth {} needs a gate on each of its levels: ands must be >= depth, got {}", depth,
          ands);
    }
    return fmt::format(
        "depth {} needs a gate on each of its levels and each of the other {} components a gate: "
        "ands must be >= depth + components - 1 = {}, got {}",
        depth, components - 1, depth + components - 1, ands);
  }
  if (2 * components > inputs) {
    return fmt::format(
        "each of the {} components needs two inputs of its own (its first gate reads two "
        "distinct inputs): inputs must be >= 2 * components = {}, got {}",
        components, 2 * components, inputs);
  }
  if (inputs > ands + components) {
    return fmt::format(
        "every input must be read by a gate, and {} gates in {} component(s) read at most "
        "ands + components = {} inputs (as trees): use fewer inputs or more gates, got {} inputs",
        ands, components, ands + components, inputs);
  }
  if (outputs < components) {
    return fmt::format(
        "each component ends in a gate no gate reads: outputs must be >= components = {}, got {}",
        components, outputs);
  }
  if (depth == 1 && outputs != ands) {
    return fmt::format("at depth 1 no gate reads another: outputs must be ands = {}, got {}", ands,
                       outputs);
  }
  // The other components may be single gates, one output each; the first must then hold the rest.
  const std::int64_t others = components - 1;
  if (ands - others > mostGates(outputs - others, depth)) {
    return fmt::format(
        "every gate but an output needs a reader on a lower level, and a reader reads two: "
        "{} outputs at depth {} can take at most {} gates (outputs * (2^depth - 1), less "
        "2^depth - 2 for each component beyond the first), got {} ands: use more outputs or a "
        "larger depth",
        outputs, depth, others + mostGates(outputs - others, depth), ands);
  }
  if (outputs > ands - depth + 1) {
    return fmt::format(
        "each level but the last keeps a gate that the next level reads: outputs must be <= "
        "ands - depth + 1 = {}, got {}",
        ands - depth + 1, outputs);
  }
  return checkParameters(options);
}

std::vector<ComponentPlan> planComponents(const RandomCircuitOptions& options, std::int32_t outputs,
                                          RandomStream& random) {
  std::vector<ComponentPlan> others;
  for (std::int32_t c = 1; c < options.components; ++c) {
    const std::int64_t gates = 1 + geometric(options.componentGates - 1, random);
    others.push_back(minorComponent(options, outputs, gates, random));
  }
  ComponentPlan main = mainComponent(options, outputs, others);
  if (!feasible(main)) {
    // The cones took too much of something the first component needs: one gate each, which
    // checkCircuitProfile's bounds leave room for.
    for (ComponentPlan& other : others) other = ComponentPlan{};
    main = mainComponent(options, outputs, others);
  }
  std::vector<ComponentPlan> plans;
  plans.push_back(main);
  plans.insert(plans.end(), others.begin(), others.end());
  return plans;
}

void shapeComponent(const CircuitParameters& p, ComponentPlan& plan, RandomStream& random) {
  const std::int32_t depth = plan.depth;
  plan.width.assign(static_cast<std::size_t>(depth) + 1, 0);
  plan.outputsAt.assign(static_cast<std::size_t>(depth) + 1, 0);
  plan.width[0] = plan.inputs;
  if (depth == 1) {
    plan.width[1] = plan.gates;
    plan.outputsAt[1] = plan.gates;
    return;
  }
  // At least gates / (2^depth - 1): the readers below can double a level's values at most
  // (mostGates), and a shallow circuit has few levels to double in.
  // (A ceiling written without gates + most - 1, which overflows where most saturates.)
  const std::int64_t most = mostGates(1, depth);
  const std::int64_t fewest = plan.gates / most + (plan.gates % most != 0 ? 1 : 0);
  const std::int32_t last = static_cast<std::int32_t>(std::clamp<std::int64_t>(
      std::max<std::int64_t>(std::lround(p.outputsOnLastLevel * plan.outputs), fewest), 1,
      std::min(plan.outputs, plan.gates - depth + 1)));
  std::int32_t first = plan.gates - last;  // depth 2: the rest is level 1
  if (depth > 2) {
    first = static_cast<std::int32_t>(std::clamp<std::int64_t>(
        std::lround(p.level1PerInput * plan.inputs), 1, plan.gates - last - (depth - 2)));
  }
  plan.width[1] = first;
  plan.width[depth] = last;
  if (depth > 2) shapeMiddleLevels(p, plan.gates - first - last - (depth - 2), plan, random);
  plan.outputsAt[depth] = last;
  std::int32_t inner = plan.outputs - last;
  if (depth > 2) {
    keepReadersBelow(p, inner, plan);
    // the gates of level depth - 1 beside the critical ones are outputs (ReaderBudget)
    const std::int32_t below = depth - 1;
    plan.outputsAt[below] =
        std::min(inner, plan.width[below] - std::min(plan.width[below], p.criticalGates));
    plan.outputsAt[below] = std::min(plan.outputsAt[below], plan.width[below] - 1);
    inner -= plan.outputsAt[below];
  }
  placeInnerOutputs(p, inner, plan, random);
}

}  // namespace gaus::detail
