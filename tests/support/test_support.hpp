// Paths and small helpers shared by the tests.
#pragma once

#include <algorithm>
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

}  // namespace gaus::test
