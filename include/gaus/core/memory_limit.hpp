// The memory limit of the engines' models (issue 14, "Limits that hold"): the exact engine's
// MILPs and the GauS tensors estimate their size before they are built and refuse a model above
// the limit with its size, the limit and what to change, instead of being killed by the kernel.
// The limit is the method option memory_limit (bytes), which the setting of the same name
// (`gaus schedule --memory-limit`, `gaus run --memory-limit`, budgets.memory_limit) sets.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <gaus/core/expected.hpp>

namespace gaus {

// Physical memory of this machine (sysconf: pages x page size); nullopt when unknown.
std::optional<std::int64_t> physicalMemoryBytes();

// The default memory_limit: 90 % of physical memory, or no limit (the largest int64) when the
// physical memory is unknown. A model near the whole memory leaves nothing for the rest of the
// process and the system, so the margin is 10 %.
std::int64_t defaultMemoryLimitBytes();
// defaultMemoryLimitBytes in words, for the option tables that declare memory_limit.
inline constexpr std::string_view kDefaultMemoryLimitRule = "90 % of physical memory";

// "1.23 GB", "512 MB", "900 kB", "12 bytes".
std::string formatBytes(std::int64_t bytes);

// "8G", "512M", "1048576" (suffixes K, M, G, T: powers of 1024): a byte count such as
// --memory-limit and budgets.memory_limit take, or a message saying what was expected.
Expected<std::int64_t> parseByteSize(std::string_view text);

// The one-line refusal when `estimatedBytes` exceeds `limitBytes`, else nothing: "WHAT would
// take about 12.3 GB (estimated before it is built), above memory_limit=8589934592 (8.59 GB):
// REMEDY, raise --memory-limit (-O memory_limit=BYTES), or use another method (ALTERNATIVE)".
std::optional<std::string> refuseAboveMemoryLimit(std::string_view what,
                                                  std::int64_t estimatedBytes,
                                                  std::int64_t limitBytes, std::string_view remedy,
                                                  std::string_view alternative);

}  // namespace gaus
