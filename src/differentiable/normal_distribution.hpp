// The standard normal distribution's constants for the fused CPU kernels.
#pragma once

namespace gaus::differentiable {

// Beyond |z| = 9 the CDF is within 1.2e-19 of 0 or 1 and the density below 1e-17: the kernels
// skip such cells (most cells of a window whose sigma is small), a difference from the LibTorch
// path far below the 1e-9 the tests ask of the two.
template <typename Real>
inline constexpr Real kNormalTailCutoff = Real(9);

// The density's factor 1 / sqrt(2 pi).
template <typename Real>
inline constexpr Real kInverseSqrtTwoPi = Real(0.3989422804014327);

}  // namespace gaus::differentiable
