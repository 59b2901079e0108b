// The numbers of the report (report.hpp says how they are made): runs grouped into problems,
// each method's best verified value per problem, the best known value, ratios, wins, ties and
// losses, geometric means and medians.

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include <gaus/core/enum_names.hpp>
#include <gaus/core/gap.hpp>

#include "report_tables.hpp"

namespace gaus::report {

namespace {

constexpr double kRelativeTolerance = 1e-9;

// The key of a problem: graph id and problem, with a separator no name holds.
std::string problemKey(const std::string& graph, const std::string& problem) {
  return graph + '\x1f' + problem;
}

struct ProblemRuns {
  std::string graph;
  std::string problem;
  std::map<std::string, std::vector<const ResultRecord*>> byLabel;
  std::vector<const ResultRecord*> all;
};

}  // namespace

std::string describeProblem(const ResultProblem& problem) {
  std::string text = problem.kind.empty() ? std::string("problem") : problem.kind;
  if (problem.ii) text += fmt::format(" II={}", *problem.ii);
  if (problem.horizon) text += fmt::format(" D={}", *problem.horizon);
  return text;
}

bool sameValue(double a, double b) {
  return std::abs(a - b) <= kRelativeTolerance * std::max({1.0, std::abs(a), std::abs(b)});
}

std::optional<double> ratioTo(double value, double bestKnown) {
  if (bestKnown == 0.0) return value == 0.0 ? std::optional<double>(1.0) : std::nullopt;
  return value / bestKnown;
}

const ProblemSummary* findProblem(const ReportSummary& summary, const ResultRecord& record) {
  const std::string problem = describeProblem(record.problem);
  for (const auto& entry : summary.problems) {
    if (entry.graph == record.graph.id && entry.problem == problem) return &entry;
  }
  return nullptr;
}

bool countsForQuality(const ResultRecord& record, const ProblemSummary& problem) {
  return record.verified && record.objective && record.objective->name == problem.objectiveName;
}

// Where a best known value came from, as the report prints it (empty: none).
constexpr auto kBestKnownSourceNames = makeEnumNames<BestKnownSource>({
    {BestKnownSource::kNone, ""},
    {BestKnownSource::kRuns, "runs"},
    {BestKnownSource::kReference, "reference"},
});

std::string_view toString(BestKnownSource source) {
  return kBestKnownSourceNames.name(source);
}

std::string formatValue(std::optional<double> value) {
  if (!value) return {};
  // Objectives are mostly integers (cycles, GS-Schedule's 100 x peak + crossings, about 10^7):
  // all their digits count.
  if (std::abs(*value) < 1e15 && *value == std::round(*value)) {
    return fmt::format("{}", static_cast<std::int64_t>(*value));
  }
  return fmt::format("{:.6g}", *value);
}

std::optional<double> median(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
}

namespace {

// Problems grouped by graph, graphs in the order they first appear, and a graph's problems in
// the order they first appear: runs finish in any order (jobs, resumed runs), and a graph's
// second problem (twill's modulo-warp beside ilp's modulo) must not land among other graphs'
// rows. Methods by label.
struct GroupedRuns {
  std::vector<ProblemRuns> problems;
  std::map<std::string, std::vector<const ResultRecord*>> byLabel;
};

GroupedRuns groupRuns(const ResultsFile& results) {
  GroupedRuns grouped;
  std::map<std::string, std::size_t> problemIndex;
  std::map<std::string, std::size_t> graphOrder;
  for (const auto& record : results.records) {
    graphOrder.try_emplace(record.graph.id, graphOrder.size());
  }
  for (const auto& record : results.records) {
    const std::string problem = describeProblem(record.problem);
    const std::string key = problemKey(record.graph.id, problem);
    auto [found, added] = problemIndex.try_emplace(key, grouped.problems.size());
    if (added) grouped.problems.push_back({record.graph.id, problem, {}, {}});
    ProblemRuns& runs = grouped.problems[found->second];
    runs.byLabel[record.label].push_back(&record);
    runs.all.push_back(&record);
    grouped.byLabel[record.label].push_back(&record);
  }
  std::stable_sort(grouped.problems.begin(), grouped.problems.end(),
                   [&graphOrder](const ProblemRuns& a, const ProblemRuns& b) {
                     return graphOrder.at(a.graph) < graphOrder.at(b.graph);
                   });
  return grouped;
}

// What a problem's summary takes from all its runs: its objective (the one the first verified
// run reports, in file order), the least reference value and the best lower bound on that
// objective.
ProblemSummary problemFacts(const ProblemRuns& runs) {
  ProblemSummary problem;
  problem.graph = runs.graph;
  problem.problem = runs.problem;
  // The objective is the one the first verified run reports (file order).
  for (const ResultRecord* record : runs.all) {
    if (record->verified && record->objective) {
      problem.objectiveName = record->objective->name;
      break;
    }
  }
  for (const ResultRecord* record : runs.all) {
    if (record->reference && (!problem.reference || *record->reference < *problem.reference)) {
      problem.reference = record->reference;
    }
  }
  // Bounds on the problem's objective only: a run that reports another objective, or none
  // (whose bound may be on its own default objective), bounds something else.
  for (const ResultRecord* record : runs.all) {
    if (!record->lowerBound || !record->objective) continue;
    if (record->objective->name != problem.objectiveName) continue;
    if (problem.bestBound && *record->lowerBound <= *problem.bestBound) continue;
    problem.bestBound = *record->lowerBound;
    problem.bestBoundArgument =
        record->lowerBoundArgument.empty()
            ? std::string()
            : fmt::format("{} ({})", record->lowerBoundArgument, record->label);
  }
  return problem;
}

}  // namespace

ReportSummary summarizeResults(const ResultsFile& results) {
  ReportSummary summary;
  summary.records = static_cast<std::int64_t>(results.records.size());
  summary.skippedLines = static_cast<std::int64_t>(results.skipped.size());
  summary.replacedRecords = results.replacedRecords;

  const GroupedRuns grouped = groupRuns(results);
  const std::vector<ProblemRuns>& problems = grouped.problems;
  const std::map<std::string, std::vector<const ResultRecord*>>& byLabel = grouped.byLabel;

  std::map<std::string, MethodSummary> methods;
  std::map<std::string, std::vector<double>> logRatios;
  for (const auto& [label, records] : byLabel) {
    MethodSummary& method = methods[label];
    method.label = label;
    method.runs = static_cast<std::int64_t>(records.size());
    std::vector<double> seconds;
    for (const ResultRecord* record : records) {
      if (record->seconds) seconds.push_back(*record->seconds);
    }
    method.medianSeconds = median(seconds);
  }

  for (const ProblemRuns& runs : problems) {
    ProblemSummary problem = problemFacts(runs);
    std::optional<double> bestRun;
    for (const auto& [label, records] : runs.byLabel) {
      ProblemCell cell;
      cell.label = label;
      cell.runs = static_cast<std::int64_t>(records.size());
      std::vector<double> seconds;
      const ResultRecord* valueRecord = nullptr;
      for (const ResultRecord* record : records) {
        if (record->seconds) seconds.push_back(*record->seconds);
        if (!countsForQuality(*record, problem)) continue;
        ++cell.verified;
        if (!cell.value || record->objective->value < *cell.value) {
          cell.value = record->objective->value;
          valueRecord = record;
        }
      }
      cell.medianSeconds = median(seconds);
      cell.status = std::string(toString((valueRecord ? valueRecord : records.back())->status));
      if (cell.value && (!bestRun || *cell.value < *bestRun)) bestRun = cell.value;
      methods[label].verified += cell.verified;
      problem.cells.push_back(std::move(cell));
    }
    if (bestRun && (!problem.reference || !(*problem.reference < *bestRun) ||
                    sameValue(*problem.reference, *bestRun))) {
      problem.bestKnown = bestRun;
      problem.bestSource = BestKnownSource::kRuns;
    } else if (problem.reference) {
      problem.bestKnown = problem.reference;
      problem.bestSource = BestKnownSource::kReference;
    }

    std::int64_t holdersOfBest = 0;
    for (const auto& cell : problem.cells) {
      if (cell.value && sameValue(*cell.value, *bestRun)) ++holdersOfBest;
    }
    for (auto& cell : problem.cells) {
      MethodSummary& method = methods[cell.label];
      cell.best = cell.value && sameValue(*cell.value, *bestRun);
      cell.gap = relativeGap(cell.value, problem.bestBound);
      if (cell.value && problem.bestKnown) {
        cell.ratio = ratioTo(*cell.value, *problem.bestKnown);
        if (cell.ratio) {
          logRatios[cell.label].push_back(std::log(*cell.ratio));
          ++method.ratioProblems;
          if (problem.bestSource == BestKnownSource::kReference) ++method.referenceProblems;
        }
      }
      // Wins, ties and losses need another method on the problem to be against.
      if (problem.cells.size() < 2) continue;
      if (!cell.best) {
        ++method.losses;
      } else if (holdersOfBest > 1) {
        ++method.ties;
      } else {
        ++method.wins;
      }
    }
    summary.problems.push_back(std::move(problem));
  }
  for (auto& [label, method] : methods) {
    const auto& logs = logRatios[label];
    if (!logs.empty()) {
      double sum = 0.0;
      for (const double value : logs) sum += value;
      method.geomeanRatio = std::exp(sum / static_cast<double>(logs.size()));
    }
    summary.methods.push_back(method);
  }
  return summary;
}

}  // namespace gaus::report
