// Readers that take a second file beside the input (a HatScheT graph's resource model, a Triton
// dump's heuristic schedule) are fuzzed with both in one input: the bytes before the first NUL
// are the main file, the bytes after it the companion. Neither format holds a NUL, so the split
// is unambiguous; an input without one has no companion file (the reader's "missing file" path).
#pragma once

#include <filesystem>
#include <string_view>

#include "fuzz_pipeline.hpp"

namespace gaus::fuzz {

inline void readWithCompanion(std::string_view bytes, std::string_view mainName,
                              std::string_view companionName, io::Format format) {
  const auto split = bytes.find('\0');
  std::error_code error;
  std::filesystem::remove(scratchFolder() / std::string(companionName), error);
  if (split != std::string_view::npos) writeScratchFile(companionName, bytes.substr(split + 1));
  readAndExercise(bytes.substr(0, split), mainName, format);
}

}  // namespace gaus::fuzz
