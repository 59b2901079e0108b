// Formulation B's time-expanded network over a window of cycles (time_expanded_network.hpp says
// what it computes and why).

#include "time_expanded_network.hpp"

#include <algorithm>

namespace gaus::live_memory {

namespace {

// The distinct distance-0 readers of `op` that may start last: a reader that is a direct
// predecessor of another reader starts before it (delays are never negative).
std::vector<OpId> lastReaderCandidates(const Graph& graph, OpId op) {
  std::vector<OpId> readers;
  for (const EdgeId e : graph.outEdges(op)) {
    if (graph.edgeDistance(e) == 0) readers.push_back(graph.edgeTarget(e));
  }
  std::sort(readers.begin(), readers.end());
  readers.erase(std::unique(readers.begin(), readers.end()), readers.end());
  if (readers.size() < 2) return readers;
  std::vector<OpId> last;
  for (const OpId reader : readers) {
    bool precedesAnother = false;
    for (const EdgeId e : graph.outEdges(reader)) {
      precedesAnother = precedesAnother ||
                        (graph.edgeDistance(e) == 0 &&
                         std::binary_search(readers.begin(), readers.end(), graph.edgeTarget(e)));
    }
    if (!precedesAnother) last.push_back(reader);
  }
  return last;
}

}  // namespace

TimeExpandedNetwork::TimeExpandedNetwork(const Graph& graph, std::span<const StartRange> ranges,
                                         Cycle first, Cycle last)
    : graph_(graph), first_(first), last_(last) {
  const OpId ops = graph.numOps();
  variables_.reserve(static_cast<std::size_t>(ops));
  for (OpId op = 0; op < ops; ++op) {
    variables_.push_back({ranges[op].earliest, ranges[op].latest, 0});
  }
  // The values, and the last reader of each with several.
  std::vector<std::vector<OpId>> lastReaders;
  for (OpId op = 0; op < ops; ++op) {
    if (graph.mem(op) == 0.0) continue;
    std::vector<OpId> readers = lastReaderCandidates(graph, op);
    if (readers.empty()) continue;
    terms_.push_back({op, graph.mem(op)});
    if (readers.size() == 1) {
      terms_.push_back({readers.front(), -graph.mem(op)});
      continue;
    }
    Variable lastReader;
    for (const OpId reader : readers) {
      lastReader.earliest = std::max(lastReader.earliest, ranges[reader].earliest);
      lastReader.latest = std::max(lastReader.latest, ranges[reader].latest);
    }
    terms_.push_back({static_cast<std::int32_t>(variables_.size()), -graph.mem(op)});
    variables_.push_back(lastReader);
    lastReaders.push_back(std::move(readers));
  }
  // One node per variable and cycle of the window where the ranges leave y open.
  for (Variable& variable : variables_) {
    variable.firstNode = flow_.numNodes();
    const Cycle from = std::max(variable.earliest, first_);
    const Cycle to = std::min(variable.latest - 1, last_);
    for (Cycle t = from; t <= to; ++t) flow_.addNode();
  }
  forced_.assign(static_cast<std::size_t>(flow_.numNodes()), kFree);
  // Implications: started stays started; a reader started forces its producer d cycles earlier
  // (by `first` when that is before the window); a last reader started forces every reader.
  for (std::int32_t x = 0; x < static_cast<std::int32_t>(variables_.size()); ++x) {
    for (Cycle t = first_; t < last_; ++t) {
      if (fixedValue(x, t) < 0 && fixedValue(x, t + 1) < 0) {
        flow_.addArc(node(x, t), node(x, t + 1), MaxFlow::kInfinite);
      }
    }
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    if (graph.edgeDistance(e) != 0) continue;
    const OpId producer = graph.edgeSource(e);
    const OpId reader = graph.edgeTarget(e);
    for (Cycle t = first_; t <= last_; ++t) {
      addImplication(reader, t, producer, std::max(t - graph.edgeDelay(e), first_));
    }
  }
  for (std::size_t k = 0; k < lastReaders.size(); ++k) {
    const auto x = static_cast<std::int32_t>(ops + static_cast<OpId>(k));
    for (const OpId reader : lastReaders[k]) {
      for (Cycle t = first_; t <= last_; ++t) addImplication(x, t, reader, t);
    }
  }
}

int TimeExpandedNetwork::fixedValue(std::int32_t x, Cycle t) const {
  const Variable& variable = variables_[static_cast<std::size_t>(x)];
  if (t < variable.earliest) return 0;
  if (t >= variable.latest) return 1;
  return -1;
}

MaxFlow::Node TimeExpandedNetwork::node(std::int32_t x, Cycle t) const {
  const Variable& variable = variables_[static_cast<std::size_t>(x)];
  return variable.firstNode + static_cast<MaxFlow::Node>(t - std::max(variable.earliest, first_));
}

void TimeExpandedNetwork::addImplication(std::int32_t from, Cycle t, std::int32_t to, Cycle tTo) {
  const int given = fixedValue(from, t);
  const int implied = fixedValue(to, tTo);
  if (given == 0 || implied == 1) return;  // nothing implied, or it holds in every schedule
  // Consistent ranges never fix one end against the other; where they do, the node is forced.
  if (given == 1) {
    forced_[static_cast<std::size_t>(node(to, tTo))] = kForcedStarted;
  } else if (implied == 0) {
    forced_[static_cast<std::size_t>(node(from, t))] = kForcedWaiting;
  } else {
    flow_.addArc(node(from, t), node(to, tTo), MaxFlow::kInfinite);
  }
}

TimeExpandedNetwork::Cut TimeExpandedNetwork::solve(std::span<const double> weights,
                                                    const std::function<bool()>& stop) {
  // Each node's weight: the terms' mem times the cycle's weight. A positive weight is paid on the
  // source side (an arc to the sink), a negative one on the sink side (an arc from the source,
  // its value added to the constant: w y = w + |w| (1 - y)).
  std::vector<double> weight(static_cast<std::size_t>(flow_.numNodes()), 0.0);
  double constant = 0.0;
  for (const Term& term : terms_) {
    for (Cycle t = first_; t <= last_; ++t) {
      const double w = term.mem * weights[static_cast<std::size_t>(t - first_)];
      const int fixed = fixedValue(term.variable, t);
      if (fixed == 1) {
        constant += w;
      } else if (fixed < 0) {
        weight[static_cast<std::size_t>(node(term.variable, t))] += w;
      }
    }
  }
  for (MaxFlow::Node i = 0; i < flow_.numNodes(); ++i) {
    const double w = weight[static_cast<std::size_t>(i)];
    if (w < 0.0) constant += w;
    double fromSource = w < 0.0 ? -w : 0.0;
    double toSink = w > 0.0 ? w : 0.0;
    if (forced_[static_cast<std::size_t>(i)] == kForcedStarted) fromSource = MaxFlow::kInfinite;
    if (forced_[static_cast<std::size_t>(i)] == kForcedWaiting) toSink = MaxFlow::kInfinite;
    flow_.setTerminal(i, fromSource, toSink);
  }
  Cut cut;
  cut.complete = flow_.run(stop);
  cut.bound = constant + flow_.lowerBound();
  cut.profile.assign(static_cast<std::size_t>(cycles()), 0.0);
  for (const Term& term : terms_) {
    for (Cycle t = first_; t <= last_; ++t) {
      if (hasStarted(term.variable, t))
        cut.profile[static_cast<std::size_t>(t - first_)] += term.mem;
    }
  }
  return cut;
}

bool TimeExpandedNetwork::hasStarted(std::int32_t x, Cycle t) const {
  const int fixed = fixedValue(x, t);
  if (fixed >= 0) return fixed == 1;
  return flow_.sourceSide(node(x, t));
}

std::vector<Cycle> TimeExpandedNetwork::starts() const {
  std::vector<Cycle> start(static_cast<std::size_t>(graph_.numOps()));
  for (OpId op = 0; op < graph_.numOps(); ++op) {
    const Variable& variable = variables_[static_cast<std::size_t>(op)];
    Cycle s = variable.latest;
    for (Cycle t = std::max(variable.earliest, first_); t <= std::min(variable.latest, last_);
         ++t) {
      if (hasStarted(op, t)) {
        s = t;
        break;
      }
    }
    start[static_cast<std::size_t>(op)] = s;
  }
  return start;
}

}  // namespace gaus::live_memory
