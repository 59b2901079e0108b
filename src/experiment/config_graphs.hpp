// One `graphs:` entry of an experiment configuration (config_graphs.cpp), with the problem it
// inherits from the top of the configuration.
#pragma once

#include <gaus/experiment/experiment_config.hpp>

#include "config_value.hpp"

namespace gaus::experiment {

GraphEntry parseGraphEntry(const ConfigValue& value, const ConfigContext& context,
                           const ProblemSpec& problem);

}  // namespace gaus::experiment
