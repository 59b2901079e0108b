// The Lagrangian bound on peak live memory over windows of cycles
// (include/gaus/live_memory/lagrangian_bound.hpp).
//
// The argument. For weights lambda_t >= 0 with sum 1 over a window W of cycles, every schedule s
// within the horizon has peak(s) >= sum_{t in W} lambda_t live_s(t), so
//   peak* >= LB(lambda) = min over schedules of sum_t lambda_t live(t),
// and LB(lambda) is one minimum cut of the window's time-expanded network
// (time_expanded_network.hpp; dropping the constraints that reach outside W only lowers it).
// LB is concave in lambda; its maximum over the simplex is the Lagrangian dual of the window's
// time-indexed model, equal to that model's LP relaxation, which the per-cycle cut (lambda at
// one cycle) bounds from below. Möhring, Schulz, Stork and Uetz (Management Science 49(3), 2003)
// compute such bounds for project scheduling the same way.
//
// The search for lambda is Kelley's cutting-plane method with Wentges' smoothing: each minimum
// cut gives a schedule whose live profile g on W is a plane, LB(lambda) <= lambda . g for every
// lambda; the master problem max over lambda of min over the planes (matrix_game.hpp) gives an
// upper estimate of the dual and the next lambda, queried halfway between it and the best lambda
// so far (which damps the method's oscillation). Every lambda queried gives a valid bound, so
// the search can stop at any time; it stops when the estimate meets the bound (after rounding,
// for whole mems), when the estimate shows the window cannot beat the best bound so far, or at
// the cut limit.
//
// Where to look: a window's bound is at most the peak any known schedule keeps in it (the ASAP
// and ALAP schedules, and those the caller gives), so a window where one of them is not above the
// bound so far is skipped; windows are centred on the cycles where every known schedule is
// highest first. Narrow windows first (a cut costs about the window's width times the ops free in
// it), then the best one widened while that raises it.

#include <algorithm>
#include <cmath>
#include <numeric>

#include <gaus/core/analysis.hpp>
#include <gaus/live_memory/lagrangian_bound.hpp>

#include "live_profile.hpp"
#include "matrix_game.hpp"
#include "time_expanded_network.hpp"

namespace gaus::live_memory {

namespace {

class WindowSearch {
 public:
  WindowSearch(const Graph& graph, std::span<const StartRange> ranges,
               const std::vector<std::vector<double>>& knownProfiles, bool integral,
               const LagrangianBoundOptions& options)
      : graph_(graph),
        ranges_(ranges),
        knownProfiles_(knownProfiles),
        integral_(integral),
        options_(options) {}

  // The rounded bound of the window [first, last]; `best` is the bound to beat (a window whose
  // estimate falls to it is left). `cuts` counts the minimum cuts; `complete` turns false when
  // the caller's stop ended the search.
  double search(Cycle first, Cycle last, double best, int& cuts, bool& complete) {
    TimeExpandedNetwork network(graph_, ranges_, first, last);
    const int width = network.cycles();
    std::vector<std::vector<double>> planes;
    for (const auto& profile : knownProfiles_) {
      planes.emplace_back(profile.begin() + first, profile.begin() + last + 1);
    }
    double bound = 0.0;
    std::vector<double> bestWeights(static_cast<std::size_t>(width), 1.0 / width);
    bool haveBound = false;
    for (int k = 0; k < options_.maxCutsPerWindow; ++k) {
      const MatrixGame master = solveMatrixGame(planes, width);
      const double estimate = master.value;
      if (haveBound && (round(estimate) <= round(bound) || round(estimate) <= best ||
                        estimate <= bound + 1e-9 * std::max(1.0, std::abs(bound)))) {
        break;
      }
      std::vector<double> query = master.weights;
      if (haveBound) {
        for (std::size_t t = 0; t < query.size(); ++t) query[t] = 0.5 * (query[t] + bestWeights[t]);
      }
      const double total = std::accumulate(query.begin(), query.end(), 0.0);
      if (total <= 0.0) break;
      TimeExpandedNetwork::Cut cut = network.solve(query, options_.stop);
      ++cuts;
      const double value = cut.bound / total;
      if (!haveBound || value > bound) {
        bound = value;
        bestWeights = query;
        haveBound = true;
      }
      if (!cut.complete || (options_.stop && options_.stop())) {
        complete = false;
        break;
      }
      if (options_.stopAt && round(bound) >= *options_.stopAt) break;
      planes.push_back(std::move(cut.profile));
    }
    return haveBound ? round(bound) : 0.0;
  }

  // Live memory is an integer where every mem is: a bound of 30.2 is a bound of 31. The
  // allowance absorbs the rounding of the flow's sums.
  double round(double value) const {
    return integral_ ? std::ceil(value - 1e-6 * std::max(1.0, std::abs(value))) : value;
  }

 private:
  const Graph& graph_;
  std::span<const StartRange> ranges_;
  const std::vector<std::vector<double>>& knownProfiles_;
  bool integral_;
  const LagrangianBoundOptions& options_;
};

// The window of `width` cycles around `centre`, within [0, horizon).
std::pair<Cycle, Cycle> windowAround(Cycle centre, Cycle width, Cycle horizon) {
  const Cycle first = std::clamp<Cycle>(centre - width / 2, 0, std::max<Cycle>(0, horizon - width));
  return {first, std::min(horizon - 1, first + width - 1)};
}

// The least peak a known schedule keeps in [first, last]: no window bound exceeds it.
double knownPeak(const std::vector<std::vector<double>>& profiles, Cycle first, Cycle last) {
  double least = std::numeric_limits<double>::infinity();
  for (const auto& profile : profiles) {
    least = std::min(least, *std::max_element(profile.begin() + first, profile.begin() + last + 1));
  }
  return least;
}

}  // namespace

Expected<LagrangianBound> lagrangianBound(const Graph& graph, Cycle horizon, double floor,
                                          const LagrangianBoundOptions& options) {
  auto order = topologicalOrder(graph);
  if (!order) return Error{order.error()};
  const std::vector<Cycle> asap = asapTimes(graph, *order);
  auto alap = alapTimes(graph, *order, horizon);
  if (!alap) return Error{alap.error()};
  LagrangianBound result;
  result.value = floor;
  if (horizon <= 0) return result;
  std::vector<StartRange> ranges(static_cast<std::size_t>(graph.numOps()));
  bool integral = true;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    ranges[op] = {asap[op], (*alap)[op]};
    integral = integral && graph.mem(op) == std::floor(graph.mem(op));
  }
  std::vector<std::vector<double>> profiles = {liveProfile(graph, asap, horizon),
                                               liveProfile(graph, *alap, horizon)};
  for (const auto schedule : options.schedules)
    profiles.push_back(liveProfile(graph, schedule, horizon));
  std::vector<double> ceiling(static_cast<std::size_t>(horizon));
  for (Cycle t = 0; t < horizon; ++t) {
    ceiling[t] = std::numeric_limits<double>::infinity();
    for (const auto& profile : profiles) ceiling[t] = std::min(ceiling[t], profile[t]);
  }
  std::vector<Cycle> centres(static_cast<std::size_t>(horizon));
  std::iota(centres.begin(), centres.end(), Cycle{0});
  std::stable_sort(centres.begin(), centres.end(),
                   [&](Cycle a, Cycle b) { return ceiling[a] > ceiling[b]; });

  WindowSearch search(graph, ranges, profiles, integral, options);
  bool stopped = false;
  const auto reached = [&] { return options.stopAt && result.value >= *options.stopAt; };
  const auto tryWindow = [&](Cycle first, Cycle last) {
    if (knownPeak(profiles, first, last) <= result.value) return false;
    bool complete = true;
    const double value = search.search(first, last, result.value, result.cuts, complete);
    ++result.windows;
    stopped = stopped || !complete;
    if (value <= result.value) return false;
    result.value = value;
    result.first = first;
    result.last = last;
    return true;
  };

  // Narrow windows on the highest cycles, each cycle in one window at most.
  const Cycle narrow = std::min(horizon, std::max<Cycle>(1, options.firstWindow));
  std::vector<char> covered(static_cast<std::size_t>(horizon), 0);
  std::optional<Cycle> bestCentre;
  for (const Cycle centre : centres) {
    if (stopped || reached()) break;
    if (covered[centre]) continue;
    const auto [first, last] = windowAround(centre, narrow, horizon);
    for (Cycle t = first; t <= last; ++t) covered[t] = 1;
    if (tryWindow(first, last)) bestCentre = centre;
  }
  // The best window widened while that raises the bound.
  for (Cycle width = 2 * narrow; bestCentre && !stopped && !reached(); width *= 2) {
    const Cycle clamped = std::min({width, horizon, std::max(narrow, options.maxWindow)});
    const auto [first, last] = windowAround(*bestCentre, clamped, horizon);
    const bool raised = tryWindow(first, last);
    if (!raised || clamped == horizon || clamped == options.maxWindow) break;
  }
  result.complete = !stopped;
  return result;
}

}  // namespace gaus::live_memory
