// Boykov and Kolmogorov's maximum flow (max_flow.hpp says what and why).

#include "max_flow.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace gaus::live_memory {

namespace {

// Residual capacity below this is spent: capacities are sums of mem times Lagrange weights, and
// rounding leaves remainders far below any real one.
constexpr double kSpent = 1e-12;
// Augmentations between two questions to `stop`.
constexpr std::int64_t kStopInterval = 4096;

}  // namespace

void MaxFlow::clear() {
  source_.clear();
  sink_.clear();
  arcs_.clear();
  built_ = false;
}

MaxFlow::Node MaxFlow::addNode() {
  built_ = false;
  source_.push_back(0.0);
  sink_.push_back(0.0);
  return static_cast<Node>(source_.size() - 1);
}

void MaxFlow::addTerminal(Node node, double fromSource, double toSink) {
  source_[static_cast<std::size_t>(node)] += fromSource;
  sink_[static_cast<std::size_t>(node)] += toSink;
}

void MaxFlow::setTerminal(Node node, double fromSource, double toSink) {
  source_[static_cast<std::size_t>(node)] = fromSource;
  sink_[static_cast<std::size_t>(node)] = toSink;
}

void MaxFlow::addArc(Node from, Node to, double capacity) {
  if (from == to || capacity <= 0.0) return;
  built_ = false;
  arcs_.push_back({from, to, capacity});
}

void MaxFlow::build() {
  const auto nodes = source_.size();
  if (built_) {
    residual_ = capacity_;
  } else {
    layOut();
  }
  terminal_.resize(nodes);
  resetTrees();
}

void MaxFlow::layOut() {
  const auto nodes = source_.size();
  firstArc_.assign(nodes + 1, 0);
  for (const Arc& arc : arcs_) {
    ++firstArc_[static_cast<std::size_t>(arc.from) + 1];
    ++firstArc_[static_cast<std::size_t>(arc.to) + 1];
  }
  std::partial_sum(firstArc_.begin(), firstArc_.end(), firstArc_.begin());
  const std::size_t slots = 2 * arcs_.size();
  head_.resize(slots);
  reverse_.resize(slots);
  residual_.resize(slots);
  std::vector<std::int64_t> fill(firstArc_.begin(), firstArc_.end() - 1);
  for (const Arc& arc : arcs_) {
    const std::int64_t forward = fill[static_cast<std::size_t>(arc.from)]++;
    const std::int64_t backward = fill[static_cast<std::size_t>(arc.to)]++;
    head_[forward] = arc.to;
    residual_[forward] = arc.capacity;
    reverse_[forward] = backward;
    head_[backward] = arc.from;
    residual_[backward] = 0.0;
    reverse_[backward] = forward;
  }
  capacity_ = residual_;
  built_ = true;
}

void MaxFlow::resetTrees() {
  const auto nodes = source_.size();
  for (std::size_t i = 0; i < nodes; ++i) terminal_[i] = source_[i] - sink_[i];
  tree_.assign(nodes, kFree);
  parent_.assign(nodes, kNoParent);
  stamp_.assign(nodes, 0);
  distance_.assign(nodes, 0);
  queued_.assign(nodes, 0);
  active_.clear();
  orphans_.clear();
  time_ = 0;
}

void MaxFlow::activate(Node node) {
  if (queued_[static_cast<std::size_t>(node)]) return;
  queued_[static_cast<std::size_t>(node)] = 1;
  active_.push_back(node);
}

// Pushes flow along every two-arc path source -> i -> j -> sink before the trees grow: these
// networks give most nodes a terminal arc, so most of the flow takes such a path, and pushing it
// directly leaves the trees far less to route.
void MaxFlow::pushShortPaths() {
  for (Node i = 0; i < numNodes(); ++i) {
    const auto n = static_cast<std::size_t>(i);
    for (std::int64_t a = firstArc_[n]; a < firstArc_[n + 1] && terminal_[n] > kSpent; ++a) {
      const auto j = static_cast<std::size_t>(head_[a]);
      if (terminal_[j] >= -kSpent || residual_[a] <= kSpent) continue;
      const double push = std::min({terminal_[n], -terminal_[j], residual_[a]});
      terminal_[n] -= push;
      terminal_[j] += push;
      residual_[a] -= push;
      residual_[reverse_[a]] += push;
    }
  }
}

bool MaxFlow::run(const std::function<bool()>& stop) {
  build();
  pushShortPaths();
  for (Node i = 0; i < numNodes(); ++i) {
    const double terminal = terminal_[static_cast<std::size_t>(i)];
    if (terminal == 0.0) continue;
    tree_[static_cast<std::size_t>(i)] = terminal > 0.0 ? kSourceTree : kSinkTree;
    parent_[static_cast<std::size_t>(i)] = kTerminalParent;
    distance_[static_cast<std::size_t>(i)] = 1;
    activate(i);
  }
  std::size_t next = 0;
  Node current = -1;  // an active node that met the other tree stays in front
  std::int64_t augmentations = 0;
  while (true) {
    Node node = -1;
    if (current >= 0 && tree_[static_cast<std::size_t>(current)] != kFree) {
      node = current;
    } else {
      current = -1;
      while (next < active_.size()) {
        const Node candidate = active_[next++];
        queued_[static_cast<std::size_t>(candidate)] = 0;
        if (tree_[static_cast<std::size_t>(candidate)] != kFree) {
          node = candidate;
          break;
        }
      }
      // The queue's consumed front is dropped once it is the larger half.
      if (next > 65536 && 2 * next > active_.size()) {
        active_.erase(active_.begin(), active_.begin() + static_cast<std::ptrdiff_t>(next));
        next = 0;
      }
    }
    if (node < 0) return true;
    ++time_;
    const std::int64_t meeting = grow(node);
    if (meeting < 0) {
      current = -1;
      continue;
    }
    current = node;
    augment(meeting);
    adoptOrphans();
    ++augmentations;
    if (stop && augmentations % kStopInterval == 0 && stop()) return false;
  }
}

// Grows `node`'s tree by its free neighbours; returns the arc (source tree to sink tree) where
// it meets the other tree, or -1.
std::int64_t MaxFlow::grow(Node node) {
  const auto i = static_cast<std::size_t>(node);
  const bool fromSource = tree_[i] == kSourceTree;
  for (std::int64_t a = firstArc_[i]; a < firstArc_[i + 1]; ++a) {
    // The source tree grows along arcs out of the node, the sink tree along arcs into it.
    const std::int64_t along = fromSource ? a : reverse_[a];
    if (residual_[along] <= kSpent) continue;
    const Node neighbour = head_[a];
    const auto j = static_cast<std::size_t>(neighbour);
    if (tree_[j] == kFree) {
      tree_[j] = tree_[i];
      parent_[j] = reverse_[a];
      stamp_[j] = stamp_[i];
      distance_[j] = distance_[i] + 1;
      activate(neighbour);
    } else if (tree_[j] != tree_[i]) {
      return fromSource ? a : reverse_[a];
    } else if (stamp_[j] <= stamp_[i] && distance_[j] > distance_[i]) {
      // A shorter way to its terminal through this node (the paper's distance heuristic).
      parent_[j] = reverse_[a];
      stamp_[j] = stamp_[i];
      distance_[j] = distance_[i] + 1;
    }
  }
  return -1;
}

// Pushes the bottleneck along terminal -> ... -> tail(meeting) -> head(meeting) -> ... -> sink.
void MaxFlow::augment(std::int64_t meeting) {
  const Node tail = head_[reverse_[meeting]];
  const Node head = head_[meeting];
  double bottleneck = residual_[meeting];
  for (Node i = tail;;) {
    const std::int64_t up = parent_[static_cast<std::size_t>(i)];
    if (up == kTerminalParent) {
      bottleneck = std::min(bottleneck, terminal_[static_cast<std::size_t>(i)]);
      break;
    }
    bottleneck = std::min(bottleneck, residual_[reverse_[up]]);  // parent -> i
    i = head_[up];
  }
  for (Node i = head;;) {
    const std::int64_t up = parent_[static_cast<std::size_t>(i)];
    if (up == kTerminalParent) {
      bottleneck = std::min(bottleneck, -terminal_[static_cast<std::size_t>(i)]);
      break;
    }
    bottleneck = std::min(bottleneck, residual_[up]);  // i -> parent
    i = head_[up];
  }
  residual_[meeting] -= bottleneck;
  residual_[reverse_[meeting]] += bottleneck;
  for (Node i = tail;;) {
    const auto n = static_cast<std::size_t>(i);
    const std::int64_t up = parent_[n];
    if (up == kTerminalParent) {
      terminal_[n] -= bottleneck;
      if (terminal_[n] <= kSpent) makeOrphan(i);
      break;
    }
    residual_[reverse_[up]] -= bottleneck;
    residual_[up] += bottleneck;
    const Node parent = head_[up];
    if (residual_[reverse_[up]] <= kSpent) makeOrphan(i);
    i = parent;
  }
  for (Node i = head;;) {
    const auto n = static_cast<std::size_t>(i);
    const std::int64_t up = parent_[n];
    if (up == kTerminalParent) {
      terminal_[n] += bottleneck;
      if (terminal_[n] >= -kSpent) makeOrphan(i);
      break;
    }
    residual_[up] -= bottleneck;
    residual_[reverse_[up]] += bottleneck;
    const Node parent = head_[up];
    if (residual_[up] <= kSpent) makeOrphan(i);
    i = parent;
  }
}

void MaxFlow::makeOrphan(Node node) {
  parent_[static_cast<std::size_t>(node)] = kNoParent;
  orphans_.push_back(node);
}

// Whether `node`'s chain of parents reaches a terminal; `distance` gets its length. Chains met
// earlier in this adoption (stamped with time_) end the walk early, and the walk stamps its own.
bool MaxFlow::hasValidOrigin(Node node, std::int32_t& distance) {
  std::int32_t steps = 0;
  Node i = node;
  while (true) {
    const auto n = static_cast<std::size_t>(i);
    if (stamp_[n] == time_) {
      steps += distance_[n];
      break;
    }
    const std::int64_t up = parent_[n];
    ++steps;
    if (up == kTerminalParent) {
      stamp_[n] = time_;
      distance_[n] = 1;
      break;
    }
    if (up == kNoParent) return false;
    i = head_[up];
  }
  distance = steps;
  for (Node j = node; stamp_[static_cast<std::size_t>(j)] != time_;
       j = head_[parent_[static_cast<std::size_t>(j)]]) {
    stamp_[static_cast<std::size_t>(j)] = time_;
    distance_[static_cast<std::size_t>(j)] = steps--;
  }
  return true;
}

// Each orphan takes the nearest neighbour of its tree that still reaches the terminal through an
// arc with residual capacity toward it; one that finds none is freed, its children become orphans
// and its neighbours that could take it later become active.
void MaxFlow::adoptOrphans() {
  while (!orphans_.empty()) {
    const Node orphan = orphans_.back();
    orphans_.pop_back();
    const auto o = static_cast<std::size_t>(orphan);
    const std::int8_t tree = tree_[o];
    std::int64_t bestArc = kNoParent;
    std::int32_t bestDistance = std::numeric_limits<std::int32_t>::max();
    for (std::int64_t a = firstArc_[o]; a < firstArc_[o + 1]; ++a) {
      const Node neighbour = head_[a];
      if (tree_[static_cast<std::size_t>(neighbour)] != tree) continue;
      // Source tree: flow comes from the neighbour (arc neighbour -> orphan); sink tree: it goes
      // to the neighbour.
      const double toward = tree == kSourceTree ? residual_[reverse_[a]] : residual_[a];
      if (toward <= kSpent) continue;
      std::int32_t distance = 0;
      if (hasValidOrigin(neighbour, distance) && distance < bestDistance) {
        bestDistance = distance;
        bestArc = a;
      }
    }
    if (bestArc != kNoParent) {
      parent_[o] = bestArc;
      stamp_[o] = time_;
      distance_[o] = bestDistance + 1;
      continue;
    }
    for (std::int64_t a = firstArc_[o]; a < firstArc_[o + 1]; ++a) {
      const Node neighbour = head_[a];
      const auto n = static_cast<std::size_t>(neighbour);
      if (tree_[n] != tree) continue;
      const double toward = tree == kSourceTree ? residual_[reverse_[a]] : residual_[a];
      if (toward > kSpent) activate(neighbour);
      const std::int64_t up = parent_[n];
      if (up >= 0 && head_[up] == orphan) makeOrphan(neighbour);
    }
    tree_[o] = kFree;
  }
}

double MaxFlow::lowerBound() const {
  // For any flow f on the inner arcs (0 <= f <= capacity), with phi_i the net inner outflow of
  // node i: sum_i min(S_i, K_i + phi_i) <= the capacity of every cut (A, B), since the terms of
  // A are at most K_i + phi_i, those of B at most S_i, and the sum over A of phi_i is the net
  // inner flow out of A, at most the capacity of the inner arcs cut. No conservation is assumed:
  // the bound holds for whatever the residuals say, rounding included.
  std::vector<double> outflow(source_.size(), 0.0);
  if (!firstArc_.empty()) {
    // The forward slots in the order build() laid them out; a forward slot's flow is its
    // reverse's residual (reverse slots start empty).
    std::vector<std::int64_t> fill(firstArc_.begin(), firstArc_.end() - 1);
    for (const Arc& arc : arcs_) {
      const std::int64_t forward = fill[static_cast<std::size_t>(arc.from)]++;
      ++fill[static_cast<std::size_t>(arc.to)];
      const double flow = std::clamp(residual_[reverse_[forward]], 0.0, arc.capacity);
      outflow[static_cast<std::size_t>(arc.from)] += flow;
      outflow[static_cast<std::size_t>(arc.to)] -= flow;
    }
  }
  double bound = 0.0;
  for (std::size_t i = 0; i < source_.size(); ++i) {
    bound += std::min(source_[i], sink_[i] + outflow[i]);
  }
  return bound;
}

}  // namespace gaus::live_memory
