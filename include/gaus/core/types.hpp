// Basic index and time types shared by every module.
#pragma once

#include <cstdint>
#include <limits>

namespace gaus {

// Dense ids. 32 bits hold graphs of up to 2^31 ops and edges, far beyond what fits in memory as
// a dependence graph, and halve the size of every index array compared to 64-bit ids.
using OpId = std::int32_t;
using EdgeId = std::int32_t;
using ResourceId = std::int32_t;
using MemoryId = std::int32_t;

// Times (start cycles, latencies summed along paths) are 64-bit: input values are limited to the
// 32-bit range (kMaxInputValue), so a sum over 2^31 of them cannot overflow.
using Cycle = std::int64_t;

// The largest latency, delay, distance, occupancy or capacity an input may hold. Readers reject
// larger values with an "integer overflow" error instead of wrapping around.
inline constexpr std::int64_t kMaxInputValue = std::numeric_limits<std::int32_t>::max();

// A set of warps (warp groups) as a bit mask: bit w set means the op runs on warp w.
using WarpSet = std::uint64_t;
inline constexpr int kMaxWarps = 64;

}  // namespace gaus
