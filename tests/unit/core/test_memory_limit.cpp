// The memory limit of the engines' models (core/memory_limit.hpp): its default and the refusal.
#include <unistd.h>

#include <catch2/catch.hpp>

#include <gaus/core/memory_limit.hpp>

using namespace gaus;

TEST_CASE("memory limit: the default is 90 % of physical memory", "[core][memory]") {
  // Issue 14: on by default at 90 % of physical memory, i.e. pages x page size x 0.9, read here
  // from sysconf independently of the code under test.
  const std::int64_t physical =
      static_cast<std::int64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
  REQUIRE(physical > 0);
  REQUIRE(physicalMemoryBytes() == physical);
  CHECK(defaultMemoryLimitBytes() == physical / 10 * 9);
  CHECK(static_cast<double>(defaultMemoryLimitBytes()) ==
        Approx(0.9 * static_cast<double>(physical)).epsilon(1e-9));
}

TEST_CASE(
    "memory limit: a model above the limit is refused with its size, the limit and the "
    "remedy",
    "[core][memory]") {
  // At the limit it fits; one byte above, the message names what, the estimate (2,000,000,001
  // bytes = 2.00 GB), the limit in bytes and readable, the remedy and another method.
  CHECK_FALSE(refuseAboveMemoryLimit("the model", 2'000'000'000, 2'000'000'000, "shrink it", "x"));
  const auto refused =
      refuseAboveMemoryLimit("the model", 2'000'000'001, 2'000'000'000, "shrink it", "list");
  REQUIRE(refused);
  CHECK(*refused ==
        "the model would take about 2.00 GB (estimated before it is built), above "
        "memory_limit=2000000000 (2.00 GB): shrink it, raise --memory-limit (-O "
        "memory_limit=BYTES), or use another method (list)");
  CHECK(refused->find('\n') == std::string::npos);
  CHECK(formatBytes(9216) == "9 kB");
  CHECK(formatBytes(512) == "512 bytes");
  CHECK(formatBytes(1'500'000) == "2 MB");
}
