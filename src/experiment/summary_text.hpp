// The numbers of a finished batch in words: the five lines `gaus run` ends with, and summary.md,
// the report's tables as markdown (the tables of docs/benchmarks.md are pasted from it). Both
// are made from the report module's summary (report::summarizeResults), so they say what the
// HTML report and summary.csv say.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <gaus/report/report.hpp>
#include <gaus/report/results.hpp>

namespace gaus::experiment {

// "1m20s", "2h05m", "12s".
std::string formatDuration(double seconds);

// Per method, on how many of the problems it shares with another method its verified value is
// the lowest, alone or tied: "gaus 3 of 3 (2 alone, 1 tied), list 1 of 3 (tied)", followed by
// what that counts `withMeaning`; "all tied: ..." when every shared problem is a tie. Empty
// without methods.
std::string describeBestOn(const report::ReportSummary& summary, bool withMeaning);

// Five lines: runs and how they ended; problems; best per method; value over best known per
// method (geometric mean); median seconds per method.
std::string formatClosingSummary(const report::ReportSummary& summary,
                                 const std::vector<report::ResultRecord>& records,
                                 std::int64_t recordedNow, double seconds, std::int32_t parallel);

// A methods table and a problems table (one row per problem, one column per method: its best
// verified value, bold where it is the best of the row, else how its last run ended, and the
// median seconds of its runs). Above 30 problems, those where every method agrees are left out.
std::string formatSummaryMarkdown(const report::ReportSummary& summary,
                                  const std::vector<report::ResultRecord>& records,
                                  const std::string& name, const std::string& description);

}  // namespace gaus::experiment
