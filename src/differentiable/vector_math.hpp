// erfc and exp over a run of values, for the window kernels (issue 49). glibc's scalar erfcf
// costs about 11 ns a call on this project's CPU machine and was the largest single cost of a
// step's window forward; glibc's vector math library (libmvec, glibc >= 2.35) evaluates four
// lanes at about 1.4 ns a value with SSE alone (docs/benchmarks.md, "A step near the memory
// floor"), so no CPU dispatch is needed. vector_math.cpp holds the loops: GCC calls libmvec for a
// loop under `omp simd` over a function declared `omp declare simd`, compiled with -fopenmp-simd
// (src/differentiable/CMakeLists.txt, which sets GAUS_HAVE_LIBMVEC when the vector functions
// link; without it the loops call the scalar functions).
//
// The vector functions are not the scalar ones: they differ from them by a few ulp (at most 3
// for erfcf on the window's arguments, test_window_distribution.cpp), so a step's values differ
// from the scalar functions' in the last bits (docs/gaus.md, "Two evaluation paths").
#pragma once

#include <cstdint>

namespace gaus::differentiable {

// values[k] = erfc(values[k]), k < count.
void erfcOfEach(float* values, std::int64_t count);
void erfcOfEach(double* values, std::int64_t count);

// values[k] = exp(values[k]), k < count.
void expOfEach(float* values, std::int64_t count);
void expOfEach(double* values, std::int64_t count);

// Whether the loops above call glibc's vector functions (else the scalar ones).
bool vectorMathAvailable();

}  // namespace gaus::differentiable
