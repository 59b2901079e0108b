// The built-in kernels (configs/kernels/NAME.yaml, with their machines) as the tests load them.
#pragma once

#include <string>

#include <catch2/catch.hpp>

#include <gaus/io/io.hpp>

#include "test_support.hpp"

namespace gaus::test {

inline Instance loadKernel(const std::string& name) {
  const auto path = io::findKernelFile(name, sourcePath("."));
  INFO(name);
  REQUIRE(path);
  auto instance = io::readInstance(path->string());
  INFO((instance ? std::string() : instance.error()));
  REQUIRE(instance);
  return std::move(instance).value();
}

}  // namespace gaus::test
