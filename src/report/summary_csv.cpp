// summary.csv: the numbers of the report's two tables in one file. Column `table` says which:
// "method" rows hold a method's summary, "problem" rows one method's result on one problem.
// Cells that do not apply to a row are empty.

#include <fmt/format.h>

#include "report_tables.hpp"

namespace gaus::report {

namespace {

constexpr std::string_view kHeader =
    "table,label,graph,problem,objective,runs,verified,value,best_known,best_known_source,"
    "reference,ratio,geomean_ratio,ratio_problems,reference_problems,wins,ties,losses,"
    "median_seconds,status\n";

// RFC 4180 quoting: fields holding a comma, a quote or a line break are quoted.
std::string field(std::string_view text) {
  if (text.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string number(std::optional<double> value) {
  return value ? fmt::format("{:.10g}", *value) : std::string();
}

}  // namespace

std::string formatSummaryCsv(const ReportSummary& summary) {
  std::string csv(kHeader);
  for (const auto& method : summary.methods) {
    csv += fmt::format("method,{},,,,{},{},,,,,,{},{},{},{},{},{},{},\n", field(method.label),
                       method.runs, method.verified, number(method.geomeanRatio),
                       method.ratioProblems, method.referenceProblems, method.wins, method.ties,
                       method.losses, number(method.medianSeconds));
  }
  for (const auto& problem : summary.problems) {
    for (const auto& cell : problem.cells) {
      csv +=
          fmt::format("problem,{},{},{},{},{},{},{},{},{},{},{},,,,,,,{},{}\n", field(cell.label),
                      field(problem.graph), field(problem.problem), field(problem.objectiveName),
                      cell.runs, cell.verified, number(cell.value), number(problem.bestKnown),
                      toString(problem.bestSource), number(problem.reference), number(cell.ratio),
                      number(cell.medianSeconds), field(cell.status));
    }
  }
  return csv;
}

}  // namespace gaus::report
