// Helpers of the experiment tests: a scratch folder per test process, config files written from
// text, reading a results file's lines back (whole files: run_program.hpp's readWholeFile).
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "run_program.hpp"

namespace gaus::test {

// A fresh folder `name` in this test process's scratch folder.
inline std::filesystem::path experimentScratch(const std::string& name) {
  const auto folder = std::filesystem::temp_directory_path() /
                      ("gaus-experiment-tests-" + std::to_string(::getpid())) / name;
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  return folder;
}

inline std::filesystem::path writeConfig(const std::filesystem::path& folder,
                                         const std::string& text,
                                         const std::string& name = "experiment.yaml") {
  const auto path = folder / name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

inline std::vector<std::string> readLines(const std::filesystem::path& path) {
  std::vector<std::string> lines;
  std::ifstream in(path, std::ios::binary);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace gaus::test
