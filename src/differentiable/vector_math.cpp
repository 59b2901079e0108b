#include "vector_math.hpp"

#include <cmath>

// The vector variants glibc's libmvec provides (the SSE ones, "b" in the vector ABI's names):
// the declarations that let GCC call them from the `omp simd` loops below.
#if defined(GAUS_HAVE_LIBMVEC)
extern "C" {
#pragma omp declare simd simdlen(4) notinbranch
float erfcf(float) noexcept;
#pragma omp declare simd simdlen(4) notinbranch
float expf(float) noexcept;
#pragma omp declare simd simdlen(2) notinbranch
double erfc(double) noexcept;
#pragma omp declare simd simdlen(2) notinbranch
double exp(double) noexcept;
}
#endif

namespace gaus::differentiable {

void erfcOfEach(float* values, std::int64_t count) {
#pragma omp simd
  for (std::int64_t k = 0; k < count; ++k) values[k] = ::erfcf(values[k]);
}

void erfcOfEach(double* values, std::int64_t count) {
#pragma omp simd
  for (std::int64_t k = 0; k < count; ++k) values[k] = ::erfc(values[k]);
}

void expOfEach(float* values, std::int64_t count) {
#pragma omp simd
  for (std::int64_t k = 0; k < count; ++k) values[k] = ::expf(values[k]);
}

void expOfEach(double* values, std::int64_t count) {
#pragma omp simd
  for (std::int64_t k = 0; k < count; ++k) values[k] = ::exp(values[k]);
}

bool vectorMathAvailable() {
#if defined(GAUS_HAVE_LIBMVEC)
  return true;
#else
  return false;
#endif
}

}  // namespace gaus::differentiable
