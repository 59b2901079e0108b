// The one maximum-flow solver of formulation B's bounds and windows: the per-cycle cuts
// (cut_bound.cpp) and the time-expanded networks of the Lagrangian bound and its windows
// (time_expanded_network.hpp). Y. Boykov and V. Kolmogorov, "An Experimental Comparison of
// Min-Cut/Max-Flow Algorithms for Energy Minimization in Vision", IEEE TPAMI 26(9), 2004: two
// search trees, one grown from the source and one from the sink, augmenting where they meet,
// with the trees kept (orphans re-adopted) instead of rebuilt after each augmentation.
//
// Why this one: these networks give nearly every node a terminal arc (a value charged when its op
// has started, or a reader charged when it has not), so most augmenting paths are two or three
// arcs long, which is what the two trees find without a breadth-first pass over the whole
// network per phase. docs/benchmarks.md ("The max-flow of formulation B's bounds") has it
// measured against the Dinic code it replaced and against LEMON's preflow.
//
// Departures from the paper: the terminal arcs of a node are netted into one residual (source
// minus sink, as the paper's implementation does), and the flow value reported is recomputed
// from the arcs' flows by weak duality (lowerBound), so that a cut found by a search stopped
// early, or rounding in the residuals, never yields a bound above the min cut.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace gaus::live_memory {

class MaxFlow {
 public:
  using Node = std::int32_t;

  // Forgets the network: no nodes, no arcs.
  void clear();
  Node addNode();
  Node numNodes() const { return static_cast<Node>(source_.size()); }
  // Capacities of the arcs source -> node and node -> sink (added to what the node has).
  void addTerminal(Node node, double fromSource, double toSink);
  // Replaces them: the inner arcs stay, so that a network solved for many terminal weights (the
  // Lagrangian bound's) is laid out once.
  void setTerminal(Node node, double fromSource, double toSink);
  // An arc from -> to of the given capacity (infinite: kInfinite); nothing flows back.
  void addArc(Node from, Node to, double capacity);
  static constexpr double kInfinite = 1e300;

  // Pushes flow until no augmenting path is left, or `stop` answers true (asked every few
  // thousand augmentations). Returns whether it finished; after a finished run sourceSide() is a
  // minimum cut. Can be called again after setTerminal: it starts from no flow.
  bool run(const std::function<bool()>& stop = {});
  // A lower bound on the min cut from the flow found (its value when run() finished): every
  // node's source inflow that the flow can use, by weak duality, so that it holds after a stopped
  // run too.
  double lowerBound() const;
  // The node is on the source side of the cut: reachable from the source in the residual
  // network (the source tree when run() finished).
  bool sourceSide(Node node) const { return tree_[static_cast<std::size_t>(node)] == kSourceTree; }

 private:
  static constexpr std::int8_t kFree = 0;
  static constexpr std::int8_t kSourceTree = 1;
  static constexpr std::int8_t kSinkTree = 2;
  static constexpr std::int64_t kNoParent = -1;
  static constexpr std::int64_t kTerminalParent = -2;

  struct Arc {
    Node from;
    Node to;
    double capacity;
  };

  void build();
  void layOut();
  void resetTrees();
  void pushShortPaths();
  void activate(Node node);
  std::int64_t grow(Node node);
  void augment(std::int64_t meeting);
  void makeOrphan(Node node);
  void adoptOrphans();
  bool hasValidOrigin(Node node, std::int32_t& distance);

  std::vector<double> source_;  // per node, as given
  std::vector<double> sink_;
  std::vector<Arc> arcs_;

  // The residual network (compressed sparse rows, each arc beside its reverse).
  std::vector<std::int64_t> firstArc_;
  std::vector<Node> head_;
  std::vector<std::int64_t> reverse_;
  std::vector<double> residual_;
  std::vector<double> capacity_;  // per slot, as built (0 for reverse slots)
  bool built_ = false;
  std::vector<double> terminal_;  // netted residual: > 0 from the source, < 0 to the sink
  // Per node: tree, the arc to its parent (from the node), and the distance heuristic's marks.
  std::vector<std::int8_t> tree_;
  std::vector<std::int64_t> parent_;
  std::vector<std::int64_t> stamp_;
  std::vector<std::int32_t> distance_;
  std::int64_t time_ = 0;
  std::vector<Node> active_;
  std::vector<char> queued_;
  std::vector<Node> orphans_;
};

}  // namespace gaus::live_memory
