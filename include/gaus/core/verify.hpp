// The one independent judge of a schedule. Every method's output goes through verify(), in tests
// and in the CLI. It shares no code with any scheduler: it recomputes every constraint from the
// problem and the start times alone.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/problem.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus {

struct WarpStrategy;

enum class ConstraintFamily : std::uint8_t {
  kShape,                // one start per op, starts >= 0, II > 0, warp sets present and in range
  kPrecedence,           // t(v) + distance * II >= t(u) + delay
  kHorizon,              // t(v) + duration(v) <= D
  kResource,             // units in use per cycle (mod II) <= capacity
  kWarpAssignment,       // each op on exactly min_warps warps of the machine, an aligned group
  kVariableLatency,      // variable-latency ops alone on the variable-latency warp
  kRegisterLimit,        // live registers per warp and cycle <= limit
  kMemoryCapacity,       // live footprint per memory kind and cycle <= capacity; modulo-warp:
                         // rings of buffers per memory kind <= capacity (core ringBuffers)
  kSpillDelay,           // cross-warp edges pay the producer's spill cost
  kBlockingConcurrency,  // an op with a blocking in-edge runs alone on its warp
  kWarpIssue,            // ops executing per warp and cycle (mod II) <= warpIssueWidth
  kRegisterFile,         // the warp groups' registers (setmaxnreg) fit the SM's register file
  kStrategy,             // the ops of a given warp strategy's roles on their warps (VerifyOptions)
};
inline constexpr std::size_t kNumConstraintFamilies = 13;

// The title of the note that a verdict covers one iteration only (uncheckedLoopCarriedNote).
inline constexpr std::string_view kUncheckedLoopCarriedTitle = "loop-carried edges";
std::string_view toString(ConstraintFamily family);

struct Violation {
  ConstraintFamily family;
  std::string message;  // names the ops, times and numbers
};

struct VerifyOptions {
  // Violations are all counted; messages are kept for the first this many (a broken schedule of
  // a 10^6-op graph could otherwise produce millions of lines).
  std::size_t maxMessages = 100;
  // False: the verdict only, VerificationReport::metrics left empty. A caller that scores the
  // schedule itself (GauS's candidates, millions of ops each) saves a second pass over the
  // resources and the live ranges.
  bool metrics = true;
  // A kernel author's warp strategy (core warp_strategy.hpp, placed) the schedule must follow:
  // family kStrategy. None: no strategy is checked. Not owned.
  const WarpStrategy* strategy = nullptr;
};

struct VerificationReport {
  std::vector<Violation> violations;  // the first VerifyOptions::maxMessages
  std::array<std::int64_t, kNumConstraintFamilies> countByFamily{};
  std::int64_t totalViolations = 0;
  ScheduleMetrics metrics;  // computed when the shape is valid
  // Loop-carried edges (distance > 0) of the graph that the schedule is not held against: a
  // schedule without an II is one iteration (a latency or stage problem), so the edges between
  // iterations are not part of what it claims. "verified" then speaks of one iteration only,
  // and every caller that prints a verdict says so (uncheckedLoopCarriedNote).
  std::int64_t uncheckedLoopCarriedEdges = 0;

  bool ok() const { return totalViolations == 0; }
  // "3 ignored: ..." for the note titled kUncheckedLoopCarriedTitle; empty when none were.
  std::string uncheckedLoopCarriedNote() const;
  std::int64_t count(ConstraintFamily family) const {
    return countByFamily[static_cast<std::size_t>(family)];
  }
  // One line per kept violation, plus "... and N more" when some were not kept.
  std::string summary() const;
};

// Checks precedence with distances and II (loop-carried edges only when the schedule has an II),
// the horizon, per-cycle resource usage over each op's reservation table (modulo II when set)
// memory capacity (live footprints per cycle, modulo II when set; for modulo-warp problems the
// rings of buffers x stages, core ringBuffers) and, when the schedule carries warps, warp
// uniqueness with min_warps, variable-latency isolation, registers, cross-warp spill delay,
// blocking concurrency, when the machine sets warpIssueWidth, the issue slots of each warp and,
// when it names its register file, the warp groups' registers (core/register_file.hpp).
VerificationReport verify(const Problem& problem, const Schedule& schedule,
                          const VerifyOptions& options = {});

}  // namespace gaus
