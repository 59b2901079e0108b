// The suites of the benchmark program; each returns a report.
#pragma once

#include <cstdint>
#include <string>

#include "bench_support.hpp"

namespace gaus::bench {

struct FoundationBenchFlags {
  std::int32_t ops = 1000000;
  double degree = 3.0;
  std::uint64_t seed = 1;
  std::string file;        // native JSON input; generated when missing
  bool regenerate = false;
};
Report runFoundationBench(const FoundationBenchFlags& flags);

}  // namespace gaus::bench
