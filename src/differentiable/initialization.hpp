// Starting points of the means and widths (GAUS.md "Initialization"): the midpoint of
// [ASAP_i, ALAP_i] at the horizon with sigma_i = clamp(kappa * (ALAP_i - ASAP_i), sigma_min,
// sigma_max), or a given schedule's start times with sigma_i = sigma_restart. Multi-start: odd
// batch rows may start elsewhere (the midpoint, when the others start from a schedule), and rows
// from 2 on add seeded Gaussian noise of std. dev. restart_noise to the means.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include <torch/torch.h>

#include <gaus/core/graph.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/differentiable/gaus_options.hpp>

#include "tensor_support.hpp"

namespace gaus::differentiable {

struct StartingPoint {
  std::vector<double> mu;
  std::vector<double> sigma;
};

// `asap` and `alap` are start bounds at the horizon (core's asapTimes / alapTimes).
StartingPoint midpointStart(const std::vector<Cycle>& asap, const std::vector<Cycle>& alap,
                            const GausOptions& options);

// A schedule's starts, each clamped into [ASAP_i, ALAP_i] when they are given (non-empty): a
// schedule longer than the horizon is squeezed into it, keeping its order where it can.
StartingPoint scheduleStart(const Schedule& schedule, const std::vector<Cycle>& asap,
                            const std::vector<Cycle>& alap, const GausOptions& options);

// [B, V] mean and width tensors: even rows start from `start`, odd rows from `alternate` when
// it is given (else from `start` too); the rows after these one or two clean starts add noise to
// the means; every mean is clamped into [0, D - 1].
std::pair<torch::Tensor, torch::Tensor> batchedStart(const StartingPoint& start,
                                                     const StartingPoint* alternate,
                                                     std::int64_t batch, std::int64_t horizon,
                                                     const GausOptions& options,
                                                     std::mt19937_64& random,
                                                     const TensorSettings& settings);

}  // namespace gaus::differentiable
