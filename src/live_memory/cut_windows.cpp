// Windows around the peak re-placed by minimum cuts (include/gaus/live_memory/cut_windows.hpp).
//
// One window [low, high) around a cluster [from, to) of peak cycles: the ops starting in it move
// within the ranges their fixed neighbours leave (PeakNeighbourhoods::movingOps), every other op
// is fixed, and only the live memory of the window's cycles can change (a moving op has started
// before any later cycle and not before any earlier one; the values of fixed ops read by moving
// ops change only inside the window too). The window's time-expanded network with those ranges
// is exact: its cut for weights lambda is the least weighted live memory over every placement.
// The cutting-plane search of the Lagrangian bound (lagrangian_bound.cpp) runs on it, with the
// current placement as the first plane; every cut's placement whose window stays below the peak
// (or at it on fewer cycles) is offered to the schedule, and the first one kept ends the window.
// A cut whose bound, rounded, reaches the peak proves that no placement of the window goes below
// it: the window is hopeless, and remembered as such until its neighbourhood changes.

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <unordered_set>

#include <gaus/live_memory/cut_windows.hpp>
#include <gaus/live_memory/neighbourhood.hpp>

#include "cutting_planes.hpp"
#include "time_expanded_network.hpp"

namespace gaus::live_memory {

namespace {

constexpr double kTolerance = 1e-9;

std::uint64_t mix(std::uint64_t hash, std::uint64_t value) {
  return (hash ^ (value + 0x9E3779B97F4A7C15ULL + (hash << 6) + (hash >> 2))) * 1099511628211ULL;
}

std::int64_t cyclesAt(std::span<const double> profile, double level) {
  return std::count_if(profile.begin(), profile.end(), [level](double value) {
    return std::abs(value - level) <= kTolerance * std::max(1.0, level);
  });
}

}  // namespace

class CutWindowSearch::Search {
 public:
  Search(std::shared_ptr<const ProblemFacts> facts, const Schedule& legal, CutWindowOptions options)
      : neighbourhoods_(std::move(facts), legal), options_(std::move(options)) {
    integral_ = true;
    const Graph& graph = neighbourhoods_.graph();
    for (OpId op = 0; op < graph.numOps(); ++op) {
      integral_ = integral_ && graph.mem(op) == std::floor(graph.mem(op));
    }
  }

  void restart(const Schedule& legal) { neighbourhoods_.reset(legal); }

  bool run(const std::function<bool()>& stop) {
    return neighbourhoods_.runPasses(
        options_.margins, stop,
        [&](Cycle from, Cycle to, Cycle margin) { return lowerWindow(from, to, margin, stop); });
  }

  const Schedule& schedule() const { return neighbourhoods_.schedule(); }
  double peak() const { return neighbourhoods_.peak(); }
  const CutWindowFigures& figures() const { return figures_; }

 private:
  bool lowerWindow(Cycle from, Cycle to, Cycle margin, const std::function<bool()>& stop) {
    const Graph& graph = neighbourhoods_.graph();
    const Cycle low = std::max<Cycle>(0, from - margin);
    const Cycle high = std::min<Cycle>(neighbourhoods_.horizon(), to + margin);
    if (high <= low) return false;
    const std::vector<MovingStart> moving =
        neighbourhoods_.movingOps(low, high, options_.maxWindowOps);
    if (moving.empty()) return false;
    const std::span<const double> current(neighbourhoods_.profile().data() + low,
                                          static_cast<std::size_t>(high - low));
    const std::uint64_t fingerprint = fingerprintOf(low, high, moving, current);
    if (hopeless_.count(fingerprint) != 0) return false;

    const std::vector<Cycle>& start = neighbourhoods_.schedule().start;
    std::vector<StartRange> ranges(static_cast<std::size_t>(graph.numOps()));
    for (OpId op = 0; op < graph.numOps(); ++op) ranges[op] = {start[op], start[op]};
    for (const MovingStart& u : moving) ranges[u.op] = {u.earliest, u.latest};
    TimeExpandedNetwork network(graph, ranges, low, high - 1);
    ++figures_.windows;

    const double peak = neighbourhoods_.peak();
    const double atPeak = peak - kTolerance * std::max(1.0, peak);
    const std::int64_t currentAtPeak = cyclesAt(current, peak);
    CuttingPlanes planes(network, {std::vector<double>(current.begin(), current.end())}, integral_);
    while (planes.cuts() < options_.maxCutsPerWindow) {
      if (stop && stop()) return false;
      const auto cut = planes.next(stop);
      if (!cut) break;  // the planes meet the bound: no cut brings a placement the others did not
      ++figures_.cuts;
      if (!cut->complete) return false;
      if (planes.round(*planes.bound()) >= atPeak) {
        // Every placement keeps some cycle of the window at the peak or above.
        ++figures_.hopeless;
        hopeless_.insert(fingerprint);
        return false;
      }
      const double windowPeak = *std::max_element(cut->profile.begin(), cut->profile.end());
      const bool lower =
          windowPeak < atPeak || (windowPeak <= peak + kTolerance * std::max(1.0, peak) &&
                                  cyclesAt(cut->profile, peak) < currentAtPeak);
      if (lower && neighbourhoods_.offer(network.starts(), moving)) {
        ++figures_.improvements;
        return true;
      }
    }
    return false;
  }

  // What decides a window's search: its cycles, its moving ops and their ranges, and the live
  // memory its cycles hold now.
  static std::uint64_t fingerprintOf(Cycle low, Cycle high, const std::vector<MovingStart>& moving,
                                     std::span<const double> current) {
    std::uint64_t hash = mix(mix(1469598103934665603ULL, static_cast<std::uint64_t>(low)),
                             static_cast<std::uint64_t>(high));
    for (const MovingStart& u : moving) {
      hash = mix(
          mix(mix(hash, static_cast<std::uint64_t>(u.op)), static_cast<std::uint64_t>(u.earliest)),
          static_cast<std::uint64_t>(u.latest));
    }
    for (const double value : current) hash = mix(hash, std::hash<double>{}(value));
    return hash;
  }

  PeakNeighbourhoods neighbourhoods_;
  CutWindowOptions options_;
  bool integral_ = true;
  std::unordered_set<std::uint64_t> hopeless_;
  CutWindowFigures figures_;
};

CutWindowSearch::CutWindowSearch(const Graph& graph, Cycle horizon, const Schedule& legal,
                                 CutWindowOptions options)
    : CutWindowSearch(graphFacts(graph, horizon), legal, std::move(options)) {}

CutWindowSearch::CutWindowSearch(std::shared_ptr<const ProblemFacts> facts, const Schedule& legal,
                                 CutWindowOptions options)
    : search_(std::make_unique<Search>(std::move(facts), legal, std::move(options))) {}

CutWindowSearch::~CutWindowSearch() = default;

void CutWindowSearch::restart(const Schedule& legal) {
  search_->restart(legal);
}

bool CutWindowSearch::run(const std::function<bool()>& stop) {
  return search_->run(stop);
}

const Schedule& CutWindowSearch::schedule() const {
  return search_->schedule();
}

double CutWindowSearch::peak() const {
  return search_->peak();
}

const CutWindowFigures& CutWindowSearch::figures() const {
  return search_->figures();
}

}  // namespace gaus::live_memory
