// Paths and small helpers shared by the tests.
#pragma once

#include <filesystem>
#include <string>

namespace gaus::test {

// A file under tests/data (tiny hand-made inputs).
inline std::filesystem::path dataPath(const std::string& relative) {
  return std::filesystem::path(GAUS_TEST_DATA_DIR) / relative;
}

// A file under the shared benchmark folder (../shared beside the checkout).
inline std::filesystem::path sharedPath(const std::string& relative) {
  return std::filesystem::path(GAUS_SHARED_DIR) / relative;
}

inline std::filesystem::path sourcePath(const std::string& relative) {
  return std::filesystem::path(GAUS_SOURCE_DIR) / relative;
}

}  // namespace gaus::test
