// A finished batch in words (summary_text.hpp).

#include "summary_text.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

namespace gaus::experiment {

namespace {

std::string number(double value) {
  // Objectives are mostly integers (GS-Schedule's are about 10^7): all their digits count.
  if (std::abs(value) < 1e15 && value == std::round(value)) {
    return fmt::format("{}", static_cast<std::int64_t>(value));
  }
  return fmt::format("{:.6g}", value);
}

std::string ratio(const std::optional<double>& value) {
  return value ? fmt::format("{:.3f}", *value) : std::string("-");
}

// Seconds to three significant digits; below a millisecond a timer says little more.
std::string seconds(const std::optional<double>& value) {
  if (!value) return "-";
  return *value < 0.001 ? std::string("<0.001") : fmt::format("{:.3g}", *value);
}

// Above this many problems, summary.md lists only those where the methods differ.
constexpr std::size_t kAllRowsUpTo = 30;

bool allAgree(const report::ProblemSummary& problem) {
  for (const auto& cell : problem.cells) {
    if (!cell.best) return false;
  }
  return true;
}

// A markdown cell: '|' would end it.
std::string cell(std::string text) {
  std::string escaped;
  for (const char c : text) {
    if (c == '|') escaped += '\\';
    escaped += c == '\n' ? ' ' : c;
  }
  return escaped;
}

}  // namespace

std::string formatDuration(double seconds) {
  const auto total = static_cast<std::int64_t>(std::llround(std::max(0.0, seconds)));
  if (total < 60) return fmt::format("{}s", total);
  if (total < 3600) return fmt::format("{}m{:02}s", total / 60, total % 60);
  return fmt::format("{}h{:02}m", total / 3600, (total % 3600) / 60);
}

std::string describeBestOn(const report::ReportSummary& summary, bool withMeaning) {
  std::vector<const report::MethodSummary*> methods;
  for (const auto& method : summary.methods) methods.push_back(&method);
  std::stable_sort(methods.begin(), methods.end(), [](const auto* a, const auto* b) {
    return a->wins + a->ties > b->wins + b->ties;
  });
  // With no win and no loss anywhere, "gaus 3 of 3, list 3 of 3" would read as if each were
  // better than the other: say that they agree.
  const bool allTie = std::all_of(methods.begin(), methods.end(), [](const auto* method) {
    return method->wins == 0 && method->losses == 0;
  });
  if (allTie) {
    std::int64_t shared = 0;
    for (const auto* method : methods) shared = std::max(shared, method->ties);
    if (shared > 0) {
      return fmt::format("all tied: every method has the same value on each of the {} problem{}",
                         shared, shared == 1 ? "" : "s");
    }
  }
  std::string text;
  for (const auto* method : methods) {
    const std::int64_t best = method->wins + method->ties;
    text += fmt::format("{}{} {} of {}", text.empty() ? "" : ", ", method->label, best,
                        best + method->losses);
    if (method->wins > 0 && method->ties > 0) {
      text += fmt::format(" ({} alone, {} tied)", method->wins, method->ties);
    } else if (best > 0) {
      text += method->ties > 0 ? " (tied)" : " (alone)";
    }
  }
  if (text.empty() || !withMeaning) return text;
  return text +
         " (problems it shares with another method where its verified value is the lowest, alone "
         "or tied)";
}

std::string formatClosingSummary(const report::ReportSummary& summary,
                                 const std::vector<report::ResultRecord>& records,
                                 std::int64_t recordedNow, double elapsed, std::int32_t parallel) {
  std::map<std::string, std::int64_t> statuses;
  std::int64_t verified = 0;
  for (const auto& record : records) {
    ++statuses[std::string(toString(record.status))];
    verified += record.verified ? 1 : 0;
  }
  std::string ended;
  for (const auto& [status, count] : statuses) {
    ended += fmt::format("{}{} {}", ended.empty() ? "" : ", ", count, status);
  }
  std::int64_t withReference = 0;
  for (const auto& problem : summary.problems) withReference += problem.reference ? 1 : 0;
  std::vector<const report::MethodSummary*> methods;
  for (const auto& method : summary.methods) methods.push_back(&method);
  std::stable_sort(methods.begin(), methods.end(), [](const auto* a, const auto* b) {
    return a->wins + a->ties > b->wins + b->ties;
  });
  std::string ratios, times;
  for (const auto* method : methods) {
    ratios += fmt::format("{}{} {}", ratios.empty() ? "" : ", ", method->label,
                          ratio(method->geomeanRatio));
    times += fmt::format("{}{} {}", times.empty() ? "" : ", ", method->label,
                         seconds(method->medianSeconds));
  }
  std::string text;
  text += fmt::format(
      "runs:      {} recorded ({} by this batch in {}, {} at a time): {} verified; "
      "{}\n",
      records.size(), recordedNow, formatDuration(elapsed), parallel, verified, ended);
  text += fmt::format("problems:  {} ({} with a reference value)\n", summary.problems.size(),
                      withReference);
  text += fmt::format("best on:   {}\n", describeBestOn(summary, true));
  text += fmt::format("value / best known, geometric mean: {}\n", ratios);
  text += fmt::format("median seconds per run: {}\n", times);
  return text;
}

std::string formatSummaryMarkdown(const report::ReportSummary& summary,
                                  const std::vector<report::ResultRecord>& records,
                                  const std::string& name, const std::string& description) {
  std::string text = fmt::format("### {}\n\n", description.empty() ? name : description);
  std::map<std::string, std::string> versions;
  for (const auto& record : records) versions[record.version] = record.host;
  for (const auto& [version, host] : versions) {
    text += fmt::format("- {} on {}\n", version, host);
  }
  text += fmt::format("- {} runs on {} problems\n\n", records.size(), summary.problems.size());
  text +=
      "| method | runs | verified | best on | wins | ties | losses | value / best known | "
      "median s |\n|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& method : summary.methods) {
    text += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", cell(method.label),
                        method.runs, method.verified, method.wins + method.ties, method.wins,
                        method.ties, method.losses, ratio(method.geomeanRatio),
                        seconds(method.medianSeconds));
  }
  std::vector<std::string> labels;
  for (const auto& method : summary.methods) labels.push_back(method.label);
  bool anyReference = false;
  for (const auto& problem : summary.problems) anyReference = anyReference || problem.reference;
  text += "\n| graph | problem | objective |";
  for (const auto& label : labels) text += fmt::format(" {} |", cell(label));
  text += anyReference ? " reference |\n|---|---|---|" : "\n|---|---|---|";
  for (std::size_t i = 0; i < labels.size() + (anyReference ? 1 : 0); ++i) text += "---|";
  text += '\n';
  std::int64_t leftOut = 0;
  for (const auto& problem : summary.problems) {
    if (summary.problems.size() > kAllRowsUpTo && allAgree(problem)) {
      ++leftOut;
      continue;
    }
    text += fmt::format("| {} | {} | {} |", cell(problem.graph), cell(problem.problem),
                        cell(problem.objectiveName));
    for (const auto& label : labels) {
      const auto found = std::find_if(problem.cells.begin(), problem.cells.end(),
                                      [&](const auto& c) { return c.label == label; });
      std::string value;
      if (found != problem.cells.end()) {
        value = !found->value ? found->status
                : found->best ? fmt::format("**{}**", number(*found->value))
                              : number(*found->value);
        if (found->medianSeconds) value += fmt::format(" ({} s)", seconds(found->medianSeconds));
      }
      text += fmt::format(" {} |", cell(value));
    }
    if (anyReference) {
      text += fmt::format(" {} |", problem.reference ? number(*problem.reference) : "");
    }
    text += '\n';
  }
  if (leftOut > 0) {
    text += fmt::format(
        "\n{} of {} problems, where every method has the same verified value, are left out "
        "(summary.csv and report.html list them).\n",
        leftOut, summary.problems.size());
  }
  return text;
}

}  // namespace gaus::experiment
