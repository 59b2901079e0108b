// Graphviz DOT export (write only): one box per op labelled with its name, kind, latency and
// reserved resources; edges labelled with their delay, and loop-carried edges dashed with their
// distance. Meant for looking at small graphs (`dot -Tsvg`).

#include <iterator>

#include <fmt/format.h>

#include "readers.hpp"

namespace gaus::io {

namespace {

// A DOT string literal: DOT's quoted strings escape only the double quote (and keep "\n" as
// a line break in labels, which is why backslashes in names are doubled).
void appendDotString(std::string& out, std::string_view text) {
  out += '"';
  for (const char c : text) {
    if (c == '"') {
      out += "\\\"";
    } else if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  out += '"';
}

}  // namespace

std::string formatDotGraph(const Instance& instance) {
  const Graph& graph = *instance.graph;
  const Machine& machine = *instance.machine;
  std::string out = "digraph ";
  appendDotString(out, instance.name);
  out += " {\n  node [shape=box, fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\"];\n";
  for (OpId op = 0; op < graph.numOps(); ++op) {
    std::string label(graph.opName(op));
    if (!graph.opKind(op).empty()) label += fmt::format("\n{}", graph.opKind(op));
    label += fmt::format("\nlat {}", graph.latency(op));
    for (const ReservationBlock& block : graph.reservation(op)) {
      label += fmt::format("\n{}", machine.resources[block.resource].name);
      if (block.units != 1) label += fmt::format(" x{}", block.units);
      label += block.begin == 0 && block.length == 1
                   ? std::string{}
                   : fmt::format(" [{}, {})", block.begin, block.begin + block.length);
    }
    out += fmt::format("  n{} [label=", op);
    appendDotString(out, label);
    out += "];\n";
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    fmt::format_to(std::back_inserter(out), "  n{} -> n{} [label=\"{}", graph.edgeSource(e),
                   graph.edgeTarget(e), graph.edgeDelay(e));
    if (graph.edgeDistance(e) > 0) {
      fmt::format_to(std::back_inserter(out), ", dist {}\", style=dashed", graph.edgeDistance(e));
    } else {
      out += "\"";
    }
    out += "];\n";
  }
  out += "}\n";
  return out;
}

}  // namespace gaus::io
