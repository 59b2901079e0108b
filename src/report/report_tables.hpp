// Pieces of the report shared by the tables (summary.cpp), the page (html_report.cpp) and the
// CSV file (summary_csv.cpp): how runs are grouped into problems and how values compare.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <gaus/report/report.hpp>
#include <gaus/report/results.hpp>

namespace gaus::report {

// "latency", "modulo II=4", "latency-bounded D=20": the problem part of a comparison.
std::string describeProblem(const ResultProblem& problem);

// Objective values equal up to rounding (they come from different solvers, some in floating
// point).
bool sameValue(double a, double b);

// value / best known; 1 when both are 0, none when only the best known is 0.
std::optional<double> ratioTo(double value, double bestKnown);

// The problem of `summary` that a record belongs to, or null.
const ProblemSummary* findProblem(const ReportSummary& summary, const ResultRecord& record);

// True when the record counts for quality: verified, with an objective of the problem's name.
bool countsForQuality(const ResultRecord& record, const ProblemSummary& problem);

std::string_view toString(BestKnownSource source);  // "", "runs", "reference"

// "%.6g"-style text of a value for tables; "" when unset.
std::string formatValue(std::optional<double> value);

// Median of some numbers; none when empty.
std::optional<double> median(std::vector<double> values);

// A run's schedule picture as the report links it.
struct RunPicture {
  const ResultRecord* record = nullptr;
  std::string file;  // relative to the report's folder; empty when not drawn
  std::string note;  // why not drawn, or that the schedule failed verification
  bool verified = false;
};

// The page, the CSV file and the quality-versus-time plot (html_report.cpp, summary_csv.cpp,
// quality_time_plot.cpp).
std::string formatReportPage(const ResultsFile& results, const ReportSummary& summary,
                             const std::vector<RunPicture>& pictures, const std::string& title);
std::string formatSummaryCsv(const ReportSummary& summary);
std::string renderQualityTimePlot(const ResultsFile& results, const ReportSummary& summary);

}  // namespace gaus::report
