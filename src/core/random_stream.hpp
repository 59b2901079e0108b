// The random stream and the few real functions of the graph generators (random_graph.cpp,
// random_circuit.cpp). "Seed 7" must mean the same graph on every machine, so nothing here
// comes from <random> (whose distributions differ between standard libraries) or from libm's
// exp and log (correctly rounded in some libraries, within an ulp or two in others): the stream
// is xoshiro256** seeded by splitmix64, and exp2 and log2 are written out with IEEE-754 basic
// operations and std::fma, which round the same everywhere.
#pragma once

#include <cmath>
#include <cstdint>

namespace gaus::detail {

class RandomStream {
 public:
  explicit RandomStream(std::uint64_t seed) {
    for (auto& word : state_) {
      seed += 0x9E3779B97F4A7C15ULL;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      word = z ^ (z >> 31);
    }
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, bound): the high 32 bits times the bound, shifted (Lemire's method; bounds
  // here are below 2^32, so the bias is under 2^-32 and the result is the same everywhere).
  std::uint64_t below(std::uint64_t bound) { return ((next() >> 32) * bound) >> 32; }
  std::int64_t between(std::int64_t low, std::int64_t high) {  // inclusive
    return low + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(high - low + 1)));
  }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t state_[4]{};
};

// 2^x for |x| < 1000, within a few ulps: 2^floor(x) (exact, ldexp) times 2^f for f in [0, 1)
// from the Taylor series of e^(f ln 2) to degree 17 (its remainder is below 2^-60).
inline double portableExp2(double x) {
  const double whole = std::floor(x);
  const double t = (x - whole) * 0.69314718055994530942;  // f ln 2, in [0, ln 2)
  double sum = 1.0;
  for (int k = 17; k >= 1; --k) sum = std::fma(sum, t / k, 1.0);
  return std::ldexp(sum, static_cast<int>(whole));
}

// log2(x) for x > 0: the exponent (exact, frexp) plus log2(m) for m in [sqrt(1/2), sqrt(2)) from
// the series 2 atanh(s) / ln 2, s = (m - 1) / (m + 1), |s| < 0.172, to s^29 (remainder < 2^-60).
inline double portableLog2(double x) {
  int exponent = 0;
  double m = std::frexp(x, &exponent);  // x = m 2^exponent, m in [0.5, 1)
  if (m < 0.70710678118654752440) {
    m *= 2;
    --exponent;
  }
  const double s = (m - 1) / (m + 1);
  const double s2 = s * s;
  double sum = 0;
  for (int k = 29; k >= 1; k -= 2) sum = std::fma(sum, s2, 1.0 / k);
  return std::fma(2.0 * s * sum, 1.44269504088896340736, static_cast<double>(exponent));
}

// x^(1 / a) for x in [0, 1) and a > 0: u^(1/a) for u uniform has mean a / (a + 1).
inline double portableRoot(double x, double a) {
  return x <= 0 ? 0.0 : portableExp2(portableLog2(x) / a);
}

}  // namespace gaus::detail
