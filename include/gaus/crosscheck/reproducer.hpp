// Reproducers of the cross-method check: a disagreement is written as two files in a folder,
//   NAME.json                the instance in the native format (io::writeInstance), with the
//                            witness schedule that contradicts the claim as its `schedule` and
//                            the case's seed, horizon and II under `reference`;
//   NAME.disagreement.json   {"format": "gaus-disagreement-0.1", "instance": "NAME.json",
//                            "family", "seed", "problem": {"kind", "horizon", "ii"}, "check",
//                            "method", "witness", "message", "settings", "options"}: the method
//                            whose claim is wrong, the options it echoed and the settings of the
//                            run.
// `gaus verify NAME.json NAME.json` checks the witness; `gaus-bench crosscheck --replay
// FOLDER` runs every method on every reproducer again (the default tests replay
// tests/data/crosscheck/ this way).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/crosscheck/crosscheck.hpp>

namespace gaus::crosscheck {

// Writes the two files and returns the path of the .disagreement.json file.
Expected<std::filesystem::path> writeReproducer(const std::filesystem::path& folder,
                                                const CrossCheckCase& crossCheckCase,
                                                const Disagreement& disagreement,
                                                const CaseOutcome& outcome);

struct Reproducer {
  std::filesystem::path path;  // the .disagreement.json file
  CrossCheckCase crossCheckCase;
  std::string check;
  std::string method;
  std::string message;
};

// Reads a .disagreement.json file and the instance it names.
Expected<Reproducer> readReproducer(const std::filesystem::path& path);

// The .disagreement.json files of a folder (or the file itself), sorted.
std::vector<std::filesystem::path> reproducerFiles(const std::filesystem::path& path);

}  // namespace gaus::crosscheck
