// The native document (docs/formats.md "Native format") as JSON or YAML. Defaults are left out
// so that small files read like the examples; above kCompactEdgesAbove ops edges use the compact
// array form with op indices, which keeps a 10^6-op graph near 100 bytes per op and edge.

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include <gaus/io/input_error.hpp>

#include "readers.hpp"

namespace gaus::io {

namespace {

constexpr OpId kCompactEdgesAbove = 1000;

void appendKey(std::string& out, std::string_view key, bool first) {
  if (!first) out += ", ";
  appendJsonString(out, key);
  out += ": ";
}

std::string machineFlow(const Machine& machine) {
  std::string out = "{";
  appendKey(out, "name", true);
  appendJsonString(out, machine.name);
  appendKey(out, "resources", false);
  out += "[";
  for (std::size_t r = 0; r < machine.resources.size(); ++r) {
    out += r == 0 ? "{" : ", {";
    appendKey(out, "name", true);
    appendJsonString(out, machine.resources[r].name);
    if (machine.resources[r].capacity) {
      appendKey(out, "capacity", false);
      appendJsonInteger(out, *machine.resources[r].capacity);
    }
    out += "}";
  }
  out += "]";
  if (!machine.memories.empty()) {
    appendKey(out, "memories", false);
    out += "[";
    for (std::size_t m = 0; m < machine.memories.size(); ++m) {
      out += m == 0 ? "{" : ", {";
      appendKey(out, "name", true);
      appendJsonString(out, machine.memories[m].name);
      appendKey(out, "capacity", false);
      appendJsonInteger(out, machine.memories[m].capacity);
      out += "}";
    }
    out += "]";
  }
  if (machine.warps != 1) {
    appendKey(out, "warps", false);
    appendJsonInteger(out, machine.warps);
  }
  if (machine.threadsPerWarp != 128) {
    appendKey(out, "threads_per_warp", false);
    appendJsonInteger(out, machine.threadsPerWarp);
  }
  if (machine.registerLimit) {
    appendKey(out, "register_limit", false);
    appendJsonInteger(out, *machine.registerLimit);
  }
  if (machine.registerFile) {
    appendKey(out, "register_file", false);
    appendJsonInteger(out, *machine.registerFile);
  }
  if (machine.variableLatencyWarp) {
    appendKey(out, "variable_latency_warp", false);
    appendJsonInteger(out, *machine.variableLatencyWarp);
  }
  if (machine.warpIssueWidth) {
    appendKey(out, "warp_issue_width", false);
    appendJsonInteger(out, *machine.warpIssueWidth);
  }
  out += "}";
  return out;
}

void appendIntegerMember(std::string& out, std::string_view key, std::int64_t value) {
  appendKey(out, key, false);
  appendJsonInteger(out, value);
}

void appendOp(std::string& out, const Graph& graph, const Machine& machine, OpId op) {
  const auto what = [&](std::string_view field) {
    return fmt::format("{} of op '{}'", field, graph.opName(op));
  };
  out += "{";
  appendKey(out, "name", true);
  appendJsonString(out, graph.opName(op));
  if (!graph.opKind(op).empty()) {
    appendKey(out, "kind", false);
    appendJsonString(out, graph.opKind(op));
  }
  if (graph.latency(op) != 0) appendIntegerMember(out, "latency", graph.latency(op));
  const auto blocks = graph.reservation(op);
  if (blocks.size() == 1 && blocks[0].begin == 0 && blocks[0].units == 1) {
    // The HLS "type" shorthand: one unit for `occupancy` cycles from the start.
    appendKey(out, "uses", false);
    appendJsonString(out, machine.resources[blocks[0].resource].name);
    if (blocks[0].length != std::max(1, graph.latency(op))) {
      appendIntegerMember(out, "occupancy", blocks[0].length);
    }
  } else if (!blocks.empty()) {
    appendKey(out, "reservation", false);
    out += "[";
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      out += b == 0 ? "{" : ", {";
      appendKey(out, "resource", true);
      appendJsonString(out, machine.resources[blocks[b].resource].name);
      if (blocks[b].begin != 0) appendIntegerMember(out, "begin", blocks[b].begin);
      if (blocks[b].length != 1) appendIntegerMember(out, "length", blocks[b].length);
      if (blocks[b].units != 1) appendIntegerMember(out, "units", blocks[b].units);
      out += "}";
    }
    out += "]";
  }
  if (graph.mem(op) != 0.0) {
    appendKey(out, "mem", false);
    appendJsonNumber(out, graph.mem(op), what("mem"));
  }
  if (graph.weight(op) != 0.0) {
    appendKey(out, "weight", false);
    appendJsonNumber(out, graph.weight(op), what("weight"));
  }
  if (graph.regs(op) != 0) appendIntegerMember(out, "regs", graph.regs(op));
  const auto footprints = graph.footprints(op);
  if (!footprints.empty()) {
    appendKey(out, "footprints", false);
    out += "{";
    for (std::size_t f = 0; f < footprints.size(); ++f) {
      appendKey(out, machine.memories[footprints[f].memory].name, f == 0);
      appendJsonInteger(out, footprints[f].amount);
    }
    out += "}";
  }
  if (graph.variableLatency(op)) {
    appendKey(out, "variable_latency", false);
    out += "true";
  }
  if (graph.streaming(op)) {
    appendKey(out, "streaming", false);
    out += "true";
  }
  if (graph.spillCost(op) != 0) appendIntegerMember(out, "spill_cost", graph.spillCost(op));
  if (graph.minWarps(op) != 1) appendIntegerMember(out, "min_warps", graph.minWarps(op));
  out += "}";
}

void appendEndpoint(std::string& out, const Graph& graph, OpId op, bool byIndex) {
  if (byIndex) {
    appendJsonInteger(out, op);
  } else {
    appendJsonString(out, graph.opName(op));
  }
}

void appendEdge(std::string& out, const Graph& graph, EdgeId e, bool compact) {
  const OpId source = graph.edgeSource(e);
  // The reader gives an edge without a delay the source's latency (0 out of a streaming op).
  const std::int32_t defaultDelay = graph.streaming(source) ? 0 : graph.latency(source);
  const bool defaultDelayKept = graph.edgeDelay(e) == defaultDelay;
  if (compact && !graph.edgeBlocking(e) && graph.edgeComm(e) == 0.0) {
    out += "[";
    appendJsonInteger(out, source);
    out += ", ";
    appendJsonInteger(out, graph.edgeTarget(e));
    if (!defaultDelayKept || graph.edgeDistance(e) != 0) {
      out += ", ";
      appendJsonInteger(out, graph.edgeDelay(e));
    }
    if (graph.edgeDistance(e) != 0) {
      out += ", ";
      appendJsonInteger(out, graph.edgeDistance(e));
    }
    out += "]";
    return;
  }
  out += "{";
  appendKey(out, "from", true);
  appendEndpoint(out, graph, source, compact);
  appendKey(out, "to", false);
  appendEndpoint(out, graph, graph.edgeTarget(e), compact);
  if (!defaultDelayKept) appendIntegerMember(out, "delay", graph.edgeDelay(e));
  if (graph.edgeDistance(e) != 0) appendIntegerMember(out, "distance", graph.edgeDistance(e));
  if (graph.edgeBlocking(e)) {
    appendKey(out, "blocking", false);
    out += "true";
  }
  if (graph.edgeComm(e) != 0.0) {
    appendKey(out, "comm", false);
    appendJsonNumber(out, graph.edgeComm(e), fmt::format("comm of edge #{}", e));
  }
  out += "}";
}

}  // namespace

std::string formatNativeDocument(const Instance& instance, bool yaml) {
  const Graph& graph = *instance.graph;
  const Machine& machine = *instance.machine;
  DocumentWriter writer(yaml ? DocumentWriter::Style::kYaml : DocumentWriter::Style::kJson);
  std::string& value = writer.scratch();
  writer.field("format", "\"gaus-0.1\"");
  value.clear();
  appendJsonString(value, instance.name);
  writer.field("name", value);
  writer.field("machine", machineFlow(machine));

  writer.beginList("ops");
  for (OpId op = 0; op < graph.numOps(); ++op) {
    value.clear();
    appendOp(value, graph, machine, op);
    writer.item(value);
  }
  writer.end();

  const bool compact = graph.numOps() > kCompactEdgesAbove;
  writer.beginList("edges");
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    value.clear();
    appendEdge(value, graph, e, compact);
    writer.item(value);
  }
  writer.end();

  if (instance.schedule) {
    const Schedule& schedule = *instance.schedule;
    if (static_cast<OpId>(schedule.start.size()) != graph.numOps() ||
        (schedule.warps && static_cast<OpId>(schedule.warps->size()) != graph.numOps())) {
      throw InputError(0, expectedFound(fmt::format("a start time (and warp set) for each of the "
                                                    "{} ops in the schedule",
                                                    graph.numOps()),
                                        fmt::format("{} start times", schedule.start.size())));
    }
    writer.beginObject("schedule");
    writeScheduleFields(writer, graph, *instance.schedule);
    writer.end();
  }
  if (!instance.reference.empty()) {
    writer.beginObject("reference");
    for (const auto& [name, figure] : instance.reference) {
      std::string number;
      appendJsonNumber(number, figure, fmt::format("reference figure '{}'", name));
      writer.field(name, number);
    }
    writer.end();
  }
  return writer.finish();
}

}  // namespace gaus::io
