// Inputs as the tests load them: graph files (and every instance of a file of several),
// schedules, and the built-in kernels (configs/kernels/NAME.yaml, with their machines). A file
// that does not read fails the test with the reader's message.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <gaus/io/io.hpp>

#include "test_support.hpp"

namespace gaus::test {

inline Instance loadInstance(const std::filesystem::path& path) {
  auto instance = io::readInstance(path.string());
  INFO(path.string() << ": " << (instance ? std::string() : instance.error()));
  REQUIRE(instance.ok());
  return std::move(instance).value();
}

inline std::vector<Instance> loadInstances(const std::filesystem::path& path) {
  auto instances = io::readInstances(path);
  INFO(path.string() << ": " << (instances ? std::string() : instances.error()));
  REQUIRE(instances.ok());
  return std::move(instances).value();
}

inline Schedule loadSchedule(const std::filesystem::path& path, const Graph& graph) {
  auto schedule = io::readSchedule(path, graph);
  INFO(path.string() << ": " << (schedule ? std::string() : schedule.error()));
  REQUIRE(schedule.ok());
  return std::move(schedule).value();
}

// The names of the built-in kernels (configs/kernels).
inline std::vector<std::string> builtInKernelNames() {
  return io::builtInKernelNames(sourcePath("."));
}

inline Instance loadKernel(const std::string& name) {
  const auto path = io::findKernelFile(name, sourcePath("."));
  INFO(name);
  REQUIRE(path);
  return loadInstance(*path);
}

}  // namespace gaus::test
