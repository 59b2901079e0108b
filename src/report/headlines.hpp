// The opening sentences of the report, written from the results rather than by hand: where the
// choice of method mattered most (the widest win), which answers a lower bound proves optimal,
// and how far the best answer can be from optimal where a bound leaves a gap.
#pragma once

#include <string>
#include <vector>

#include <gaus/report/report.hpp>
#include <gaus/report/results.hpp>

namespace gaus::report {

enum class HeadlineKind { kWin, kProvenOptimal, kProvenGap };

// One sentence about one problem, with the method whose schedule it is about (the winner, or
// the first method that reaches the proven value) so that the page can draw that schedule.
struct Headline {
  HeadlineKind kind = HeadlineKind::kWin;
  std::string text;  // plain text, one sentence or two
  std::string graph;
  std::string problem;  // describeProblem's text
  std::string label;
};

// How many sentences of each kind the report opens with, and the smallest ratio of the runner-up
// to the winner that counts as a win worth a sentence.
struct HeadlineOptions {
  std::size_t maxWins = 2;
  std::size_t maxProvenOptimal = 3;
  std::size_t maxProvenGaps = 1;
  double minWinRatio = 1.2;
};

// The sentences, wins first (largest ratio first), then proven optima (where the choice of
// method mattered most first), then proven gaps (smallest first); within each, one problem
// kind (latency, modulo, ...) after another before a second of the same kind. `results` says which
// runs proved the bounds; `summary` is summarizeResults(results).
std::vector<Headline> writeHeadlines(const ResultsFile& results, const ReportSummary& summary,
                                     const HeadlineOptions& options = {});

}  // namespace gaus::report
