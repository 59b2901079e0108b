// Paths and small helpers shared by the tests.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace gaus::test {

// A file under tests/data (tiny hand-made inputs).
inline std::filesystem::path dataPath(const std::string& relative) {
  return std::filesystem::path(GAUS_TEST_DATA_DIR) / relative;
}

// A file under the shared benchmark folder (../shared beside the checkout).
inline std::filesystem::path sharedPath(const std::string& relative) {
  return std::filesystem::path(GAUS_SHARED_DIR) / relative;
}

// Every file below benchmarks/<folder> of the shared folder whose name ends with `suffix`,
// sorted by path so that tests go through them (and name failures) in the same order each run.
inline std::vector<std::filesystem::path> sharedBenchmarkFiles(const std::string& folder,
                                                               std::string_view suffix) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(sharedPath("benchmarks/" + folder))) {
    if (entry.is_regular_file() && entry.path().filename().string().ends_with(suffix)) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

inline std::filesystem::path sourcePath(const std::string& relative) {
  return std::filesystem::path(GAUS_SOURCE_DIR) / relative;
}

// The time limit (seconds) an exact-engine test gives a search or a solve: `seconds`, unless the
// environment variable GAUS_TEST_TIME_LIMIT holds a positive number of seconds, which then
// replaces every such limit. scripts/stress-exact.sh sets it to a random value per run so that
// the searches stop at many different points (docs/contributing.md, "Stress runs of the exact
// engine"); with it set, a test's expected answers may not hold, and only crashes and sanitizer
// reports count.
inline double timeLimit(double seconds) {
  if (const char* text = std::getenv("GAUS_TEST_TIME_LIMIT"); text != nullptr && *text != '\0') {
    const double overridden = std::strtod(text, nullptr);
    if (overridden > 0.0) return overridden;
  }
  return seconds;
}

// timeLimit() as a method option's text ({"time_limit", ...}).
inline std::string timeLimitText(double seconds) {
  return std::to_string(timeLimit(seconds));
}

}  // namespace gaus::test
