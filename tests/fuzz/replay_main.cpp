// Replays inputs through a fuzz harness without libFuzzer: every file named on the command
// line, or found below a folder named there (a missing one is skipped), goes once through
// LLVMFuzzerTestOneInput. The default test run uses it (built with the normal compiler) to replay
// the regression corpus of each reader (tests/fuzz/regressions/<reader>/) and its seed corpus, so a
// fixed crash stays fixed without clang. An input that crashes or fails a check aborts, which fails
// the test.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_pipeline.hpp"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    const fs::path given = argv[i];
    std::error_code error;
    if (fs::is_directory(given, error)) {
      for (const auto& entry : fs::recursive_directory_iterator(given)) {
        if (entry.is_regular_file() && entry.path().filename() != "README.md") {
          inputs.push_back(entry.path());
        }
      }
    } else if (fs::is_regular_file(given, error)) {
      inputs.push_back(given);
    } else if (!fs::exists(given, error)) {
      // A reader without regressions yet has no folder (git keeps no empty ones).
      std::printf("replay: no %s\n", argv[i]);
    } else {
      std::fprintf(stderr, "replay: %s is neither a file nor a folder\n", argv[i]);
      return 2;
    }
  }
  std::sort(inputs.begin(), inputs.end());
  for (const fs::path& path : inputs) {
    // Named before it runs: an input that aborts is the last one printed.
    std::printf("%s\n", path.c_str());
    std::fflush(stdout);
    std::ifstream file(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(file)),
                            std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("replayed %zu inputs\n", inputs.size());
  return inputs.empty() ? 1 : 0;
}
