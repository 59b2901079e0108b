// The text target: a software-pipelining report per warp role, in the manner of a compiler's
// modulo-scheduling report (LLVM's MachinePipeliner debug output, Intel's and NVIDIA's
// pipelining remarks): a header with II, MII and what bounds it, stages, the roles with their
// registers and the rings with depth and bytes; then per role the prologue, the kernel (steady
// state) and the epilogue, cycle by cycle, every wait and arrive beside the op it serves.
//
// Kernel iterations are written symbolically: k in the kernel, trips+e in the epilogue;
// an op of stage s works on iteration k - s, and its fill j lives in slot j mod slots with
// phase (j / slots) mod 2 (docs/codegen.md "Phase convention").

#include <algorithm>
#include <bit>
#include <functional>

#include <fmt/format.h>

#include <gaus/codegen/targets.hpp>

#include "step_text.hpp"

namespace gaus::codegen {

namespace {

using detail::offsetText;

std::string memoryName(const Pipeline& pipeline, MemoryId memory) {
  return pipeline.machine->memories[static_cast<std::size_t>(memory)].name;
}

std::string ringLine(const Pipeline& pipeline, const Ring& ring) {
  const Graph& graph = *pipeline.graph;
  std::string line = fmt::format("  ring {}: {} ({}) -> {}\n    depth {} = ", ring.name,
                                 graph.opName(ring.producer),
                                 pipeline.roles[static_cast<std::size_t>(ring.producerRole)].name,
                                 ring.channel() ? detail::roleList(pipeline, ring.consumerRoles)
                                                : "its own role only (no barriers)",
                                 ring.depth);
  line += ring.depth == ring.liveBuffers
              ? fmt::format("max(1, ceil({} / {}))", ring.lifetime, pipeline.ii)
              : ring.depthNote;
  if (ring.slots != ring.depth) line += fmt::format(" [seeded fault: {} slots]", ring.slots);
  for (const auto& print : ring.bytesPerSlot) {
    line += fmt::format("; {} B of {} per slot, {} B in all", print.amount,
                        memoryName(pipeline, print.memory), print.amount * ring.slots);
  }
  if (ring.bytesPerSlot.empty()) {
    const auto index = static_cast<std::int32_t>(&ring - pipeline.rings.data());
    const RingPlacement* staged = pipeline.layout.find(index, MemorySpace::kShared);
    line +=
        staged != nullptr
            ? fmt::format("; no footprint: its registers are staged through smem, {} B per slot",
                          staged->bytesPerSlot)
        : ring.channel() ? "; no footprint and no registers: its barriers alone hand it on"
                         : "";
  }
  if (ring.channel()) {
    line += fmt::format(
        "\n    full_{}[{}]: {} arrival per phase (the producer{});\n    empty_{}[{}]: {} "
        "arrival(s) per phase (one per consumer role)",
        ring.name, ring.slots, ring.fullArrivals,
        ring.asyncFill ? fmt::format(", expect-tx {} B", ring.txBytes) : "", ring.name, ring.slots,
        ring.emptyArrivals);
  }
  return line;
}

// The memory layout as a table: each ring's range in each memory, the barriers, the totals.
std::string layoutTable(const Pipeline& pipeline) {
  const MemoryLayout& layout = pipeline.layout;
  std::string text =
      "  memory layout (each ring has a range of its own: no two rings share an address):\n"
      "    memory  ring                offset  slots x stride  bytes/slot  holds\n";
  const auto row = [&](std::string_view memory, std::string_view name, std::string offset,
                       std::string slots, std::int64_t bytes, std::string_view holds) {
    text += fmt::format("    {:<7} {:<18} {:>7}  {:<14} {:>11}  {}\n", memory, name, offset, slots,
                        bytes, holds);
  };
  for (const MemoryUse& use : layout.memories) {
    const bool tensor = use.memory == MemorySpace::kTensor;
    for (const RingPlacement& placement : layout.placements) {
      if (placement.memory != use.memory) continue;
      const Ring& ring = pipeline.rings[static_cast<std::size_t>(placement.ring)];
      std::string holds = "tile";
      if (placement.stagedRegisters) {
        const PipelineRole& producer = pipeline.roles[static_cast<std::size_t>(ring.producerRole)];
        holds = fmt::format("registers of {} ({} x 4 B x {} threads)", producer.name,
                            pipeline.graph->regs(ring.producer), producer.threads());
      } else if (tensor) {
        holds = fmt::format("tile, columns {}..{}", tensorMemoryColumn(placement.offset),
                            tensorMemoryColumn(placement.offset + placement.bytes()) - 1);
      }
      row(toString(placement.memory), ring.name,
          tensor ? fmt::format("col {}", tensorMemoryColumn(placement.offset))
                 : std::to_string(placement.offset),
          tensor ? fmt::format("{} x {} col", placement.slots,
                               tensorMemoryColumn(placement.slotStride))
                 : fmt::format("{} x {}", placement.slots, placement.slotStride),
          placement.bytesPerSlot, holds);
    }
    const std::string capacity =
        use.capacity ? fmt::format("of {} B", *use.capacity) : "(no capacity given)";
    if (tensor) {
      text += fmt::format("    tmem total {} B = {} columns {}; tcgen05.alloc of {} columns\n",
                          use.total, tensorMemoryColumn(use.total), capacity,
                          tensorMemoryColumnsAllocated(use));
      continue;
    }
    if (!layout.barriers.empty()) {
      std::int32_t count = 0;
      for (const BarrierPlacement& barriers : layout.barriers) count += 2 * barriers.slots;
      row("smem", "mbarriers", std::to_string(layout.barriers.front().fullOffset),
          fmt::format("{} x {}", count, kBarrierBytes), kBarrierBytes,
          fmt::format("full and empty of {} channel{}", layout.barriers.size(),
                      layout.barriers.size() == 1 ? "" : "s"));
    }
    text += use.total == 0
                ? "    smem total 0 B: no ring and no barrier in shared memory\n"
                : fmt::format(
                      "    smem total {} B {}: tiles {}, staged registers {}, barriers {}, "
                      "alignment {} (sizeof(SharedStorage))\n",
                      use.total, capacity, use.tileBytes, use.stagedBytes, use.barrierBytes,
                      use.paddingBytes);
  }
  return text;
}

std::string header(const Pipeline& pipeline, const TargetOptions& options) {
  std::string text =
      fmt::format("software pipeline of {}{}\n", pipeline.name,
                  options.scheduleSource.empty()
                      ? ""
                      : fmt::format(" (schedule {}, verified)", options.scheduleSource));
  text += fmt::format("  II {}, MII {} ({}), L {}, stages {}\n", pipeline.ii, pipeline.mii,
                      pipeline.miiBound, pipeline.latency, pipeline.stages);
  text += fmt::format("  roles: {}\n", pipeline.roleRule);
  for (const PipelineRole& role : pipeline.roles) {
    text += fmt::format("  role {}: schedule warp{} {} = {}, units {}, {} op{}", role.name,
                        std::popcount(role.warps) > 1 ? "s" : "", formatWarpSet(role.warps),
                        detail::roleThreadsText(role), role.units, role.ops.size(),
                        role.ops.size() == 1 ? "" : "s");
    if (role.liveRegisters) {
      text += fmt::format(", {} live registers per thread, setmaxnreg {}", *role.liveRegisters,
                          *role.maxRegisters);
    }
    text += "\n";
  }
  text += fmt::format("  registers: {}\n", pipeline.registers.text);
  if (pipeline.rings.empty()) {
    text += "  rings: none (no value crosses roles or has a memory footprint)\n";
  } else {
    text +=
        "  rings, one per value; depth = iterations in flight\n"
        "    = max(1, ceil((last reader start + distance x II - producer start) / II)):\n";
  }
  for (const Ring& ring : pipeline.rings) text += ringLine(pipeline, ring) + "\n";
  text += layoutTable(pipeline);
  text +=
      "  protocol: fill j in slot(j) = j mod slots with phase(j) = (j / slots) mod 2; the "
      "producer\n"
      "    waits on empty with parity phase ^ 1, fills, arrives on full; a consumer waits on full\n"
      "    with parity phase, reads, arrives on empty\n";
  if (!pipeline.seededFault.empty()) {
    text += fmt::format("  SEEDED FAULT (test only): {}\n", pipeline.seededFault);
  }
  return text;
}

// How one kernel iteration is named in the listing.
struct KernelIteration {
  std::string base;       // "k" or "trips"; empty for a concrete prologue iteration
  std::int64_t offset;    // the kernel iteration is base + offset
  std::string cycleBase;  // the first cycle of the kernel iteration, as text
};

std::string cycleText(const Pipeline& pipeline, const KernelIteration& kernel, Cycle residue) {
  if (kernel.base.empty()) return std::to_string(kernel.offset * pipeline.ii + residue);
  return fmt::format("{}+{}", kernel.cycleBase, residue);
}

void appendBlocks(std::string& text, const Pipeline& pipeline, const RoleProgram& program,
                  const KernelIteration& kernel,
                  const std::function<bool(std::int32_t stage)>& active) {
  const Graph& graph = *pipeline.graph;
  for (const OpBlock& block : program.blocks) {
    if (!active(block.stage)) continue;
    const std::int64_t iterationOffset = kernel.offset - block.stage;
    const std::string iteration = offsetText(kernel.base, iterationOffset);
    const std::string cycle = cycleText(pipeline, kernel, block.residue);
    for (const ProtocolStep& step : blockSteps(pipeline, block)) {
      const std::int64_t fillOffset = iterationOffset - step.distance;
      const std::string fill = offsetText(kernel.base, fillOffset);
      if (kernel.base.empty() && fillOffset < 0) continue;
      if (step.kind == ProtocolStep::Kind::kRun) {
        text += fmt::format("    {:>14}  {:<18} iteration {:<9} stage {}{}\n", cycle,
                            graph.opName(block.op), iteration, block.stage,
                            graph.streaming(block.op)
                                ? " (streaming: issued once its slot is free, ahead of its cycle)"
                                : "");
        continue;
      }
      const Ring& ring = pipeline.rings[static_cast<std::size_t>(step.ring)];
      std::string action;
      switch (step.kind) {
        case ProtocolStep::Kind::kWaitFull:
        case ProtocolStep::Kind::kWaitEmpty: {
          const bool flip = step.kind == ProtocolStep::Kind::kWaitEmpty || step.flipParity;
          action = fmt::format("wait      {}[slot({})] parity phase({}){}",
                               detail::barrierArray(ring, step.kind), fill, fill, flip ? "^1" : "");
          break;
        }
        case ProtocolStep::Kind::kArriveExpectTx:
          action = fmt::format("expect-tx {}[slot({})], arrive",
                               detail::barrierArray(ring, step.kind), fill);
          break;
        case ProtocolStep::Kind::kCompleteTx:
          action =
              fmt::format("copy done {}[slot({})]", detail::barrierArray(ring, step.kind), fill);
          break;
        case ProtocolStep::Kind::kArriveFull:
        case ProtocolStep::Kind::kArriveEmpty:
          action =
              fmt::format("arrive    {}[slot({})]", detail::barrierArray(ring, step.kind), fill);
          break;
        case ProtocolStep::Kind::kRun:
          break;
      }
      std::string when;
      if (!kernel.base.empty() && step.distance > 0 && fillOffset < 0) {
        when = fmt::format(" [when {} >= 0]", fill);
      }
      if (const std::string condition = detail::conditionText(step.when, kernel.base, fillOffset);
          !condition.empty()) {
        when += fmt::format(" [{}]", condition);
      }
      text += fmt::format("    {:>14}    {}{}: {}\n", cycle, action, when,
                          detail::describeStep(pipeline, step, kernel.base, fillOffset));
    }
  }
}

std::string roleSection(const Pipeline& pipeline, std::size_t r) {
  const PipelineRole& role = pipeline.roles[r];
  const RoleProgram& program = pipeline.programs[r];
  const std::int32_t stages = pipeline.stages;
  std::string text = fmt::format("\nrole {} ({}, units {})\n", role.name,
                                 detail::roleThreadsText(role), role.units);
  for (std::int32_t k = 0; k + 1 < stages; ++k) {
    text += fmt::format("  prologue, kernel iteration {} (cycles {}..{}): stages 0..{}\n", k,
                        k * pipeline.ii, (k + 1) * pipeline.ii - 1, k);
    appendBlocks(text, pipeline, program, {"", k, ""},
                 [&](std::int32_t stage) { return stage <= k; });
  }
  text += fmt::format(
      "  kernel, kernel iterations k = {} .. trips-1 (cycles {}k .. {}k+{}): stage s works on "
      "iteration k-s\n",
      stages - 1, pipeline.ii, pipeline.ii, pipeline.ii - 1);
  appendBlocks(text, pipeline, program, {"k", 0, fmt::format("{}k", pipeline.ii)},
               [](std::int32_t) { return true; });
  for (std::int32_t e = 0; e + 1 < stages; ++e) {
    text +=
        fmt::format("  epilogue, kernel iteration trips+{}: stages {}..{}\n", e, e + 1, stages - 1);
    appendBlocks(text, pipeline, program,
                 {"trips", e,
                  e == 0 ? fmt::format("{}*trips", pipeline.ii)
                         : fmt::format("{}*(trips+{})", pipeline.ii, e)},
                 [&](std::int32_t stage) { return stage > e; });
  }
  if (!program.drains.empty() || !program.tails.empty()) text += "  after the loops\n";
  for (const Drain& drain : program.drains) {
    if (drain.fromEnd <= 0) continue;
    const Ring& ring = pipeline.rings[static_cast<std::size_t>(drain.ring)];
    text += fmt::format(
        "    drain {}: for j in [max(0, trips-{}), trips): wait full_{}[slot(j)] parity phase(j), "
        "arrive empty_{}[slot(j)] (fills no read of this role consumes)\n",
        ring.name, drain.fromEnd, ring.name, ring.name);
  }
  for (std::int32_t tail : program.tails) {
    const Ring& ring = pipeline.rings[static_cast<std::size_t>(tail)];
    text += fmt::format(
        "    producer tail {}: for j in [max(0, trips-{}), trips): wait empty_{}[slot(j)] parity "
        "phase(j) (every consumer released fill j)\n",
        ring.name, ring.slots, ring.name);
  }
  return text;
}

}  // namespace

std::string renderListing(const Pipeline& pipeline, const TargetOptions& options) {
  std::string text = header(pipeline, options);
  for (std::size_t r = 0; r < pipeline.roles.size(); ++r) text += roleSection(pipeline, r);
  return text;
}

}  // namespace gaus::codegen
