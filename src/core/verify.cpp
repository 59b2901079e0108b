// The independent verifier. It recomputes every constraint of the problem model (DESIGN.md
// "The problem model", TWILL.md section 3 for the warp families) from the start times alone.
//
// Choices where the sources leave room, applied identically to every method:
// - Without an II, edges of distance > 0 belong to other iterations and are not checked.
// - A value is live from its op's start until its last consumer starts (consumer start +
//   distance * II); in a modulo schedule the steady state is checked, i.e. live intervals are
//   folded modulo II so that overlapping copies of a value add up (registers of every problem
//   kind; memories of acyclic and plain modulo problems).
// - Memories of a modulo-warp problem hold rings (buffers x stages): each consumed value with a
//   footprint takes max(1, ceil(lifetime / II)) buffers for the whole loop (core ringBuffers),
//   and the rings of a memory must fit together. Shared and tensor memory are allocated so, and
//   Twill's model and generated code count so (TWILL.md's "beyond the paper").
// - An op on several warps (min_warps k > 1) runs on an aligned warp group: k consecutive warps,
//   the first a multiple of k, as the hardware's warpgroups are (core isWarpGroup).
// - An op on a warp set of several warps holds its registers on each warp of the set.
// - Blocking concurrency: an op with a blocking in-edge starts on warp w at a cycle where no other
//   op of w executes (op o during [t(o), t(o) + max(1, cycles(o))), cycles(o) its reservation's).
// - Warps differ for the spill rule when the two warp sets are not identical.
// - Warp issue (machine's warpIssueWidth): an op holds an issue slot of every warp of its set at
//   each cycle of its blocking window; a warp has warpIssueWidth slots per cycle (mod II).
// - Register file (when the machine names one): the warp groups' needs (setmaxnreg's) fit it
//   (core registerFileUse). Strategy (VerifyOptions): core strategyViolations.

#include <algorithm>
#include <bit>
#include <map>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <gaus/core/enum_names.hpp>
#include <gaus/core/register_file.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/core/warp_roles.hpp>
#include <gaus/core/warp_rules.hpp>
#include <gaus/core/warp_strategy.hpp>

#include "usage_profile.hpp"

namespace gaus {

// The names messages and reports give each family.
constexpr auto kConstraintFamilyNames = makeEnumNames<ConstraintFamily>({
    {ConstraintFamily::kShape, "shape"},
    {ConstraintFamily::kPrecedence, "precedence"},
    {ConstraintFamily::kHorizon, "horizon"},
    {ConstraintFamily::kResource, "resource"},
    {ConstraintFamily::kWarpAssignment, "warp-assignment"},
    {ConstraintFamily::kVariableLatency, "variable-latency"},
    {ConstraintFamily::kRegisterLimit, "register-limit"},
    {ConstraintFamily::kMemoryCapacity, "memory-capacity"},
    {ConstraintFamily::kSpillDelay, "spill-delay"},
    {ConstraintFamily::kBlockingConcurrency, "blocking-concurrency"},
    {ConstraintFamily::kWarpIssue, "warp-issue"},
    {ConstraintFamily::kRegisterFile, "register-file"},
    {ConstraintFamily::kStrategy, "strategy"},
});

std::string_view toString(ConstraintFamily family) {
  return kConstraintFamilyNames.name(family);
}

std::string VerificationReport::summary() const {
  std::string text;
  for (const auto& violation : violations) {
    if (!text.empty()) text += '\n';
    text += violation.message;
  }
  const auto kept = static_cast<std::int64_t>(violations.size());
  if (totalViolations > kept) text += fmt::format("\n... and {} more", totalViolations - kept);
  return text;
}

namespace {

class Judge {
 public:
  Judge(const Problem& problem, const Schedule& schedule, const VerifyOptions& options)
      : graph_(*problem.graph),
        machine_(*problem.machine),
        problem_(problem),
        schedule_(schedule),
        options_(options) {
    if (schedule.ii) ii_ = *schedule.ii;
  }

  VerificationReport run() {
    if (!checkShape()) return std::move(report_);
    if (!ii_) {
      for (EdgeId e = 0; e < graph_.numEdges(); ++e) {
        if (graph_.edgeDistance(e) > 0) ++report_.uncheckedLoopCarriedEdges;
      }
    }
    if (problem_.kind == ProblemKind::kStages) {
      checkStageOrder();
      checkStageRange();
    } else {
      checkPrecedence();
      checkHorizon();
    }
    checkResources();
    checkMemoryCapacity();
    if (schedule_.warps && checkWarpSets()) {
      checkVariableLatency();
      checkRegisters();
      checkSpillDelay();
      checkBlockingConcurrency();
      if (machine_.warpIssueWidth) checkWarpIssue(*machine_.warpIssueWidth);
      checkRegisterFile();
    }
    if (options_.metrics) report_.metrics = computeMetrics(graph_, machine_, schedule_);
    return std::move(report_);
  }

 private:
  template <typename... Args>
  void fail(ConstraintFamily family, fmt::format_string<Args...> format, Args&&... args) {
    ++report_.totalViolations;
    ++report_.countByFamily[static_cast<std::size_t>(family)];
    if (report_.violations.size() < options_.maxMessages) {
      report_.violations.push_back({family, fmt::format(format, std::forward<Args>(args)...)});
    }
  }
  bool keepingMessages() const { return report_.violations.size() < options_.maxMessages; }

  std::string iiText() const { return ii_ ? std::to_string(*ii_) : std::string("-"); }
  std::string cycleText(Cycle cycle) const {
    return ii_ ? fmt::format("cycle {} (mod II={})", cycle, *ii_) : fmt::format("cycle {}", cycle);
  }

  bool checkShape() {
    const OpId opCount = graph_.numOps();
    bool ok = true;
    if (static_cast<std::int64_t>(schedule_.start.size()) != opCount) {
      fail(ConstraintFamily::kShape, "schedule has {} start times for {} ops",
           schedule_.start.size(), opCount);
      return false;
    }
    if (ii_ && *ii_ <= 0) {
      fail(ConstraintFamily::kShape, "II must be positive, got {}", *ii_);
      return false;
    }
    if (problem_.isModulo() && !ii_) {
      fail(ConstraintFamily::kShape, "a {} problem needs a schedule with an II",
           toString(problem_.kind));
      ok = false;
    }
    if (problem_.ii && ii_ && *problem_.ii != *ii_) {
      fail(ConstraintFamily::kShape, "problem fixes II={} but the schedule has II={}", *problem_.ii,
           *ii_);
      ok = false;
    }
    for (OpId op = 0; op < opCount; ++op) {
      if (schedule_.start[op] < 0) {
        fail(ConstraintFamily::kShape, "op {} starts at negative cycle {}", graph_.opName(op),
             schedule_.start[op]);
        ok = false;
      }
    }
    if (schedule_.warps && static_cast<std::int64_t>(schedule_.warps->size()) != opCount) {
      fail(ConstraintFamily::kShape, "schedule has {} warp sets for {} ops",
           schedule_.warps->size(), opCount);
      ok = false;
    }
    if (problem_.kind == ProblemKind::kModuloWarp && !schedule_.warps) {
      fail(ConstraintFamily::kShape, "a modulo-warp problem needs a warp set per op");
      ok = false;
    }
    return ok;
  }

  void checkPrecedence() {
    const auto& sources = graph_.edgeSources();
    const auto& targets = graph_.edgeTargets();
    const auto& delays = graph_.edgeDelays();
    const auto& distances = graph_.edgeDistances();
    const std::int64_t ii = ii_.value_or(0);
    for (EdgeId e = 0; e < graph_.numEdges(); ++e) {
      const std::int32_t distance = distances[e];
      if (distance > 0 && !ii_) continue;
      const Cycle sourceStart = schedule_.start[sources[e]];
      const Cycle targetStart = schedule_.start[targets[e]];
      const Cycle earliest = sourceStart + delays[e] - distance * ii;
      if (targetStart < earliest) {
        fail(ConstraintFamily::kPrecedence,
             "precedence violated: {} (t={}, d={}) -> {} (t={}), δ={}, II={}: {} must start at "
             "or after {}",
             graph_.opName(sources[e]), sourceStart, delays[e], graph_.opName(targets[e]),
             targetStart, distance, iiText(), graph_.opName(targets[e]), earliest);
      }
    }
  }

  // A stage problem: s_u <= s_v on every distance-0 edge, whatever the edge's delay ("same stage
  // allowed", GS-Schedule), and every stage in 0..D-1, whatever the op's duration.
  void checkStageOrder() {
    for (EdgeId e = 0; e < graph_.numEdges(); ++e) {
      if (graph_.edgeDistance(e) != 0) continue;
      const OpId source = graph_.edgeSource(e);
      const OpId target = graph_.edgeTarget(e);
      if (schedule_.start[target] < schedule_.start[source]) {
        fail(ConstraintFamily::kPrecedence,
             "stage order violated: {} (stage {}) -> {} (stage {}): {} must be in stage {} or "
             "later",
             graph_.opName(source), schedule_.start[source], graph_.opName(target),
             schedule_.start[target], graph_.opName(target), schedule_.start[source]);
      }
    }
  }

  void checkStageRange() {
    const Cycle stages = problem_.horizon.value_or(0);
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      if (schedule_.start[op] >= stages) {
        fail(ConstraintFamily::kHorizon,
             "stage out of range: {} is in stage {}, but D={} stages are 0..{}", graph_.opName(op),
             schedule_.start[op], stages, stages - 1);
      }
    }
  }

  void checkHorizon() {
    if (!problem_.horizon) return;
    const Cycle horizon = *problem_.horizon;
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      const Cycle end = schedule_.start[op] + graph_.duration(op);
      if (end > horizon) {
        fail(ConstraintFamily::kHorizon,
             "horizon violated: {} (t={}, duration {}) completes at {} > D={}", graph_.opName(op),
             schedule_.start[op], graph_.duration(op), end, horizon);
      }
    }
  }

  // Names up to `limit` ops whose reservation on `resource` covers `cycle` (mod II).
  std::string opsUsing(ResourceId resource, Cycle cycle, int limit = 6) const {
    std::string names;
    int found = 0;
    for (OpId op = 0; op < graph_.numOps() && found <= limit; ++op) {
      for (const auto& block : graph_.reservation(op)) {
        if (block.resource != resource) continue;
        if (covers(schedule_.start[op] + block.begin, block.length, cycle)) {
          if (found == limit) {
            names += ", ...";
          } else {
            names += (found == 0 ? "" : ", ") + graph_.opName(op);
          }
          ++found;
          break;
        }
      }
    }
    return names;
  }

  bool covers(Cycle begin, Cycle length, Cycle cycle) const {
    if (length <= 0) return false;
    if (!ii_) return cycle >= begin && cycle < begin + length;
    if (length >= *ii_) return true;
    const Cycle offset = (((cycle - begin) % *ii_) + *ii_) % *ii_;
    return offset < length;
  }

  void checkResources() {
    std::optional<std::int64_t> ii;
    if (ii_) ii = *ii_;
    std::vector<detail::UsageProfile<std::int64_t>> usage(machine_.resources.size(),
                                                          detail::UsageProfile<std::int64_t>(ii));
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      for (const auto& block : graph_.reservation(op)) {
        if (block.resource < 0 || block.resource >= machine_.numResources()) {
          fail(ConstraintFamily::kResource, "op {} reserves resource #{}, which the machine lacks",
               graph_.opName(op), block.resource);
          continue;
        }
        if (!machine_.resources[block.resource].limited()) continue;
        usage[block.resource].add(schedule_.start[op] + block.begin, block.length, block.units);
      }
    }
    for (ResourceId r = 0; r < machine_.numResources(); ++r) {
      if (!machine_.resources[r].limited()) continue;
      const std::int64_t capacity = *machine_.resources[r].capacity;
      usage[r].forEachSegment([&](Cycle first, Cycle end, std::int64_t inUse) {
        if (inUse <= capacity) return;
        for (Cycle cycle = first; cycle < end; ++cycle) {
          if (keepingMessages()) {
            fail(ConstraintFamily::kResource,
                 "resource {} over capacity at {}: {} units in use > capacity {} (ops {})",
                 machine_.resources[r].name, cycleText(cycle), inUse, capacity, opsUsing(r, cycle));
          } else {
            // Count the rest of the run at once; the messages are full anyway.
            report_.totalViolations += end - cycle;
            report_.countByFamily[static_cast<std::size_t>(ConstraintFamily::kResource)] +=
                end - cycle;
            break;
          }
        }
      });
    }
  }

  void checkMemoryCapacity() {
    if (machine_.memories.empty()) return;
    bool anyKnown = false;
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      for (const auto& print : graph_.footprints(op)) {
        if (knownMemory(print.memory)) {
          anyKnown = true;
        } else {
          fail(ConstraintFamily::kMemoryCapacity,
               "op {} occupies memory #{}, which the machine lacks", graph_.opName(op),
               print.memory);
        }
      }
    }
    if (!anyKnown) return;
    if (problem_.kind == ProblemKind::kModuloWarp && ii_) {
      checkRingMemory();
    } else {
      checkLiveMemory();
    }
  }

  bool knownMemory(MemoryId memory) const {
    return memory >= 0 && memory < static_cast<MemoryId>(machine_.memories.size());
  }

  // Acyclic and plain modulo problems: the footprints of the values live at each cycle (folded
  // modulo II, so that overlapping copies of a value add up).
  void checkLiveMemory() {
    std::optional<std::int64_t> ii;
    if (ii_) ii = *ii_;
    std::vector<detail::UsageProfile<std::int64_t>> usage(machine_.memories.size(),
                                                          detail::UsageProfile<std::int64_t>(ii));
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      const auto prints = graph_.footprints(op);
      if (prints.empty()) continue;
      const LiveInterval interval = liveInterval(graph_, schedule_, op);
      for (const auto& print : prints) {
        if (!knownMemory(print.memory)) continue;
        usage[print.memory].add(interval.begin, interval.end - interval.begin, print.amount);
      }
    }
    for (MemoryId m = 0; m < static_cast<MemoryId>(usage.size()); ++m) {
      const std::int64_t capacity = machine_.memories[m].capacity;
      usage[m].forEachSegment([&](Cycle first, Cycle, std::int64_t inUse) {
        if (inUse <= capacity) return;
        fail(ConstraintFamily::kMemoryCapacity,
             "memory {} over capacity at {}: {} live > capacity {}", machine_.memories[m].name,
             cycleText(first), inUse, capacity);
      });
    }
  }

  // Modulo-warp problems: shared and tensor memory hold each value in a ring of buffers for the
  // whole loop (core ringBuffers: max(1, ceil(lifetime / II)) for a consumed value), so the
  // rings must fit together, whether or not their live parts overlap at some residue. This is
  // stricter than the live count above (a ring is sized by its value's longest life, and a value
  // read in the cycle it starts still takes a buffer); it is how the exact engine's Twill model
  // counts and what generated code allocates.
  void checkRingMemory() {
    constexpr int kRingsNamed = 6;  // per memory, in the message
    std::vector<std::int64_t> inUse(machine_.memories.size(), 0);
    std::vector<std::string> rings(machine_.memories.size());
    std::vector<int> named(machine_.memories.size(), 0);
    for (const BufferUsage& buffer : bufferUsage(graph_, schedule_)) {
      if (!knownMemory(buffer.memory) || buffer.total() == 0) continue;
      inUse[buffer.memory] += buffer.total();
      std::string& names = rings[buffer.memory];
      int& count = named[buffer.memory];
      if (count < kRingsNamed) {
        names += fmt::format("{}{} {} x {}", names.empty() ? "" : ", ", graph_.opName(buffer.op),
                             buffer.buffers, buffer.amount);
      } else if (count == kRingsNamed) {
        names += ", ...";
      }
      ++count;
    }
    for (MemoryId m = 0; m < static_cast<MemoryId>(inUse.size()); ++m) {
      const std::int64_t capacity = machine_.memories[m].capacity;
      if (inUse[m] <= capacity) continue;
      fail(ConstraintFamily::kMemoryCapacity,
           "memory {} over capacity: its rings hold {} > capacity {} ({}; a consumed value "
           "holds max(1, ceil(lifetime / II={})) buffers)",
           machine_.memories[m].name, inUse[m], capacity, rings[m], *ii_);
    }
  }

  bool checkWarpSets() {
    const auto& warps = *schedule_.warps;
    const std::int32_t warpCount = machine_.warps;
    const WarpSet allowed = warpCount >= kMaxWarps ? ~WarpSet{0} : ((WarpSet{1} << warpCount) - 1);
    bool ok = true;
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      const WarpSet set = warps[op];
      if ((set & ~allowed) != 0) {
        fail(ConstraintFamily::kWarpAssignment,
             "op {} is on warps {}, but the machine has warps 0..{}", graph_.opName(op),
             formatWarpSet(set), warpCount - 1);
        ok = false;
        continue;
      }
      const int size = std::popcount(set);
      if (size != graph_.minWarps(op)) {
        fail(ConstraintFamily::kWarpAssignment,
             "op {} is on {} warp(s) {}, but needs exactly min_warps={}", graph_.opName(op), size,
             formatWarpSet(set), graph_.minWarps(op));
        ok = false;
      } else if (!isWarpGroup(set, size)) {
        fail(ConstraintFamily::kWarpAssignment,
             "op {} is on warps {}, which are not an aligned warp group ({} consecutive warps, "
             "the first a multiple of {})",
             graph_.opName(op), formatWarpSet(set), size, size);
        ok = false;
      }
    }
    return ok;
  }

  void checkVariableLatency() {
    if (!machine_.variableLatencyWarp) return;
    const std::int32_t vlWarp = *machine_.variableLatencyWarp;
    const WarpSet vlSet = WarpSet{1} << vlWarp;
    const auto& warps = *schedule_.warps;
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      const bool onVl = (warps[op] & vlSet) != 0;
      if (graph_.variableLatency(op) && warps[op] != vlSet) {
        fail(ConstraintFamily::kVariableLatency,
             "variable-latency op {} is on warps {}, but must be alone on the variable-latency "
             "warp {}",
             graph_.opName(op), formatWarpSet(warps[op]), vlWarp);
      } else if (!graph_.variableLatency(op) && onVl) {
        fail(ConstraintFamily::kVariableLatency,
             "op {} (fixed latency) is on the variable-latency warp {}", graph_.opName(op), vlWarp);
      }
    }
  }

  void checkRegisters() {
    if (!machine_.registerLimit) return;
    const std::int64_t limit = *machine_.registerLimit;
    std::optional<std::int64_t> ii;
    if (ii_) ii = *ii_;
    const auto& warps = *schedule_.warps;
    std::vector<detail::UsageProfile<std::int64_t>> perWarp(
        static_cast<std::size_t>(machine_.warps), detail::UsageProfile<std::int64_t>(ii));
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      if (graph_.regs(op) == 0) continue;
      const LiveInterval interval = liveInterval(graph_, schedule_, op);
      for (int w = 0; w < machine_.warps; ++w) {
        if ((warps[op] >> w) & 1U) {
          perWarp[w].add(interval.begin, interval.end - interval.begin, graph_.regs(op));
        }
      }
    }
    for (int w = 0; w < machine_.warps; ++w) {
      perWarp[w].forEachSegment([&](Cycle first, Cycle, std::int64_t inUse) {
        if (inUse <= limit) return;
        fail(ConstraintFamily::kRegisterLimit,
             "warp {} holds {} registers of live values at {} > limit {}", w, inUse,
             cycleText(first), limit);
      });
    }
  }

  void checkSpillDelay() {
    const auto& warps = *schedule_.warps;
    const std::int64_t ii = ii_.value_or(0);
    for (EdgeId e = 0; e < graph_.numEdges(); ++e) {
      const OpId source = graph_.edgeSource(e);
      const OpId target = graph_.edgeTarget(e);
      const std::int32_t distance = graph_.edgeDistance(e);
      if (distance > 0 && !ii_) continue;
      if (warps[source] == warps[target] || graph_.spillCost(source) == 0) continue;
      const Cycle earliest = schedule_.start[source] + crossWarpDelay(graph_, e) - distance * ii;
      if (schedule_.start[target] < earliest) {
        fail(ConstraintFamily::kSpillDelay,
             "cross-warp edge {} (t={}, warps {}) -> {} (t={}, warps {}) needs delay {} + spill "
             "cost {}: {} must start at or after {}",
             graph_.opName(source), schedule_.start[source], formatWarpSet(warps[source]),
             graph_.opName(target), schedule_.start[target], formatWarpSet(warps[target]),
             graph_.edgeDelay(e), graph_.spillCost(source), graph_.opName(target), earliest);
      }
    }
  }

  void checkBlockingConcurrency() {
    const auto& warps = *schedule_.warps;
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      bool blocking = false;
      for (EdgeId e : graph_.inEdges(op)) blocking = blocking || graph_.edgeBlocking(e);
      if (!blocking) continue;
      const Cycle issue = schedule_.start[op];
      for (OpId other = 0; other < graph_.numOps(); ++other) {
        if (other == op || (warps[other] & warps[op]) == 0) continue;
        const Cycle window = std::max<Cycle>(1, graph_.reservationLength(other));
        if (covers(schedule_.start[other], window, issue)) {
          fail(ConstraintFamily::kBlockingConcurrency,
               "{} waits on a blocking synchronization at {} on warps {}, while {} (t={}, {} "
               "cycles) is executing on a shared warp",
               graph_.opName(op), cycleText(issue), formatWarpSet(warps[op]), graph_.opName(other),
               schedule_.start[other], window);
        }
      }
    }
  }

  void checkWarpIssue(std::int32_t width) {
    const auto& warps = *schedule_.warps;
    // (warp, cycle mod II) -> the ops executing there, an op once per cycle of its window.
    std::map<std::pair<std::int32_t, Cycle>, std::vector<OpId>> issuing;
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      const Cycle window = std::max<Cycle>(1, graph_.reservationLength(op));
      for (Cycle j = 0; j < window; ++j) {
        const Cycle cycle = schedule_.start[op] + j;
        const Cycle slot = ii_ ? cycle % *ii_ : cycle;
        for (std::int32_t w = 0; w < machine_.warps; ++w) {
          if ((warps[op] >> w & 1U) != 0) issuing[{w, slot}].push_back(op);
        }
      }
    }
    for (const auto& [where, ops] : issuing) {
      if (static_cast<std::int64_t>(ops.size()) <= width) continue;
      std::vector<std::string> names;
      for (OpId op : ops) {
        names.push_back(fmt::format("{} (t={}, {} cycles)", graph_.opName(op), schedule_.start[op],
                                    std::max<Cycle>(1, graph_.reservationLength(op))));
      }
      fail(ConstraintFamily::kWarpIssue,
           "warp {} executes {} ops at {}, more than its issue width {}: {}", where.first,
           ops.size(), cycleText(where.second), width, fmt::join(names, ", "));
    }
  }

  void checkRegisterFile() {
    const auto use = registerFileUse(graph_, machine_, schedule_);
    if (!use) return;
    std::string needs;
    for (std::size_t g = 0; g < use->need.size(); ++g) {
      if (use->need[g] == 0) continue;
      needs += fmt::format("{}{}", needs.empty() ? "" : " + ", use->need[g]);
      if (use->peak[g] > kMostGroupRegisters) {
        fail(ConstraintFamily::kRegisterFile,
             "warp group {} (warps {}): the values on its warps hold {} registers per thread at "
             "once, more than setmaxnreg gives a warp group ({}); spread them over more warp "
             "groups or residues",
             g,
             formatWarpSet(
                 warpGroup(static_cast<std::int32_t>(g) * use->warpsPerGroup, use->warpsPerGroup)),
             use->peak[g], kMostGroupRegisters);
      }
    }
    if (use->total() <= *machine_.registerFile) return;
    fail(ConstraintFamily::kRegisterFile,
         "the warp groups need ({}) x {} threads = {} registers, more than the register file of "
         "machine {} ({}): each needs the most its warps' values hold at once, rounded up to 8, "
         "at least 24 (setmaxnreg); fewer warp groups holding registers, or values live at "
         "different residues within one, fit it",
         needs, use->threadsPerGroup, use->total(), machine_.name, *machine_.registerFile);
  }

  const Graph& graph_;
  const Machine& machine_;
  const Problem& problem_;
  const Schedule& schedule_;
  const VerifyOptions& options_;
  std::optional<std::int32_t> ii_;
  VerificationReport report_;
};

}  // namespace

std::string VerificationReport::uncheckedLoopCarriedNote() const {
  if (uncheckedLoopCarriedEdges == 0) return {};
  return fmt::format(
      "{} ignored: a schedule without an II is one iteration, not the loop, so only the "
      "distance-0 edges were checked (a modulo schedule, with an II, is held against them)",
      uncheckedLoopCarriedEdges);
}

VerificationReport verify(const Problem& problem, const Schedule& schedule,
                          const VerifyOptions& options) {
  VerificationReport report;
  if (!problem.graph || !problem.machine) {
    report.totalViolations = report.countByFamily[0] = 1;
    report.violations.push_back({ConstraintFamily::kShape, "problem has no graph or machine"});
    return report;
  }
  report = Judge(problem, schedule, options).run();
  if (report.count(ConstraintFamily::kShape) == 0) {
    addStrategyViolations(*problem.graph, schedule, options, report);
  }
  return report;
}

}  // namespace gaus
