// Pieces of the report shared by the tables (summary.cpp), the page (html_report.cpp) and the
// CSV file (summary_csv.cpp): how runs are grouped into problems and how values compare.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <gaus/report/report.hpp>
#include <gaus/report/results.hpp>

#include "headlines.hpp"

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

// What the page opens with: the sentences the results write (headlines.hpp) and, beside them,
// the pictures of the run the first sentence is about: its schedule (units view) and, for a
// GauS run that kept its trace, its convergence.
struct ReportOpening {
  std::vector<Headline> headlines;
  const ResultRecord* record = nullptr;  // the run drawn; null when none
  std::string scheduleFile;              // relative to the page; empty when not drawn
  std::string convergenceSvg;            // inline SVG; empty when the run left no trace
  std::string note;                      // why a picture is missing
};

// The page, the CSV file and the quality-versus-time plot (html_report.cpp, summary_csv.cpp,
// quality_time_plot.cpp).
std::string formatReportPage(const ResultsFile& results, const ReportSummary& summary,
                             const ReportOpening& opening, const std::vector<RunPicture>& pictures,
                             const std::string& title);
std::string formatSummaryCsv(const ReportSummary& summary);
std::string renderQualityTimePlot(const ResultsFile& results, const ReportSummary& summary);

}  // namespace gaus::report
