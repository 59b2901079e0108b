// The report of an experiment: from a results file (results.hpp) to one self-contained HTML page
// (inline CSS and SVG, no network), summary.csv with the same numbers, and a folder of schedule
// pictures (units view) beside them. The experiment runner calls writeReport after its runs;
// `gaus report` calls it on a results file or a folder holding results.jsonl.
//
// How the numbers are made (docs/formats.md "Results", docs/pictures.md "Report"):
// - Runs are compared per problem: the graph id with the problem kind, horizon and II.
// - A method's value on a problem is its best verified objective over its runs (seeds,
//   repeats). Only verified results with an objective count.
// - The best known value is the best value of all methods, or the record's reference (such as
//   HeuriGym's baseline.json) where that is lower; the tables say which.
// - Wins, ties and losses count problems: a win is a value below every other method's, a tie a
//   best value shared with another method, a loss anything else (no verified result included).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/report/pictures.hpp>
#include <gaus/report/results.hpp>

namespace gaus::report {

// One method entry (by label) over every problem it ran on.
struct MethodSummary {
  std::string label;
  std::int64_t runs = 0;
  std::int64_t verified = 0;           // verified runs with an objective
  std::optional<double> geomeanRatio;  // of value / best known, over `ratioProblems`
  std::int64_t ratioProblems = 0;
  std::int64_t referenceProblems = 0;  // of those, where the reference is the best known
  std::int64_t wins = 0;
  std::int64_t ties = 0;
  std::int64_t losses = 0;
  std::optional<double> medianSeconds;  // over its runs that report seconds
};

// What one method did on one problem.
struct ProblemCell {
  std::string label;
  std::int64_t runs = 0;
  std::int64_t verified = 0;
  std::optional<double> value;  // best verified objective
  std::optional<double> ratio;  // value / best known
  // (value - best bound) / value (core's relativeGap): 0 where proven optimal, by its own bound
  // or another method's.
  std::optional<double> gap;
  std::optional<double> medianSeconds;
  std::string status;  // of the run that gave the value, else of its last run
  bool best = false;   // holds the lowest value among the methods
};

enum class BestKnownSource { kNone, kRuns, kReference };

struct ProblemSummary {
  std::string graph;    // graph id
  std::string problem;  // "latency", "modulo II=4", "latency-bounded D=20"
  std::string objectiveName;
  std::optional<double> bestKnown;
  BestKnownSource bestSource = BestKnownSource::kNone;
  std::optional<double> reference;
  // The largest lower bound any run proved on the problem's objective: no schedule is below it.
  std::optional<double> bestBound;
  // What gave it: the argument its run named ("Lagrangian over cycles 0-20") and the run's
  // method label, or empty where the run named none.
  std::string bestBoundArgument;
  std::vector<ProblemCell> cells;  // one per method label that ran on it, in label order
};

struct ReportSummary {
  std::vector<MethodSummary> methods;  // sorted by label
  std::vector<ProblemSummary> problems;
  std::int64_t records = 0;
  std::int64_t skippedLines = 0;
  std::int64_t replacedRecords = 0;
  // Filled by writeReport.
  std::filesystem::path reportPath;
  std::filesystem::path csvPath;
  std::filesystem::path picturesFolder;
  std::int64_t pictures = 0;
};

// The tables of a results file, without writing anything.
ReportSummary summarizeResults(const ResultsFile& results);

struct ReportOptions {
  // The HTML page; empty: report.html in the results file's folder. summary.csv and the
  // pictures folder go beside it.
  std::filesystem::path output;
  std::string title;  // empty: the experiment's name, else the results file's name
  // Schedule pictures (units view) of runs that name a schedule file, at most this many.
  bool pictures = true;
  std::int64_t maxPictures = 200;
  PictureOptions pictureOptions;
};

// Reads `results` (a results file, or a folder holding results.jsonl) and writes the report,
// summary.csv and the pictures. Each file is replaced atomically; bad input fails naming the
// file and the line, before anything is written.
Expected<ReportSummary> writeReport(const std::filesystem::path& results,
                                    const ReportOptions& options = {});

}  // namespace gaus::report
