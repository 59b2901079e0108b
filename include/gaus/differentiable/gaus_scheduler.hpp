// GauS: differentiable scheduling by Gaussian reparameterization (Cai, Bakhtazad, Yu, Zhang,
// arXiv 2602.20427, 2026), as specified in ../shared/docs/GAUS.md. Every op's start time is a
// Gaussian; an augmented-Lagrangian loop runs Adam on the means and widths (LibTorch, CPU or
// CUDA), and every candidate is rounded, legalized by list scheduling (or its modulo variant)
// and verified; the best legal schedule is kept and returned.
#pragma once

#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>
#include <gaus/differentiable/gaus_options.hpp>
#include <gaus/methods/run_context.hpp>

namespace gaus::differentiable {

// Schedules `problem` (kLatency, kLatencyBounded or kModulo). The result holds the best legal
// schedule found, its objective (latency, peak stage weight, peak memory or II), the lower bound
// the search knows, the options used, one log line per horizon or II attempt, and figures
// (`extra`): Adam steps, seconds per step, seconds to the first legal schedule.
Result scheduleWithGaus(const Problem& problem, const GausOptions& options,
                        const RunContext& context = {});

}  // namespace gaus::differentiable

namespace gaus {

// Adds method "gaus" to the registry.
void registerGausMethods(MethodRegistry& registry);

}  // namespace gaus
