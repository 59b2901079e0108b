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
#include <random>

#include <gaus/core/analysis.hpp>
#include <gaus/live_memory/lagrangian_bound.hpp>

#include "cutting_planes.hpp"
#include "live_profile.hpp"
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
    std::vector<std::vector<double>> known;
    for (const auto& profile : knownProfiles_) {
      known.emplace_back(profile.begin() + first, profile.begin() + last + 1);
    }
    CuttingPlanes planes(network, std::move(known), integral_);
    while (planes.cuts() < options_.maxCutsPerWindow) {
      const auto cut = planes.next(options_.stop);
      if (!cut) break;
      ++cuts;
      if (!cut->complete || (options_.stop && options_.stop())) {
        complete = false;
        break;
      }
      const double bound = planes.round(*planes.bound());
      if (options_.stopAt && bound >= *options_.stopAt) break;
      // The estimate bounds what this window can still reach.
      if (planes.round(planes.estimate()) <= best) break;
    }
    return planes.bound() ? planes.round(*planes.bound()) : 0.0;
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
  return lagrangianBound(*graphFacts(graph, horizon), floor, options);
}

Expected<LagrangianBound> lagrangianBound(const ProblemFacts& facts, double floor,
                                          const LagrangianBoundOptions& options) {
  const auto& alap = facts.alap();
  if (!alap) return Error{alap.error()};
  const Graph& graph = facts.graph();
  const Cycle horizon = *facts.horizon();
  const std::vector<Cycle>& asap = facts.asap();
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
    if (options.progress) options.progress(result);
    if (value <= result.value) return false;
    result.value = value;
    result.first = first;
    result.last = last;
    if (options.progress) options.progress(result);
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
  for (Cycle width = 2 * narrow; bestCentre && narrow < horizon && !stopped && !reached();
       width *= 2) {
    const Cycle clamped = std::min({width, horizon, std::max(narrow, options.maxWindow)});
    const auto [first, last] = windowAround(*bestCentre, clamped, horizon);
    const bool raised = tryWindow(first, last);
    if (!raised || clamped == horizon || clamped == options.maxWindow) break;
  }
  result.complete = !stopped;
  return result;
}

Expected<std::optional<LagrangianStart>> lagrangianStart(const Graph& graph, Cycle horizon,
                                                         const LagrangianStartOptions& options) {
  return lagrangianStart(*graphFacts(graph, horizon), options);
}

Expected<std::optional<LagrangianStart>> lagrangianStart(const ProblemFacts& facts,
                                                         const LagrangianStartOptions& options) {
  const auto& alap = facts.alap();
  if (!alap) return Error{alap.error()};
  const Graph& graph = facts.graph();
  const Cycle horizon = *facts.horizon();
  const std::vector<Cycle>& asap = facts.asap();
  if (horizon <= 0 || horizon > options.maxCycles) return std::optional<LagrangianStart>{};
  // The network's size before it is built: the ops' slack, and a last reader's per value.
  std::int64_t nodes = 0;
  std::vector<StartRange> ranges(static_cast<std::size_t>(graph.numOps()));
  bool integral = true;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    ranges[op] = {asap[op], (*alap)[op]};
    nodes += (*alap)[op] - asap[op];
    integral = integral && graph.mem(op) == std::floor(graph.mem(op));
    Cycle earliest = 0;
    Cycle latest = 0;
    std::int32_t readers = 0;
    for (const EdgeId e : graph.outEdges(op)) {
      if (graph.edgeDistance(e) != 0) continue;
      earliest = std::max(earliest, asap[graph.edgeTarget(e)]);
      latest = std::max(latest, (*alap)[graph.edgeTarget(e)]);
      ++readers;
    }
    if (readers > 1) nodes += latest - earliest;
  }
  if (nodes > options.maxNodes) return std::optional<LagrangianStart>{};
  TimeExpandedNetwork network(graph, ranges, 0, horizon - 1);
  // No known plane: the first cut minimizes the total live memory, a smooth schedule that is
  // the best start on several circuits (adder: 7 where the list schedule has 382).
  CuttingPlanes planes(network, {}, integral);
  std::optional<LagrangianStart> best;
  std::int64_t bestAtPeak = 0;
  const auto consider = [&](const TimeExpandedNetwork::Cut& cut) {
    const double peak = *std::max_element(cut.profile.begin(), cut.profile.end());
    const auto atPeak = std::count_if(cut.profile.begin(), cut.profile.end(), [peak](double v) {
      return std::abs(v - peak) <= 1e-9 * std::max(1.0, peak);
    });
    if (!best || peak < best->peak - 1e-9 * std::max(1.0, peak) ||
        (peak <= best->peak + 1e-9 * std::max(1.0, peak) && atPeak < bestAtPeak)) {
      best = LagrangianStart{network.starts(), peak, 0.0, 0};
      bestAtPeak = atPeak;
    }
  };
  // A schedule at the bound is optimal: nothing better can come.
  const auto done = [&] { return best && planes.round(*planes.bound()) >= best->peak; };
  while (planes.cuts() < options.maxCuts && !done()) {
    if (options.stop && options.stop()) break;
    const auto cut = planes.next(options.stop);
    if (!cut) break;
    if (!cut->complete) return best;
    consider(*cut);
  }
  // Where the planes met the bound, the minimum cuts of weights near the best ones still differ
  // (ties among schedules break another way): the cuts left go to such weights, each scaled by
  // a factor e^u, u uniform in [-1/2, 1/2], from a fixed seed (mt19937_64's output is the same
  // everywhere, and the uniform is made from it by hand) so that runs repeat.
  std::mt19937_64 random(1);
  while (best && planes.cuts() < options.maxCuts && !done()) {
    if (options.stop && options.stop()) break;
    std::vector<double> weights = planes.bestWeights();
    for (double& w : weights) {
      w *= std::exp(static_cast<double>(random() >> 11) * 0x1.0p-53 - 0.5);
    }
    const TimeExpandedNetwork::Cut cut = planes.probe(std::move(weights), options.stop);
    if (!cut.complete) break;
    consider(cut);
  }
  if (best) {
    best->bound = planes.round(*planes.bound());
    best->cuts = planes.cuts();
  }
  return best;
}

}  // namespace gaus::live_memory
