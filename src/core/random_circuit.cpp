// Random and-inverter graphs with a given profile (gaus/core/random_circuit.hpp). The profile is
// split into components, and each component into levels and outputs per level, first
// (random_circuit_plan.cpp); here the gates get their fan-ins. Levels: inputs at 0, a gate one
// above its deeper fan-in; height: the gates on the longest path from a gate to an output. A
// gate has slack at D = depth + 1 exactly when level + height < depth.
// - Critical gates: criticalGates per level, a chain of first fan-ins down to the last level,
//   whose gates all read the chain's end; their second fan-ins lie two or more levels up. They
//   carry the depth, as in the circuits (one gate per level on a longest path is the suite's
//   median, and so is 80 % of their second fan-ins 3 or more levels up).
// - Every other gate draws a target height (drawHeights) and reads only values taller than
//   itself, so it keeps slack. Its first fan-in is on level l - 1 (so levels, and the depth,
//   are exact); its second a primary input with probability inputReads, else on level l - 1
//   with probability sameLevelFanin, else d levels above it, d - 1 log-uniform in [1, l - 2].
// The levels are wired from the last one up, so that a gate's readers, and its height, are
// known when its fan-ins are drawn; among the values that fit, one nothing reads yet comes
// first, the shortest of those (the fewest gates may read it). A level's values not read once
// its next level is wired would stay unread, so that level's last gates read them with both
// fan-ins; a value still unread at the end takes over a second fan-in whose value has another
// reader. Only where that fails (profiles close to the bound of checkCircuitProfile) does a
// value stay unread: an output more than asked.
// Level 1 reads inputs only, paired as a random recursive tree (each gate a new input and one
// read before), and every gate's first fan-ins lead down to level 1, so every gate is connected
// to the inputs level 1 reads; the other inputs are read by deeper gates (as many unread as
// such gates are left: the next ones read them), which connects them too. So a component is
// connected by construction, and components share no value, which makes their count exact.
// The gates are numbered in depth-first order from the outputs, as AIGER writers number them,
// and each gate's fan-ins are listed larger op first, as the AIGER reader adds them.

#include <algorithm>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include <gaus/core/random_circuit.hpp>

#include "random_circuit_plan.hpp"

namespace gaus {

namespace {

using detail::ComponentPlan;
using detail::RandomStream;

// floor(2^(u log2 n)) for u uniform in [0, 1): log-uniform in [1, n - 1] (n >= 2).
std::int32_t logUniformBelow(std::int32_t n, RandomStream& random) {
  const double value = detail::portableExp2(random.unit() * detail::portableLog2(n));
  return std::clamp(static_cast<std::int32_t>(value), 1, n - 1);
}

// The fan-ins of one component's gates. Local ids: inputs [0, inputs), then the gates level by
// level; on each level below the last the critical gates come first, then the other gates that
// are read, then the outputs. Every gate of the last level is critical too.
class ComponentWiring {
 public:
  ComponentWiring(const ComponentPlan& plan, const CircuitParameters& parameters,
                  RandomStream& random)
      : plan_(plan), parameters_(parameters), random_(random) {
    const std::int32_t depth = plan.depth;
    levelStart_.assign(static_cast<std::size_t>(depth) + 2, 0);
    for (std::int32_t l = 0; l <= depth; ++l) levelStart_[l + 1] = levelStart_[l] + plan.width[l];
    const std::int32_t nodes = levelStart_[depth + 1];
    level_.resize(static_cast<std::size_t>(nodes));
    for (std::int32_t l = 0; l <= depth; ++l) {
      for (std::int32_t v = levelStart_[l]; v < levelStart_[l + 1]; ++v) level_[v] = l;
    }
    fanout_.assign(static_cast<std::size_t>(nodes), 0);
    reached_.assign(static_cast<std::size_t>(nodes), 0);
    freshIndex_.assign(static_cast<std::size_t>(nodes), -1);
    fresh_.resize(static_cast<std::size_t>(depth) + 1);
    // The inputs level 1 reads are those its tree reaches (wireFirstLevel); the others are left
    // to the second fan-ins of deeper gates.
    inputOrder_.resize(static_cast<std::size_t>(plan.inputs));
    std::iota(inputOrder_.begin(), inputOrder_.end(), 0);
    shuffle(inputOrder_, 0);
    const std::int32_t treeInputs = std::min(plan.inputs, plan.width[1] + 1);
    for (std::int32_t i = treeInputs; i < plan.inputs; ++i) addFresh(inputOrder_[i]);
    for (std::int32_t l = 1; l <= depth; ++l) {
      for (std::int32_t v = levelStart_[l]; v < levelStart_[l] + readable(l); ++v) addFresh(v);
    }
    first_.assign(static_cast<std::size_t>(plan.gates), -1);
    second_.assign(static_cast<std::size_t>(plan.gates), -1);
    deepGatesLeft_ = plan.gates - plan.width[1];
    drawHeights();
  }

  // From the last level up: a gate's readers are wired before it, so its height is known when
  // its fan-ins are drawn, and every fan-in drawn is taller than it where one is at hand.
  void wire() {
    for (std::int32_t l = plan_.depth; l >= 2; --l) wireLevel(l);
    wireFirstLevel();
    for (std::int32_t l = 1; l < plan_.depth; ++l) {
      const std::vector<std::int32_t> unread = fresh_[l];
      for (const std::int32_t v : unread) meetPromise(v);
    }
  }

  std::int32_t first(std::int32_t gate) const { return first_[gate]; }
  std::int32_t second(std::int32_t gate) const { return second_[gate]; }
  bool read(std::int32_t node) const { return fanout_[node] > 0; }

 private:
  // Values of level l that gates may read: all but the level's outputs.
  std::int32_t readable(std::int32_t l) const { return plan_.width[l] - plan_.outputsAt[l]; }
  // Critical gates of level l >= 1: the first ones of the level.
  std::int32_t critical(std::int32_t l) const {
    if (l == plan_.depth) return plan_.width[l];
    return std::min(parameters_.criticalGates, readable(l));
  }
  bool isCritical(std::int32_t v) const {
    return level_[v] > 0 && v - levelStart_[level_[v]] < critical(level_[v]);
  }

  void shuffle(std::vector<std::int32_t>& values, std::int32_t from) {
    for (auto i = static_cast<std::int32_t>(values.size()) - 1; i > from; --i) {
      std::swap(values[i], values[from + random_.below(static_cast<std::uint64_t>(i - from) + 1)]);
    }
  }

  // Target heights (gates on the longest path to an output): 0 for outputs, depth - level for
  // the critical gates, else 1 + floor((depth - level - 1) u^(1/a)), a chosen so that height /
  // (depth - level) has mean heightFraction. The heights reached come out at most these, and
  // every gate that is not critical keeps slack, as long as each gate reads values taller than
  // itself; a gate with none at hand reads another and the value gets taller than its target.
  void drawHeights() {
    const std::int32_t depth = plan_.depth;
    const double a = parameters_.heightFraction / (1 - parameters_.heightFraction);
    height_.assign(level_.size(), std::numeric_limits<std::int32_t>::max());  // inputs: any
    for (std::int32_t l = 1; l <= depth; ++l) {
      for (std::int32_t v = levelStart_[l]; v < levelStart_[l + 1]; ++v) {
        const std::int32_t span = depth - l - 1;
        if (v - levelStart_[l] >= readable(l)) {
          height_[v] = 0;
        } else if (isCritical(v) || span < 1) {
          height_[v] = depth - l;
        } else {
          const double q = detail::portableRoot(random_.unit(), a);
          height_[v] = 1 + std::min(span - 1, static_cast<std::int32_t>(span * q));
        }
      }
    }
    keepTightReaders();
  }

  // A value reaches its target height h only if a gate of height h - 1 reads it, and a gate
  // reads at most 2 - inputReads values besides inputs: so from height 1 up, the values of
  // height h beyond (2 - inputReads) times the gates of height h - 1 move up a height (where
  // their level allows), those of the highest levels first.
  void keepTightReaders() {
    const std::int32_t depth = plan_.depth;
    std::vector<std::vector<std::int32_t>> ofHeight(static_cast<std::size_t>(depth) + 1);
    for (auto v = static_cast<std::int32_t>(level_.size()) - 1; v >= plan_.inputs; --v) {
      ofHeight[height_[v]].push_back(v);  // by level, the deepest first
    }
    const double readsPerGate = 2 - parameters_.inputReads;
    for (std::int32_t h = 1; h < depth; ++h) {
      auto& values = ofHeight[h];
      const auto room = static_cast<std::size_t>(readsPerGate * ofHeight[h - 1].size());
      std::vector<std::int32_t> kept;
      for (std::size_t i = 0; i < values.size(); ++i) {
        const std::int32_t v = values[values.size() - 1 - i];  // the highest levels first
        const bool movable = !isCritical(v) && height_[v] + 1 <= depth - level_[v] - 1;
        if (values.size() - i > room + kept.size() && movable) {
          ++height_[v];
          ofHeight[h + 1].push_back(v);
        } else {
          kept.push_back(v);
        }
      }
      values.swap(kept);
    }
  }

  void addFresh(std::int32_t v) {
    auto& list = fresh_[level_[v]];
    freshIndex_[v] = static_cast<std::int32_t>(list.size());
    list.push_back(v);
  }
  void markRead(std::int32_t v) {
    ++fanout_[v];
    const std::int32_t index = freshIndex_[v];
    if (index < 0) return;
    auto& list = fresh_[level_[v]];
    freshIndex_[list.back()] = index;
    list[index] = list.back();
    list.pop_back();
    freshIndex_[v] = -1;
  }

  // An input: one that only deeper gates may read and none reads yet, else any.
  std::int32_t pickInput(std::int32_t exclude = -1) {
    const auto& list = fresh_[0];
    if (!list.empty()) {
      const auto index = static_cast<std::int32_t>(random_.below(list.size()));
      if (list[index] != exclude) return list[index];
      if (list.size() > 1) return list[(index + 1) % static_cast<std::int32_t>(list.size())];
    }
    auto v = static_cast<std::int32_t>(random_.below(plan_.inputs));
    if (v == exclude) v = (v + 1) % plan_.inputs;
    return v;
  }

  // How pickFor chooses when no value nothing reads yet is taller than the gate: any taller
  // value, the tallest of those nothing reads (a level's last readers must read them all), or
  // none.
  enum class Fallback { kAnyTaller, kTallestUnread, kNone };

  // A value of level l >= 1 for `gate` to read, not critical, other than `exclude`, taller
  // than the gate: of the values nothing reads yet the shortest (the one fewest gates may
  // read), else as `fallback` says; -1 for none.
  std::int32_t pickFor(std::int32_t l, std::int32_t gate, std::int32_t exclude,
                       Fallback fallback = Fallback::kAnyTaller) {
    const std::int32_t above = reached_[gate];
    std::int32_t best = -1;
    std::int32_t tallest = -1;
    std::int32_t ties = 0;
    for (const std::int32_t v : fresh_[l]) {
      if (v == exclude) continue;
      if (tallest < 0 || height_[v] > height_[tallest]) tallest = v;
      if (isCritical(v) || height_[v] <= above) continue;
      if (best < 0 || height_[v] < height_[best]) {
        best = v;
        ties = 1;
      } else if (height_[v] == height_[best] && random_.below(++ties) == 0) {
        best = v;
      }
    }
    if (best >= 0) return best;
    if (fallback == Fallback::kTallestUnread) return tallest;
    if (fallback == Fallback::kNone) return -1;
    const std::int32_t start = levelStart_[l] + critical(l);
    const std::int32_t count = readable(l) - critical(l);
    if (count <= 0) return -1;
    const auto fits = [&](std::int32_t v) { return v != exclude && height_[v] > above; };
    for (int probe = 0; probe < 8; ++probe) {
      const auto v = static_cast<std::int32_t>(start + random_.below(count));
      if (fits(v)) return v;
    }
    const auto offset = static_cast<std::int32_t>(random_.below(count));
    for (std::int32_t j = 0; j < count; ++j) {
      const std::int32_t v = start + (offset + j) % count;
      if (fits(v)) return v;
    }
    return -1;
  }
  std::int32_t criticalAt(std::int32_t l) {
    return levelStart_[l] + static_cast<std::int32_t>(random_.below(critical(l)));
  }

  void connect(std::int32_t gate, std::int32_t a, std::int32_t b) {
    first_[gate - plan_.inputs] = a;
    second_[gate - plan_.inputs] = b;
    for (const std::int32_t v : {a, b}) {
      markRead(v);
      reached_[v] = std::max(reached_[v], reached_[gate] + 1);
    }
  }

  // The critical gates of level l in order, then the others, the tallest first (the fewest
  // values are taller), ties in a random order.
  std::vector<std::int32_t> levelOrder(std::int32_t l) {
    std::vector<std::int32_t> gates(static_cast<std::size_t>(plan_.width[l]));
    std::iota(gates.begin(), gates.end(), levelStart_[l]);
    const std::int32_t fixed = l == plan_.depth ? 0 : critical(l);
    shuffle(gates, fixed);
    std::stable_sort(gates.begin() + fixed, gates.end(),
                     [&](std::int32_t a, std::int32_t b) { return reached_[a] > reached_[b]; });
    return gates;
  }

  // Level 1 reads inputs only, paired as a random recursive tree (each gate a new input and one
  // read before), which connects the component (the file's opening comment).
  void wireFirstLevel() {
    const std::int32_t treeInputs = std::min(plan_.inputs, plan_.width[1] + 1);
    std::int32_t k = 0;
    for (const std::int32_t gate : levelOrder(1)) {
      if (k + 1 < treeInputs) {
        const std::int32_t earlier = inputOrder_[random_.below(static_cast<std::uint64_t>(k) + 1)];
        connect(gate, inputOrder_[k + 1], earlier);
      } else {
        const std::int32_t a = pickInput();
        connect(gate, a, pickInput(a));
      }
      ++k;
    }
  }

  // Level l >= 2. Its gates are the last that may read level l - 1: where the values of l - 1
  // nothing reads yet outnumber the gates left, a gate reads them with both fan-ins (a
  // critical gate with its second).
  void wireLevel(std::int32_t l) {
    const std::vector<std::int32_t> order = levelOrder(l);
    const auto count = static_cast<std::int32_t>(order.size());
    for (std::int32_t i = 0; i < count; ++i) {
      const std::int32_t gate = order[i];
      const std::int32_t left = count - i;  // this gate and those after it
      std::int32_t a = -1;
      std::int32_t b = -1;
      if (isCritical(gate)) {
        // the chain (the last level's gates share it, unless level l - 1 holds more values
        // nothing reads yet than their second fan-ins can take: shallow circuits)
        const bool cover =
            l == plan_.depth && static_cast<std::int32_t>(fresh_[l - 1].size()) > left;
        a = cover ? pickFor(l - 1, gate, -1, Fallback::kTallestUnread) : criticalAt(l - 1);
      } else {
        const bool cover = static_cast<std::int32_t>(fresh_[l - 1].size()) >= left;
        a = pickFor(l - 1, gate, -1, cover ? Fallback::kTallestUnread : Fallback::kAnyTaller);
        if (a < 0) a = criticalAt(l - 1);  // always taller
      }
      const auto unread = static_cast<std::int32_t>(fresh_[l - 1].size()) - (fresh(a) ? 1 : 0);
      if (mustReadInput()) {
        b = pickInput();
      } else if (unread >= left) {
        // a value of l - 1 only this level can still read; for a critical gate an exception to
        // the rule of criticalSecondFanin
        b = pickFor(l - 1, gate, a, Fallback::kTallestUnread);
      } else {
        b = isCritical(gate) ? criticalSecondFanin(l, gate) : secondFanin(l, gate, a);
      }
      connect(gate, a, b);
      --deepGatesLeft_;
    }
  }
  bool fresh(std::int32_t v) const { return freshIndex_[v] >= 0; }

  // An input that must be read now (as many of those only deeper gates read are unread as
  // such gates are left), else one drawn with probability inputReads; -1 for none.
  std::int32_t inputRead() {
    if (mustReadInput() || random_.unit() < parameters_.inputReads) return pickInput();
    return -1;
  }
  bool mustReadInput() const {
    const auto unread = static_cast<std::int32_t>(fresh_[0].size());
    return unread > 0 && unread >= deepGatesLeft_;
  }

  // A level further up than l - 1: d levels above l, d - 1 log-uniform in [1, l - 2].
  std::int32_t farLevel(std::int32_t l) { return l - 1 - logUniformBelow(l - 1, random_); }

  // A value d levels above level l, d - 1 log-uniform in [1, l - 2]; where that level holds
  // nothing unread that fits, the nearest level further up that does, up to twice the distance
  // (values left unread wait for their next level's gates, which are few), else any that fits.
  std::int32_t pickFar(std::int32_t l, std::int32_t gate, std::int32_t exclude) {
    const std::int32_t from = farLevel(l);
    const std::int32_t last = std::max({1, 2 * from - l, from - kFarWindow});
    for (std::int32_t m = from; m >= last; --m) {
      if (const std::int32_t v = pickFor(m, gate, exclude, Fallback::kNone); v >= 0) return v;
    }
    return pickFor(from, gate, exclude);
  }
  static constexpr std::int32_t kFarWindow = 32;  // levels pickFar looks through, at most

  std::int32_t secondFanin(std::int32_t l, std::int32_t gate, std::int32_t first) {
    if (const std::int32_t v = inputRead(); v >= 0) return v;
    const bool far = l > 2 && random_.unit() >= parameters_.sameLevelFanin;
    const std::int32_t v = far ? pickFar(l, gate, first) : pickFor(l - 1, gate, first);
    return v >= 0 ? v : pickInput();
  }

  // A critical gate's second fan-in is never on the level above, where it would be critical
  // too (the circuits' critical gates read it 3 or more levels up 80 % of the time, the median).
  std::int32_t criticalSecondFanin(std::int32_t l, std::int32_t gate) {
    if (const std::int32_t v = inputRead(); v >= 0) return v;
    if (l <= 2) return pickInput();
    const std::int32_t v = pickFar(l, gate, -1);
    return v >= 0 ? v : pickInput();
  }

  // A value still unread (the readers below could not take it) takes over the second fan-in of
  // a gate below it whose value has another reader, the nearest level first: a gate shorter
  // than the value that is not critical, else any that is not critical, else a critical one.
  void meetPromise(std::int32_t v) {
    for (int round = 0; round < 3; ++round) {
      for (std::int32_t r = level_[v] + 1; r <= plan_.depth; ++r) {
        const std::int32_t width = plan_.width[r];
        const auto offset = static_cast<std::int32_t>(random_.below(width));
        for (std::int32_t j = 0; j < width; ++j) {
          const std::int32_t gate = levelStart_[r] + (offset + j) % width;
          if (isCritical(gate) != (round == 2)) continue;
          if (round == 0 && height_[v] <= reached_[gate]) continue;
          const std::int32_t old = second_[gate - plan_.inputs];
          if (old == v || first_[gate - plan_.inputs] == v || fanout_[old] < 2) continue;
          second_[gate - plan_.inputs] = v;
          --fanout_[old];
          markRead(v);
          return;
        }
      }
    }
  }

  const ComponentPlan& plan_;
  const CircuitParameters& parameters_;
  RandomStream& random_;
  std::vector<std::int32_t> levelStart_;  // first local id of each level, and the end
  std::vector<std::int32_t> level_;
  std::vector<std::int32_t> height_;   // target heights (drawHeights)
  std::vector<std::int32_t> reached_;  // heights so far: final once a gate's level is wired
  std::vector<std::int32_t> fanout_;
  std::vector<std::vector<std::int32_t>> fresh_;  // per level: readable values nothing reads
  std::vector<std::int32_t> freshIndex_;          // a value's place in fresh_, -1 once read
  std::vector<std::int32_t> inputOrder_;          // level 1's tree reads the first width[1] + 1
  std::vector<std::int32_t> first_, second_;      // per gate (local id - inputs)
  std::int32_t deepGatesLeft_ = 0;                // gates of levels >= 2 not wired yet
};

// A gate of the whole circuit before numbering: fan-ins as input ids (< inputs) or
// inputs + gate record.
struct GateRecord {
  std::int32_t first = 0;
  std::int32_t second = 0;
};

// Depth-first post-order from the outputs: the gate number of each record.
std::vector<std::int32_t> depthFirstNumbers(const std::vector<GateRecord>& gates,
                                            std::vector<std::int32_t> outputs, std::int32_t inputs,
                                            RandomStream& random) {
  for (auto i = static_cast<std::int32_t>(outputs.size()) - 1; i > 0; --i) {
    std::swap(outputs[i], outputs[random.below(static_cast<std::uint64_t>(i) + 1)]);
  }
  std::vector<std::int32_t> number(gates.size(), -1);
  std::vector<char> seen(gates.size(), 0);
  std::vector<std::pair<std::int32_t, int>> stack;  // record, fan-ins visited
  std::int32_t next = 0;
  for (const std::int32_t root : outputs) {
    if (seen[root]) continue;
    seen[root] = 1;
    stack.emplace_back(root, 0);
    while (!stack.empty()) {
      auto& [record, visited] = stack.back();
      if (visited == 2) {
        number[record] = next++;
        stack.pop_back();
        continue;
      }
      const GateRecord& gate = gates[record];
      const std::int32_t fanin = visited++ == 0 ? gate.first : gate.second;
      if (fanin >= inputs && !seen[fanin - inputs]) {
        seen[fanin - inputs] = 1;
        stack.emplace_back(fanin - inputs, 0);
      }
    }
  }
  return number;
}

Expected<RandomInstance> buildCircuitGraph(const RandomCircuitOptions& options,
                                           const std::vector<GateRecord>& gates,
                                           const std::vector<std::int32_t>& number) {
  RandomInstance instance;
  // The machine and attributes of the AIGER reader (src/io/aiger.cpp).
  instance.machine.name = "aiger";
  const ResourceId piUnit = instance.machine.addResource("PI", std::nullopt);
  const ResourceId andUnit = instance.machine.addResource("AND", std::nullopt);
  GraphBuilder builder(fmt::format("circuit_i{}_a{}_d{}_s{}", options.inputs, options.ands,
                                   options.depth, options.seed));
  builder.reserve(static_cast<std::size_t>(options.inputs) + gates.size(), 2 * gates.size());
  const auto addNode = [&](std::string name, const char* kind, ResourceId unit) {
    const OpId op = builder.addOp(std::move(name), 1);
    builder.setKind(op, kind);
    builder.addReservation(op, ReservationBlock{unit, 0, 1, 1});
    builder.setMem(op, 1.0);
  };
  for (std::int32_t i = 0; i < options.inputs; ++i) addNode(fmt::format("i{}", i), "PI", piUnit);
  std::vector<std::int32_t> recordOf(gates.size());
  for (std::size_t r = 0; r < gates.size(); ++r) recordOf[number[r]] = static_cast<std::int32_t>(r);
  for (std::size_t g = 0; g < gates.size(); ++g) addNode(fmt::format("a{}", g), "AND", andUnit);
  const auto opOf = [&](std::int32_t ref) {
    return ref < options.inputs ? ref : options.inputs + number[ref - options.inputs];
  };
  for (std::size_t g = 0; g < gates.size(); ++g) {
    const GateRecord& gate = gates[recordOf[g]];
    const OpId a = opOf(gate.first);
    const OpId b = opOf(gate.second);
    const auto op = static_cast<OpId>(options.inputs + g);
    builder.addEdge(std::max(a, b), op);
    builder.addEdge(std::min(a, b), op);
  }
  auto graph = std::move(builder).build();
  if (!graph) return Error{"random circuit: " + graph.error()};
  instance.graph = std::move(graph).value();
  return instance;
}

}  // namespace

CircuitParameters circuitFamilyParameters(CircuitFamily family) {
  CircuitParameters p;  // kEpfl: the medians over all eleven circuits
  switch (family) {
    case CircuitFamily::kEpfl:
      break;
    case CircuitFamily::kArithmetic:
      p = {0.94, 0.90, 0.76, 0.53, 0.13, 0.25, 0.54, 0.91, 1, 0.57};
      break;
    case CircuitFamily::kControl:
      p = {2.00, 3.50, 0.36, 0.46, 0.49, 0.21, 0.14, 0.65, 1, 0.49};
      break;
  }
  return p;
}

Expected<RandomInstance> generateRandomCircuit(const RandomCircuitOptions& options) {
  const std::int32_t outputs = detail::circuitOutputs(options);
  if (const auto problem = detail::checkCircuitProfile(options, outputs)) {
    return Error{"random circuit: " + *problem};
  }
  RandomStream random(options.seed);
  std::vector<ComponentPlan> plans = detail::planComponents(options, outputs, random);
  for (ComponentPlan& plan : plans) detail::shapeComponent(options.parameters, plan, random);

  // Each component reads inputs of its own, a random share of the ids.
  std::vector<std::int32_t> inputIds(static_cast<std::size_t>(options.inputs));
  std::iota(inputIds.begin(), inputIds.end(), 0);
  for (auto i = options.inputs - 1; i > 0; --i) {
    std::swap(inputIds[i], inputIds[random.below(static_cast<std::uint64_t>(i) + 1)]);
  }
  std::vector<GateRecord> gates;
  gates.reserve(static_cast<std::size_t>(options.ands));
  std::vector<std::int32_t> unreadGates;
  std::int32_t inputOffset = 0;
  for (const ComponentPlan& plan : plans) {
    ComponentWiring wiring(plan, options.parameters, random);
    wiring.wire();
    const auto recordOffset = static_cast<std::int32_t>(gates.size());
    const auto global = [&](std::int32_t local) {
      return local < plan.inputs ? inputIds[inputOffset + local]
                                 : options.inputs + recordOffset + (local - plan.inputs);
    };
    for (std::int32_t g = 0; g < plan.gates; ++g) {
      gates.push_back({global(wiring.first(g)), global(wiring.second(g))});
      if (!wiring.read(plan.inputs + g)) unreadGates.push_back(recordOffset + g);
    }
    inputOffset += plan.inputs;
  }
  const auto number = depthFirstNumbers(gates, std::move(unreadGates), options.inputs, random);
  return buildCircuitGraph(options, gates, number);
}

}  // namespace gaus
