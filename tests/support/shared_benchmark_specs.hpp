// Every instance of the shared benchmarks as the command line names it: a file path, or
// FILE#INDEX for each loop of a Triton dump. For end-to-end tests that run a method on all.
#pragma once

#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace gaus::test {

// The READMEs count 21 HeuriGym instances, 6 GML graphs, 11 AIGER circuits, 91 MachSuite loops
// and 5 Triton loops.
inline constexpr std::size_t kSharedBenchmarkInstances = 21 + 6 + 11 + 91 + 5;

inline std::vector<std::string> sharedBenchmarkSpecs() {
  std::vector<std::string> specs;
  for (const auto& [folder, suffix] :
       std::vector<std::pair<std::string, std::string>>{{"heurigym-operator-scheduling", ".json"},
                                                        {"gs-schedule-icml24-rw", ".gml"},
                                                        {"epfl-combinational", ".aig"},
                                                        {"hatschet-machsuite", ".graphml"}}) {
    for (const auto& file : sharedBenchmarkFiles(folder, suffix)) {
      if (file.filename() != "baseline.json") specs.push_back(file.string());
    }
  }
  for (const auto& file : sharedBenchmarkFiles("triton-ddg", ".ddg.json")) {
    std::ifstream in(file);
    const auto loops = nlohmann::json::parse(in).at("loops").size();
    for (std::size_t loop = 0; loop < loops; ++loop) {
      specs.push_back(file.string() + "#" + std::to_string(loop));
    }
  }
  return specs;
}

}  // namespace gaus::test
