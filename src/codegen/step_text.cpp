// The words of the protocol steps for listings and code comments (step_text.hpp).

#include "step_text.hpp"

#include <fmt/format.h>

namespace gaus::codegen::detail {

std::string barrierArray(const Ring& ring, ProtocolStep::Kind kind) {
  const bool full =
      kind == ProtocolStep::Kind::kWaitFull || kind == ProtocolStep::Kind::kArriveExpectTx ||
      kind == ProtocolStep::Kind::kCompleteTx || kind == ProtocolStep::Kind::kArriveFull;
  return (full ? "full_" : "empty_") + ring.name;
}

std::string offsetText(std::string_view base, std::int64_t offset) {
  if (base.empty()) return std::to_string(offset);
  if (offset == 0) return std::string(base);
  return fmt::format("{}{}{}", base, offset > 0 ? "+" : "-", offset > 0 ? offset : -offset);
}

std::string roleList(const Pipeline& pipeline, const std::vector<std::int32_t>& roles) {
  std::string text;
  for (std::int32_t role : roles) {
    text += (text.empty() ? "" : ", ") + pipeline.roles[static_cast<std::size_t>(role)].name;
  }
  return text;
}

std::string describeStep(const Pipeline& pipeline, const ProtocolStep& step, std::string_view base,
                         std::int64_t offset) {
  using Kind = ProtocolStep::Kind;
  if (step.kind == Kind::kRun) return "";
  const std::string fill = offsetText(base, offset);
  const Ring& ring = pipeline.rings[static_cast<std::size_t>(step.ring)];
  const std::string producerRole = pipeline.roles[static_cast<std::size_t>(ring.producerRole)].name;
  const std::string consumers = roleList(pipeline, ring.consumerRoles);
  switch (step.kind) {
    case Kind::kWaitFull:
      return fmt::format("waits for {} of iteration {} ({}) to fill the slot",
                         pipeline.graph->opName(ring.producer), fill, producerRole);
    case Kind::kWaitEmpty:
      return fmt::format("waits for {} to release iteration {} (slots start free)", consumers,
                         offsetText(base, offset - ring.slots));
    case Kind::kArriveExpectTx:
      return fmt::format("expects the {} bytes of the copy of iteration {}", ring.txBytes, fill);
    case Kind::kCompleteTx:
      return fmt::format("the copy publishes iteration {} to {}", fill, consumers);
    case Kind::kArriveFull:
      return fmt::format("publishes iteration {} to {}", fill, consumers);
    case Kind::kArriveEmpty:
      return fmt::format("hands {} of iteration {} back to {}",
                         pipeline.graph->opName(ring.producer), fill, producerRole);
    case Kind::kRun:
      break;
  }
  return "";
}

std::string roleThreadsText(const PipelineRole& role) {
  const std::int32_t lastThread = role.firstThread() + role.threads() - 1;
  const bool wholeGroups =
      role.firstWarp % kWarpsPerWarpGroup == 0 && role.hardwareWarps % kWarpsPerWarpGroup == 0;
  std::string where;
  if (wholeGroups) {
    const std::int32_t first = role.firstWarpGroup(), last = role.lastWarpGroup();
    where = first == last ? fmt::format("warp group {}", first)
                          : fmt::format("warp groups {}..{}", first, last);
  } else {
    const std::int32_t last = role.firstWarp + role.hardwareWarps - 1;
    where = role.hardwareWarps == 1 ? fmt::format("warp {}", role.firstWarp)
                                    : fmt::format("warps {}..{}", role.firstWarp, last);
  }
  return fmt::format("{}, threads {}..{}", where, role.firstThread(), lastThread);
}

std::string conditionText(const FillSync& when, std::string_view base, std::int64_t offset) {
  if (when.kind != FillSync::Kind::kUnlessCovered) return "";
  return fmt::format("only when {} >= trips (no read through distance {})",
                     offsetText(base, offset + when.coveringDistance), when.coveringDistance);
}

}  // namespace gaus::codegen::detail
