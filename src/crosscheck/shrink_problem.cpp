// Greedy shrinking of a disagreeing problem (shrink_problem.hpp). A problem is taken apart into
// op and edge attribute lists, one edit at a time is applied, and the graph is built again; the
// edits go from the largest (dropping an op with its edges) to the smallest (lowering a number
// by one), and a pass restarts after every edit kept.

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include <gaus/crosscheck/shrink_problem.hpp>

namespace gaus::crosscheck {

namespace {

struct EditableGraph {
  std::string name;
  std::vector<OpAttributes> ops;
  std::vector<EdgeAttributes> edges;
};

EditableGraph editable(const Graph& graph) {
  EditableGraph result{graph.name(), {}, {}};
  for (OpId op = 0; op < graph.numOps(); ++op) result.ops.push_back(graph.opAttributes(op));
  for (EdgeId e = 0; e < graph.numEdges(); ++e) result.edges.push_back(graph.edgeAttributes(e));
  return result;
}

std::optional<Problem> rebuild(const Problem& original, const EditableGraph& graph) {
  GraphBuilder builder(graph.name);
  for (const OpAttributes& op : graph.ops) builder.addOp(op);
  for (const EdgeAttributes& edge : graph.edges) builder.addEdge(edge);
  auto built = std::move(builder).build();
  if (!built) return std::nullopt;
  Problem problem = original;
  problem.graph = std::make_shared<const Graph>(std::move(built).value());
  if (!problem.check().empty()) return std::nullopt;
  return problem;
}

// One edit of the graph; false when it does not apply (nothing to lower, no such op).
using Edit = std::function<bool(EditableGraph&)>;

EditableGraph withoutOp(const EditableGraph& graph, OpId removed) {
  EditableGraph result{graph.name, {}, {}};
  for (OpId op = 0; op < static_cast<OpId>(graph.ops.size()); ++op) {
    if (op != removed) result.ops.push_back(graph.ops[op]);
  }
  for (EdgeAttributes edge : graph.edges) {
    if (edge.source == removed || edge.target == removed) continue;
    if (edge.source > removed) --edge.source;
    if (edge.target > removed) --edge.target;
    result.edges.push_back(edge);
  }
  return result;
}

// Lowers a number by one when it is above `floor`.
bool lower(std::int32_t& value, std::int32_t floor) {
  if (value <= floor) return false;
  --value;
  return true;
}

// Every edit of a graph of this shape, largest first.
std::vector<Edit> editsFor(const EditableGraph& graph) {
  std::vector<Edit> edits;
  const auto opCount = static_cast<OpId>(graph.ops.size());
  const auto edgeCount = static_cast<EdgeId>(graph.edges.size());
  for (OpId op = opCount - 1; op >= 0 && opCount > 1; --op) {
    edits.push_back([op](EditableGraph& g) {
      g = withoutOp(g, op);
      return true;
    });
  }
  for (EdgeId e = edgeCount - 1; e >= 0; --e) {
    edits.push_back([e](EditableGraph& g) {
      g.edges.erase(g.edges.begin() + e);
      return true;
    });
  }
  for (OpId op = 0; op < opCount; ++op) {
    edits.push_back([op](EditableGraph& g) {
      auto& blocks = g.ops[op].reservation;
      if (blocks.empty()) return false;
      blocks.pop_back();
      return true;
    });
    edits.push_back([op](EditableGraph& g) { return lower(g.ops[op].latency, 0); });
    edits.push_back([op](EditableGraph& g) {
      for (auto& block : g.ops[op].reservation) {
        if (lower(block.length, 1) || lower(block.units, 1) || lower(block.begin, 0)) return true;
      }
      return false;
    });
    edits.push_back([op](EditableGraph& g) {
      OpAttributes& a = g.ops[op];
      const OpAttributes plain;
      if (a.regs == plain.regs && a.footprints.empty() && a.spillCost == plain.spillCost &&
          a.minWarps == plain.minWarps && a.mem == plain.mem && a.weight == plain.weight &&
          !a.streaming) {
        return false;
      }
      a.regs = plain.regs;
      a.footprints.clear();
      a.spillCost = plain.spillCost;
      a.minWarps = plain.minWarps;
      a.mem = plain.mem;
      a.weight = plain.weight;
      a.streaming = false;
      return true;
    });
    edits.push_back([op](EditableGraph& g) {
      if (!g.ops[op].variableLatency) return false;
      g.ops[op].variableLatency = false;
      return true;
    });
  }
  for (EdgeId e = 0; e < edgeCount; ++e) {
    edits.push_back([e](EditableGraph& g) {
      EdgeAttributes& edge = g.edges[e];
      if (edge.delay && *edge.delay > 0) {
        edge.delay = *edge.delay - 1;
        return true;
      }
      return false;
    });
    edits.push_back([e](EditableGraph& g) { return lower(g.edges[e].distance, 1); });
    edits.push_back([e](EditableGraph& g) {
      EdgeAttributes& edge = g.edges[e];
      if (!edge.blocking && edge.comm == 0.0) return false;
      edge.blocking = false;
      edge.comm = 0.0;
      return true;
    });
  }
  return edits;
}

}  // namespace

ShrinkOutcome shrinkProblem(const Problem& problem, const StillDisagrees& stillDisagrees,
                            const ShrinkOptions& options) {
  ShrinkOutcome outcome{problem, 0, 0};
  // After a kept edit the next pass starts at the same position (the edits before it failed on
  // a larger problem and rarely succeed now); a last pass from the start confirms the fixpoint.
  std::size_t first = 0;
  bool fromStart = true;
  while (outcome.trials < options.maxTrials) {
    const EditableGraph current = editable(*outcome.problem.graph);
    const std::vector<Edit> edits = editsFor(current);
    std::optional<std::size_t> kept;
    for (std::size_t i = std::min(first, edits.size()); i < edits.size(); ++i) {
      if (outcome.trials >= options.maxTrials) break;
      EditableGraph candidate = current;
      if (!edits[i](candidate)) continue;
      const auto rebuilt = rebuild(outcome.problem, candidate);
      if (!rebuilt) continue;
      ++outcome.trials;
      if (!stillDisagrees(*rebuilt)) continue;
      outcome.problem = *rebuilt;
      ++outcome.steps;
      kept = i;
      break;
    }
    if (kept) {
      first = *kept;
      fromStart = first == 0;
    } else if (fromStart) {
      break;
    } else {
      first = 0;
      fromStart = true;
    }
  }
  return outcome;
}

}  // namespace gaus::crosscheck
