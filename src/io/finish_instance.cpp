// The checks every reader ends with, so each bad input is caught at load time with the file
// name: the graph must build (core's GraphBuilder checks), op names must be free of control
// characters and unique (checked here rather than in GraphBuilder::build so the message can
// give the lines), the graph must not be empty, and no cycle may consist of distance-0 edges
// (core's topologicalOrder names it).

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/io/input_error.hpp>

#include "readers.hpp"

namespace gaus::io {

namespace {

// The first op whose name an earlier op already has, with that earlier op. Open addressing over
// op ids with a hash tag per slot: no allocation per name, and a name is compared only when the
// tags agree (std::unordered_map took three times as long on 10^6 names).
std::optional<std::pair<OpId, OpId>> findDuplicateName(const GraphBuilder& builder) {
  const auto count = static_cast<std::size_t>(builder.numOps());
  std::size_t capacity = 16;
  while (capacity < 2 * count) capacity *= 2;
  struct Slot {
    std::uint32_t tag = 0;
    OpId op = -1;
  };
  std::vector<Slot> table(capacity);
  const std::hash<std::string_view> hash;
  for (OpId op = 0; op < builder.numOps(); ++op) {
    const std::string_view name = builder.opName(op);
    const std::size_t code = hash(name);
    const auto tag = static_cast<std::uint32_t>(code >> 32);
    for (std::size_t slot = code & (capacity - 1);; slot = (slot + 1) & (capacity - 1)) {
      if (table[slot].op < 0) {
        table[slot] = Slot{tag, op};
        break;
      }
      if (table[slot].tag == tag && builder.opName(table[slot].op) == name) {
        return std::pair{table[slot].op, op};
      }
    }
  }
  return std::nullopt;
}

}  // namespace

Instance finishInstance(GraphBuilder&& builder, Machine machine, std::string name,
                        const std::filesystem::path& source,
                        const std::function<std::int64_t(OpId)>& opLine,
                        const std::function<std::int64_t(EdgeId)>& edgeLine) {
  const auto lineOf = [&](OpId op) -> std::int64_t { return opLine ? opLine(op) : 0; };
  // Op names appear in every message, table, picture and generated kernel: a control character
  // (a newline inside a quoted GML label, a JSON "\n") would break each of them.
  for (OpId op = 0; op < builder.numOps(); ++op) {
    const std::string_view opName = builder.opName(op);
    if (std::any_of(opName.begin(), opName.end(), isControlCharacter)) {
      throw InputError(lineOf(op),
                       expectedFound("an op name without control characters",
                                     fmt::format("{} (op #{})", quoteText(opName), op)));
    }
  }
  if (const auto duplicate = findDuplicateName(builder)) {
    const auto [first, again] = *duplicate;
    const std::int64_t firstLine = lineOf(first);
    throw InputError(
        lineOf(again),
        expectedFound(
            "unique op names",
            fmt::format("{} again (op #{}; first as op #{}{})", quoteText(builder.opName(again)),
                        again, first, firstLine > 0 ? fmt::format(" on line {}", firstLine) : "")));
  }
  builder.setName(name);
  auto built = std::move(builder).build(/*allowDuplicateNames=*/true);
  if (!built) throw InputError(0, built.error());
  if (built->numOps() == 0) throw InputError(0, expectedFound("at least one op", "none"));
  const auto order = topologicalOrder(*built);
  if (!order) {
    // Where the reader knows edge lines, the line of the cycle's first edge that goes back in
    // the order the ops were given: hand-written loops list ops in data-flow order, so that is
    // where a loop-carried edge without its distance usually is. Else the line of the op at
    // which the walk around the cycle closed.
    const std::vector<OpId> cycle = zeroDistanceCycle(*built);
    std::int64_t line = lineOf(cycle.back());
    for (std::size_t i = 0; edgeLine && i < cycle.size(); ++i) {
      const OpId from = cycle[i];
      const OpId to = cycle[(i + 1) % cycle.size()];
      if (from < to) continue;
      for (EdgeId e : built->outEdges(from)) {
        if (built->edgeTarget(e) == to && built->edgeDistance(e) == 0) {
          line = edgeLine(e);
          break;
        }
      }
      break;
    }
    throw InputError(line, order.error());
  }

  Instance instance;
  instance.name = std::move(name);
  instance.sourcePath = source.string();
  instance.graph = std::make_shared<const Graph>(std::move(built).value());
  instance.machine = std::make_shared<const Machine>(std::move(machine));
  return instance;
}

}  // namespace gaus::io
