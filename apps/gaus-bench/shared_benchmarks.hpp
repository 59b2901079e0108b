// Access to the shared benchmark data (the folder holding benchmarks/, GAUS_SHARED_DIR by
// default) for the suites that measure methods on it, and the small statistics their tables
// print.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/instance.hpp>
#include <gaus/core/options.hpp>
#include <gaus/core/result.hpp>

namespace gaus::bench {

// The files below `folder` whose name ends with `suffix`, sorted by path. Throws when the
// folder does not exist, saying to pass --shared.
std::vector<std::filesystem::path> benchmarkFiles(const std::filesystem::path& folder,
                                                  std::string_view suffix);

// Every instance of a benchmark file (throws with the reader's message on failure).
std::vector<Instance> readBenchmarkInstances(const std::filesystem::path& file);

// Runs a method of the catalog on an instance. The catalog verifies every schedule and turns a
// failed verification into kError; a kError result stops the suite (throws with its message).
// A result without a schedule (timeout, infeasible) is returned as it is. `timeLimit` is the
// budget of the whole call (the setting time_limit, for methods that declare it).
Result runCatalogMethod(std::string_view method, const Instance& instance, ProblemKind kind,
                        const MethodOptions& options = {},
                        std::optional<double> timeLimit = std::nullopt);
// The same on a problem built by the caller (a horizon, rebuilt edges); `name` names it in the
// error message. `initialSchedule` (not owned) is the start handed to methods that improve one.
Result runCatalogMethod(std::string_view method, std::string_view name, const Problem& problem,
                        const MethodOptions& options = {},
                        std::optional<double> timeLimit = std::nullopt,
                        const Schedule* initialSchedule = nullptr);

// True when `name` contains `filter` (an empty filter keeps everything).
bool matchesFilter(std::string_view name, std::string_view filter);

// "1.053": a ratio as the tables print it.
std::string ratioText(double ratio);

// Geometric mean of positive ratios (1 for none).
class GeometricMean {
 public:
  void add(double ratio);
  double value() const;

 private:
  double logSum_ = 0;
  int count_ = 0;
};

}  // namespace gaus::bench
