// The report's opening sentences (headlines.hpp), made from the report's own tables: a win is a
// problem whose best value is held by one method and is well below every other method's; a
// proven optimum is a problem whose best value meets the largest lower bound a run proved; a
// proven gap is one where it does not. The numbers are those of the per-problem table.

#include "headlines.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "report_tables.hpp"

namespace gaus::report {

namespace {

struct LabelledValue {
  std::string label;
  double value = 0.0;
};

// "peak_memory" -> "peak memory", "ii" -> "II": the objective as a sentence says it.
std::string objectiveWords(const std::string& name) {
  if (name == "ii") return "II";
  std::string words = name.empty() ? std::string("objective") : name;
  std::replace(words.begin(), words.end(), '_', ' ');
  return words;
}

// "adder", or "adder (modulo II=4)" where the graph has more than one problem in the report.
std::string problemName(const ProblemSummary& problem, const ReportSummary& summary) {
  const auto sameGraph = std::count_if(
      summary.problems.begin(), summary.problems.end(),
      [&problem](const ProblemSummary& other) { return other.graph == problem.graph; });
  if (sameGraph > 1) return fmt::format("{} ({})", problem.graph, problem.problem);
  return problem.graph;
}

// A factor as people say it: "55x" from ten on, "2.5x" from twice on; none below twice, where a
// percentage says it better.
std::optional<std::string> factorText(double ratio) {
  if (ratio >= 10.0) return fmt::format("{:.0f}x", ratio);
  if (ratio >= 2.0) return fmt::format("{:.1f}x", ratio);
  return std::nullopt;
}

// How far `value` is above `best` (> 0): "1.5x above", "12% above".
std::string howFarAbove(double value, double best) {
  if (const auto factor = factorText(value / best)) return *factor + " above";
  return fmt::format("{:.0f}% above", 100.0 * (value / best - 1.0));
}

// How far `best` is below `value`: "55x below", "10% below".
std::string howFarBelow(double best, double value) {
  if (best <= 0.0) return "below";
  if (const auto factor = factorText(value / best)) return *factor + " below";
  return fmt::format("{:.0f}% below", 100.0 * (1.0 - best / value));
}

// "a", "a and b", "a, b and c".
std::string joinedList(const std::vector<std::string>& items) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) text += i + 1 == items.size() ? " and " : ", ";
    text += items[i];
  }
  return text;
}

// The methods with a verified value on the problem, lowest value first (label order on ties).
std::vector<LabelledValue> valuesOf(const ProblemSummary& problem) {
  std::vector<LabelledValue> values;
  for (const auto& cell : problem.cells) {
    if (cell.value) values.push_back({cell.label, *cell.value});
  }
  std::stable_sort(
      values.begin(), values.end(),
      [](const LabelledValue& a, const LabelledValue& b) { return a.value < b.value; });
  return values;
}

// The labels whose runs proved `bound` on the problem's objective, in file order, and the
// largest bound each label's own runs proved.
struct BoundOwners {
  std::vector<std::string> provers;
  std::map<std::string, double> ownBound;
};

BoundOwners boundOwners(const ResultsFile& results, const ReportSummary& summary,
                        const ProblemSummary& problem, double bound) {
  BoundOwners owners;
  for (const auto& record : results.records) {
    if (!record.lowerBound || !record.objective) continue;
    if (record.objective->name != problem.objectiveName) continue;
    if (findProblem(summary, record) != &problem) continue;
    const auto [own, added] = owners.ownBound.try_emplace(record.label, *record.lowerBound);
    if (!added) own->second = std::max(own->second, *record.lowerBound);
    if (sameValue(*record.lowerBound, bound) &&
        std::find(owners.provers.begin(), owners.provers.end(), record.label) ==
            owners.provers.end()) {
      owners.provers.push_back(record.label);
    }
  }
  return owners;
}

// "ilp's lower bound", "the lower bounds of ilp and twill".
std::string boundSource(const std::vector<std::string>& provers) {
  if (provers.size() == 1) return fmt::format("{}'s lower bound", provers.front());
  return fmt::format("the lower bounds of {}", joinedList(provers));
}

struct Candidate {
  Headline headline;
  double score = 0.0;  // larger first
};

// The problem's kind: "modulo" of "modulo II=4", "latency-bounded" of "latency-bounded D=20".
std::string kindOf(const std::string& problem) {
  return problem.substr(0, problem.find(' '));
}

// The `count` highest-scoring candidates, one per problem kind first (a proof on a loop beside
// one on a DAG says more than two on loops), then the rest by score.
std::vector<Headline> best(std::vector<Candidate> candidates, std::size_t count) {
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
  std::vector<bool> taken(candidates.size(), false);
  std::vector<std::string> kinds;
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < candidates.size() && order.size() < count; ++i) {
    const std::string kind = kindOf(candidates[i].headline.problem);
    if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end()) continue;
    kinds.push_back(kind);
    taken[i] = true;
    order.push_back(i);
  }
  for (std::size_t i = 0; i < candidates.size() && order.size() < count; ++i) {
    if (!taken[i]) order.push_back(i);
  }
  std::sort(order.begin(), order.end());  // by score, as sorted
  std::vector<Headline> chosen;
  for (const std::size_t i : order) chosen.push_back(std::move(candidates[i].headline));
  return chosen;
}

// A win: one method holds the best value and the runner-up is at least minWinRatio above it.
std::optional<Candidate> winOn(const ProblemSummary& problem, const ReportSummary& summary,
                               const HeadlineOptions& options) {
  const std::vector<LabelledValue> values = valuesOf(problem);
  if (values.size() < 2) return std::nullopt;
  const LabelledValue& winner = values.front();
  const double runnerUp = values[1].value;
  if (sameValue(runnerUp, winner.value)) return std::nullopt;
  const double ratio =
      winner.value > 0.0 ? runnerUp / winner.value : std::numeric_limits<double>::infinity();
  if (ratio < options.minWinRatio) return std::nullopt;
  std::vector<std::string> others;
  for (std::size_t i = 1; i < values.size(); ++i) {
    others.push_back(fmt::format("{} {}'s {}", howFarBelow(winner.value, values[i].value),
                                 values[i].label, formatValue(values[i].value)));
  }
  Candidate candidate;
  candidate.score = ratio;
  candidate.headline.kind = HeadlineKind::kWin;
  candidate.headline.graph = problem.graph;
  candidate.headline.problem = problem.problem;
  candidate.headline.label = winner.label;
  candidate.headline.text = fmt::format(
      "On {}, {}'s {} of {} is {}.", problemName(problem, summary), winner.label,
      objectiveWords(problem.objectiveName), formatValue(winner.value), joinedList(others));
  return candidate;
}

// A proven optimum: the best value meets the best bound. Ranked by how much worse the worst
// method was (where the choice of method mattered), then by how far the bound rose above the
// holders' own bounds (where the proof added something).
std::optional<Candidate> provenOptimumOn(const ResultsFile& results, const ProblemSummary& problem,
                                         const ReportSummary& summary) {
  const std::vector<LabelledValue> values = valuesOf(problem);
  if (values.empty() || !problem.bestBound) return std::nullopt;
  const double optimum = values.front().value;
  if (!sameValue(optimum, *problem.bestBound)) return std::nullopt;
  const BoundOwners owners = boundOwners(results, summary, problem, *problem.bestBound);
  if (owners.provers.empty()) return std::nullopt;

  std::vector<std::string> holders;
  std::vector<std::string> ownBounds;
  double boundRise = 1.0;
  for (const auto& value : values) {
    if (!sameValue(value.value, optimum)) break;
    holders.push_back(value.label);
    const auto own = owners.ownBound.find(value.label);
    if (own != owners.ownBound.end() && !sameValue(own->second, optimum)) {
      ownBounds.push_back(fmt::format("{}'s own bound: {}", value.label, formatValue(own->second)));
      if (own->second > 0.0) boundRise = std::max(boundRise, optimum / own->second);
    }
  }
  const std::string objective = objectiveWords(problem.objectiveName);
  const std::string name = problemName(problem, summary);
  const bool ownProof = owners.provers.size() == 1 && holders.size() == 1 &&
                        owners.provers.front() == holders.front();
  const std::string byWhom =
      ownProof ? std::string("its own lower bound") : boundSource(owners.provers);
  std::string text =
      holders.size() == 1
          ? fmt::format("On {}, {}'s {} of {} is proven optimal by {}", name, holders.front(),
                        objective, formatValue(optimum), byWhom)
          : fmt::format("On {}, the {} of {} that {} reach is proven optimal by {}", name,
                        objective, formatValue(optimum), joinedList(holders), byWhom);
  if (!ownBounds.empty()) text += fmt::format(" ({})", joinedList(ownBounds));
  const LabelledValue& worst = values.back();
  const double spread = optimum > 0.0 ? worst.value / optimum : 1.0;
  if (!sameValue(worst.value, optimum) && optimum > 0.0) {
    text += fmt::format("; {}'s {} is {} it", worst.label, formatValue(worst.value),
                        howFarAbove(worst.value, optimum));
  }
  text += ".";

  Candidate candidate;
  candidate.score = spread * boundRise;
  candidate.headline.kind = HeadlineKind::kProvenOptimal;
  candidate.headline.graph = problem.graph;
  candidate.headline.problem = problem.problem;
  candidate.headline.label = holders.front();
  candidate.headline.text = std::move(text);
  return candidate;
}

// A proven gap: the best value is above the best bound; the smallest gap ranks first.
std::optional<Candidate> provenGapOn(const ResultsFile& results, const ProblemSummary& problem,
                                     const ReportSummary& summary) {
  const std::vector<LabelledValue> values = valuesOf(problem);
  if (values.empty() || !problem.bestBound) return std::nullopt;
  const LabelledValue& leader = values.front();
  // A bound above the best value contradicts a verified schedule: no claim rests on it.
  if (sameValue(leader.value, *problem.bestBound) || leader.value < *problem.bestBound) {
    return std::nullopt;
  }
  const auto cell =
      std::find_if(problem.cells.begin(), problem.cells.end(),
                   [&leader](const ProblemCell& c) { return c.label == leader.label; });
  if (cell == problem.cells.end() || !cell->gap) return std::nullopt;
  const BoundOwners owners = boundOwners(results, summary, problem, *problem.bestBound);
  if (owners.provers.empty()) return std::nullopt;

  Candidate candidate;
  candidate.score = -*cell->gap;
  candidate.headline.kind = HeadlineKind::kProvenGap;
  candidate.headline.graph = problem.graph;
  candidate.headline.problem = problem.problem;
  candidate.headline.label = leader.label;
  candidate.headline.text = fmt::format(
      "On {}, the best {} found is {}'s {}; the best lower bound, {} ({}), leaves a gap of "
      "{:.1f}%.",
      problemName(problem, summary), objectiveWords(problem.objectiveName), leader.label,
      formatValue(leader.value), formatValue(*problem.bestBound), joinedList(owners.provers),
      100.0 * *cell->gap);
  return candidate;
}

}  // namespace

std::vector<Headline> writeHeadlines(const ResultsFile& results, const ReportSummary& summary,
                                     const HeadlineOptions& options) {
  std::vector<Candidate> wins;
  std::vector<Candidate> optima;
  std::vector<Candidate> gaps;
  for (const auto& problem : summary.problems) {
    if (auto win = winOn(problem, summary, options)) wins.push_back(std::move(*win));
    if (auto optimum = provenOptimumOn(results, problem, summary)) {
      optima.push_back(std::move(*optimum));
    }
    if (auto gap = provenGapOn(results, problem, summary)) gaps.push_back(std::move(*gap));
  }
  std::vector<Headline> headlines = best(std::move(wins), options.maxWins);
  for (auto& headline : best(std::move(optima), options.maxProvenOptimal))
    headlines.push_back(std::move(headline));
  for (auto& headline : best(std::move(gaps), options.maxProvenGaps))
    headlines.push_back(std::move(headline));
  return headlines;
}

}  // namespace gaus::report
