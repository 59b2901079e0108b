// What the fused kernels of both devices share (the CPU kernels in *_term.cpp and
// window_*.cpp, the CUDA kernels in cuda/): a row's active columns and the index arithmetic of
// the precedence term, written once so that the two read the same layout the same way. Plain
// C++ that also compiles as CUDA device code.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define GAUS_HOST_DEVICE __host__ __device__
#else
#define GAUS_HOST_DEVICE
#endif

namespace gaus::differentiable {

// The active columns of window rows (window_distribution.hpp, WindowedDistribution::active):
// [first, last] per row, read from a [rows, 2] table, or every column below W - 1 without one
// (then every loop runs over the whole window, as it did before the table existed).
struct ActiveColumns {
  const std::int32_t* columns = nullptr;
  std::int64_t width = 1;

  GAUS_HOST_DEVICE std::int64_t first(std::int64_t row) const {
    return columns != nullptr ? columns[2 * row] : 0;
  }
  GAUS_HOST_DEVICE std::int64_t last(std::int64_t row) const {
    return columns != nullptr ? columns[2 * row + 1] : width - 2;
  }
};

GAUS_HOST_DEVICE inline std::int64_t maxIndex(std::int64_t a, std::int64_t b) {
  return a > b ? a : b;
}
GAUS_HOST_DEVICE inline std::int64_t minIndex(std::int64_t a, std::int64_t b) {
  return a < b ? a : b;
}

// Edge u -> v of the precedence term: step j of u's window meets F_v at column j + c of v's
// window, c = a_u + shift - a_v. F_v is 0 below column 0, cdf_v there up to column W - 2, and 1
// from W - 1 on: the sum splits into [j0, j1] (a product per step) and a tail j >= jt, which
// sums u's pmf in closed form: 1 - cdf_u(jt - 1).
struct EdgeSpan {
  std::int64_t c, j0, j1, jt;
  GAUS_HOST_DEVICE EdgeSpan(std::int64_t offsetU, std::int64_t shift, std::int64_t offsetV,
                            std::int64_t width)
      : c(offsetU + shift - offsetV),
        j0(maxIndex(0, -c)),
        j1(minIndex(width - 1, width - 2 - c)),
        jt(maxIndex(0, width - 1 - c)) {}
};

// The steps of [j0, j1] whose product can be nonzero or whose gradient is read. u's pmf is 0
// outside [first_u, last_u + 1] and v's CDF is 0 below column first_v, so the forward sum and
// the gradient of u's pmf (read on [first_u, last_u + 1]) need only
//   [max(j0, first_u, first_v - c), min(j1, last_u + 1)];
// the gradient of v's CDF (read on [first_v, last_v]) needs that range cut at last_v - c. The
// terms left out are exact zeros, so every sum keeps its value and its order.
struct EdgeProducts {
  std::int64_t begin, end;  // [begin, end]
  GAUS_HOST_DEVICE EdgeProducts(const EdgeSpan& span, std::int64_t firstU, std::int64_t lastU,
                                std::int64_t firstV)
      : begin(maxIndex(maxIndex(span.j0, firstU), firstV - span.c)),
        end(minIndex(span.j1, lastU + 1)) {}
};

}  // namespace gaus::differentiable
