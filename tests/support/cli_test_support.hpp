// Helpers of the end-to-end tests of the gaus program (tests/integration): run it, count the
// lines of its messages, and a scratch folder for the files it writes.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include "run_program.hpp"

namespace gaus::test {

// Runs the built gaus binary (GAUS_BINARY, set by tests/integration/CMakeLists.txt).
inline ProgramOutput runGaus(const std::vector<std::string>& args) {
  return runProgram(GAUS_BINARY, args);
}

// `name` in a folder of the temporary directory for this test process (its id in the name, so
// that test runs of several checkouts at once do not write each other's files).
inline std::filesystem::path cliScratch(const std::string& name) {
  const auto folder =
      std::filesystem::temp_directory_path() / ("gaus-cli-tests-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  return folder / name;
}

inline std::size_t lineCount(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace gaus::test
