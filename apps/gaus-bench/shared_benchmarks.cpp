#include "shared_benchmarks.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include <gaus/io/io.hpp>
#include <gaus/methods/method_catalog.hpp>
#include <gaus/methods/run_method.hpp>

namespace gaus::bench {

std::vector<std::filesystem::path> benchmarkFiles(const std::filesystem::path& folder,
                                                  std::string_view suffix) {
  if (!std::filesystem::is_directory(folder)) {
    throw std::runtime_error(
        fmt::format("no benchmark folder {}: pass the folder holding benchmarks/ with --shared",
                    folder.string()));
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder)) {
    if (entry.is_regular_file() && entry.path().filename().string().ends_with(suffix)) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<Instance> readBenchmarkInstances(const std::filesystem::path& file) {
  auto instances = io::readInstances(file);
  if (!instances) throw std::runtime_error(instances.error());
  return std::move(instances).value();
}

Result runCatalogMethod(std::string_view method, std::string_view name, const Problem& problem,
                        const MethodOptions& options, std::optional<double> timeLimit,
                        const Schedule* initialSchedule) {
  RunContext context;
  context.initialSchedule = initialSchedule;
  Settings settings;
  if (timeLimit) settings["time_limit"] = *timeLimit;
  Result result =
      runMethod(methodCatalog(), problem, {std::string(method), options, settings}, context);
  if (result.failed()) {
    throw std::runtime_error(
        fmt::format("{} on {}: {}", method, name,
                    result.message.empty() ? std::string("failed") : result.message));
  }
  return result;
}

Result runCatalogMethod(std::string_view method, const Instance& instance, ProblemKind kind,
                        const MethodOptions& options, std::optional<double> timeLimit) {
  return runCatalogMethod(method, fmt::format("{} ({})", instance.name, instance.sourcePath),
                          instance.problem(kind), options, timeLimit);
}

bool matchesFilter(std::string_view name, std::string_view filter) {
  return filter.empty() || name.find(filter) != std::string_view::npos;
}

std::string ratioText(double ratio) {
  return fmt::format("{:.3f}", ratio);
}

void GeometricMean::add(double ratio) {
  logSum_ += std::log(ratio);
  ++count_;
}

double GeometricMean::value() const {
  return count_ == 0 ? 1.0 : std::exp(logSum_ / count_);
}

}  // namespace gaus::bench
