// The results file of a batch (results.jsonl, docs/formats.md "Results"), held open for
// appending by one runner at a time (an exclusive lock on the file). Each record is one line
// written with one write() and flushed to disk (fsync) before the next run is counted, so an
// interrupted batch loses no recorded run. A line cut short (the runner's machine stopped while
// writing) is detected when the file is opened for resuming and cut off; the run it belonged to
// is run again.
#pragma once

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/report/results.hpp>

namespace gaus::experiment {

class ResultsStore {
 public:
  // Opens (creating) `path`. An existing file with records is an error unless `resume`: a batch
  // never mixes its records into another's by accident.
  static Expected<ResultsStore> open(const std::filesystem::path& path, bool resume);

  ResultsStore(ResultsStore&& other) noexcept;
  ResultsStore& operator=(ResultsStore&&) = delete;
  ResultsStore(const ResultsStore&) = delete;
  ~ResultsStore();

  // Appends one record as one line and flushes it to disk.
  Status append(const report::ResultRecord& record);

  bool recorded(const std::string& runId) const { return recorded_.count(runId) > 0; }
  // Every record read at open and appended since, in file order (a re-run replaces its id's).
  const std::vector<report::ResultRecord>& records() const { return records_; }
  // Bytes of a half-written last line cut off at open (0: none).
  std::int64_t discardedBytes() const { return discardedBytes_; }
  // Lines readResults skipped at open (not records: their runs are run again).
  std::int64_t skippedLines() const { return skippedLines_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  ResultsStore() = default;

  std::filesystem::path path_;
  int descriptor_ = -1;
  std::set<std::string> recorded_;
  std::vector<report::ResultRecord> records_;
  std::int64_t discardedBytes_ = 0;
  std::int64_t skippedLines_ = 0;
};

}  // namespace gaus::experiment
