// The `problem:` section of an experiment configuration (config_problem.cpp).
#pragma once

#include <gaus/experiment/experiment_config.hpp>

#include "config_value.hpp"

namespace gaus::experiment {

ProblemSpec parseProblem(const ConfigValue& value, const ConfigContext& context);

}  // namespace gaus::experiment
