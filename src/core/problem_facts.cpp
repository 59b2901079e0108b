#include <gaus/core/problem_facts.hpp>

namespace gaus {

ProblemFacts::ProblemFacts(std::shared_ptr<const Graph> graph,
                           std::shared_ptr<const Machine> machine, std::optional<Cycle> horizon)
    : graph_(std::move(graph)), machine_(std::move(machine)), horizon_(horizon) {}

bool ProblemFacts::describe(const Problem& problem) const {
  return problem.graph == graph_ && problem.machine == machine_ && problem.horizon == horizon_;
}

const Expected<std::vector<OpId>>& ProblemFacts::order() const {
  std::call_once(orderOnce_, [this] {
    order_.emplace(topologicalOrder(*graph_));
    if (*order_) {
      asap_ = asapTimes(*graph_, **order_);
      criticalPath_ = criticalPathLength(*graph_, asap_);
    }
  });
  return *order_;
}

const std::vector<Cycle>& ProblemFacts::asap() const {
  order();
  return asap_;
}

Cycle ProblemFacts::criticalPath() const {
  order();
  return criticalPath_;
}

const Expected<std::vector<Cycle>>& ProblemFacts::alap() const {
  std::call_once(alapOnce_, [this] {
    const auto& topo = order();
    if (!topo) {
      alap_.emplace(Error{topo.error()});
    } else if (!horizon_) {
      alap_.emplace(Error{"no horizon D: the latest starts are measured from one"});
    } else {
      alap_.emplace(alapTimes(*graph_, *topo, *horizon_));
    }
  });
  return *alap_;
}

const ResMii& ProblemFacts::resMii() const {
  std::call_once(resMiiOnce_, [this] { resMii_ = computeResMii(*graph_, *machine_); });
  return resMii_;
}

const RecMii& ProblemFacts::recMii() const {
  std::call_once(recMiiOnce_, [this] { recMii_ = computeRecMii(*graph_); });
  return recMii_;
}

const MiiBound& ProblemFacts::mii() const {
  std::call_once(miiOnce_, [this] { mii_ = miiBound(*graph_, *machine_, resMii(), recMii()); });
  return mii_;
}

bool ProblemFacts::usesLimitedResource() const {
  std::call_once(flagsOnce_, [this] {
    usesLimitedResource_ = gaus::usesLimitedResource(*graph_, *machine_);
    hasLiveMemory_ = gaus::hasLiveMemory(*graph_);
  });
  return usesLimitedResource_;
}

bool ProblemFacts::hasLiveMemory() const {
  usesLimitedResource();
  return hasLiveMemory_;
}

std::shared_ptr<const ProblemFacts> Problem::facts() const {
  if (posedFacts && posedFacts->describe(*this)) return posedFacts;
  return std::make_shared<const ProblemFacts>(graph, machine, horizon);
}

Problem withFacts(Problem problem) {
  if (!problem.posedFacts || !problem.posedFacts->describe(problem)) {
    problem.posedFacts =
        std::make_shared<const ProblemFacts>(problem.graph, problem.machine, problem.horizon);
  }
  return problem;
}

std::shared_ptr<const ProblemFacts> graphFacts(const Graph& graph, std::optional<Cycle> horizon) {
  // Non-owning pointers (the aliasing constructor with no owner): the caller keeps the graph.
  static const Machine kNoResources;
  return std::make_shared<const ProblemFacts>(
      std::shared_ptr<const Graph>(std::shared_ptr<const void>(), &graph),
      std::shared_ptr<const Machine>(std::shared_ptr<const void>(), &kNoResources), horizon);
}

}  // namespace gaus
