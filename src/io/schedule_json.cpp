// Schedules by op name (docs/formats.md "Schedule JSON"): the `schedule` member of a native
// document and the gaus-schedule-0.1 files that `gaus schedule -o` writes and `gaus verify`
// reads share the members ii, start and warps.

#include <fmt/format.h>

#include <gaus/core/types.hpp>
#include <gaus/io/input_error.hpp>

#include "json_parse.hpp"
#include "readers.hpp"

namespace gaus::io {

namespace {

constexpr std::string_view kScheduleFormat = "gaus-schedule-0.1";

// Op ids of the members of `object` by name; every op exactly once.
std::vector<OpId> matchOps(const JsonValue& object, const Graph& graph, std::string_view what) {
  asObject(object, what);
  std::vector<OpId> ops(object.keys.size());
  std::vector<std::uint8_t> seen(static_cast<std::size_t>(graph.numOps()), 0);
  for (std::size_t i = 0; i < object.keys.size(); ++i) {
    const auto op = graph.findOp(object.keys[i]);
    if (!op) {
      throw InputError(object.items[i].line,
                       expectedFound(fmt::format("an op of graph '{}' in {}", graph.name(), what),
                                     fmt::format("unknown op {}", quoteText(object.keys[i]))));
    }
    if (seen[*op] != 0) {
      throw InputError(object.items[i].line,
                       expectedFound(fmt::format("each op once in {}", what),
                                     fmt::format("{} a second time", quoteText(object.keys[i]))));
    }
    seen[*op] = 1;
    ops[i] = *op;
  }
  if (static_cast<OpId>(object.keys.size()) != graph.numOps()) {
    std::string missing;
    std::size_t count = 0;
    for (OpId op = 0; op < graph.numOps(); ++op) {
      if (seen[op] != 0) continue;
      if (++count <= 5)
        missing += fmt::format("{}{}", count > 1 ? ", " : "", quoteText(graph.opName(op)));
    }
    if (count > 5) missing += fmt::format(", ... ({} ops in all)", count);
    throw InputError(
        object.line,
        expectedFound(fmt::format("an entry for every op of graph '{}' in {}", graph.name(), what),
                      fmt::format("none for {}", missing)));
  }
  return ops;
}

}  // namespace

Schedule scheduleFromJson(const JsonValue& value, const Graph& graph) {
  asObject(value, "the schedule");
  Schedule schedule;
  if (const JsonValue* ii = value.find("ii"); ii != nullptr && !ii->isNull()) {
    schedule.ii = asPositiveInt32(*ii, "II");
  }
  const JsonValue& starts = requireMember(value, "start", "the schedule");
  const auto startOps = matchOps(starts, graph, "\"start\"");
  schedule.start.assign(static_cast<std::size_t>(graph.numOps()), 0);
  for (std::size_t i = 0; i < startOps.size(); ++i) {
    schedule.start[startOps[i]] =
        asCycle(starts.items[i], fmt::format("start of op '{}'", starts.keys[i]));
  }
  if (const JsonValue* warps = value.find("warps"); warps != nullptr && !warps->isNull()) {
    const auto warpOps = matchOps(*warps, graph, "\"warps\"");
    std::vector<WarpSet> sets(static_cast<std::size_t>(graph.numOps()), 0);
    for (std::size_t i = 0; i < warpOps.size(); ++i) {
      const std::string what = fmt::format("warps of op '{}'", warps->keys[i]);
      for (const JsonValue& warp : asArray(warps->items[i], what).items) {
        const std::int32_t index = asNonNegativeInt32(warp, what);
        if (index >= kMaxWarps) {
          throw InputError(warp.line, expectedFound(fmt::format("a warp index below {}", kMaxWarps),
                                                    std::to_string(index)));
        }
        sets[warpOps[i]] |= WarpSet{1} << index;
      }
    }
    schedule.warps = std::move(sets);
  }
  return schedule;
}

void writeScheduleFields(DocumentWriter& writer, const Graph& graph, const Schedule& schedule) {
  std::string value;
  if (schedule.ii) writer.field("ii", std::to_string(*schedule.ii));
  writer.beginObject("start");
  for (OpId op = 0; op < graph.numOps() && op < static_cast<OpId>(schedule.start.size()); ++op) {
    writer.field(graph.opName(op), std::to_string(schedule.start[op]));
  }
  writer.end();
  if (schedule.warps) {
    writer.beginObject("warps");
    for (OpId op = 0; op < graph.numOps() && op < static_cast<OpId>(schedule.warps->size()); ++op) {
      value.clear();
      value.push_back('[');
      const WarpSet set = (*schedule.warps)[op];
      for (int w = 0; w < kMaxWarps; ++w) {
        if ((set >> w & 1U) == 0) continue;
        if (value.size() > 1) value += ", ";
        value += std::to_string(w);
      }
      value += "]";
      writer.field(graph.opName(op), value);
    }
    writer.end();
  }
}

std::string formatSchedule(const Graph& graph, const Schedule& schedule) {
  DocumentWriter writer(DocumentWriter::Style::kJson);
  std::string value;
  appendJsonString(value, kScheduleFormat);
  writer.field("format", value);
  value.clear();
  appendJsonString(value, graph.name());
  writer.field("graph", value);
  writeScheduleFields(writer, graph, schedule);
  return writer.finish();
}

Expected<Schedule> readSchedule(const std::filesystem::path& path, const Graph& graph) {
  try {
    const JsonValue document = parseJson(readFileText(path));
    asObject(document, "a schedule file");
    checkKeys(document, {"format", "graph", "ii", "start", "warps"}, "a schedule file");
    const JsonValue& format = requireMember(document, "format", "a schedule file");
    if (asString(format, "the format") != kScheduleFormat) {
      throw InputError(format.line,
                       expectedFound(fmt::format("\"{}\"", kScheduleFormat), format.describe()));
    }
    const JsonValue* name = document.find("graph");
    if (name != nullptr) asString(*name, "the graph name");
    try {
      return scheduleFromJson(document, graph);
    } catch (const InputError& error) {
      // Ops that do not match most often mean a schedule of another graph: say which one the
      // file names. A name alone is not checked (a graph may be renamed; names of loops picked
      // with FILE#N differ from their schedule's), only used to explain.
      if (name == nullptr || name->text == graph.name()) throw;
      throw InputError(error.line(),
                       fmt::format("{} (the file is a schedule of graph {}, its \"graph\" field, "
                                   "not of '{}')",
                                   error.what(), quoteText(name->text), graph.name()));
    }
  } catch (const InputError& error) {
    return Error{error.describe(path)};
  } catch (const std::exception& error) {
    return Error{locate(path, 0, error.what())};
  }
}

Status writeSchedule(const std::filesystem::path& path, const Graph& graph,
                     const Schedule& schedule) {
  if (static_cast<OpId>(schedule.start.size()) != graph.numOps()) {
    return Error{fmt::format("{}: the schedule has {} start times for the {} ops of graph '{}'",
                             path.string(), schedule.start.size(), graph.numOps(), graph.name())};
  }
  return writeFileAtomically(path, formatSchedule(graph, schedule));
}

}  // namespace gaus::io
