// libFuzzer harness of the experiment reader (configs/experiments/*.yaml): the configuration is
// read and checked against the method catalog of the build (every method name and option), and
// what loads must be self-consistent. Bad input must come back as an error value.

#include <gaus/experiment/experiment_config.hpp>
#include <gaus/methods/method_catalog.hpp>

#include "fuzz_pipeline.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gaus;
  const auto path = fuzz::writeScratchFile("experiment.yaml", fuzz::asText(data, size));
  const auto config = experiment::readExperimentConfig(path, methodCatalog());
  if (!config) {
    fuzz::require(!config.error().empty(), "a refused configuration says why");
    return 0;
  }
  // The reader's promises: at least one graph entry and one method entry, each method known to
  // the registry, and budgets within their ranges.
  fuzz::require(!config->graphs.empty() && !config->methods.empty(),
                "a configuration that loads has graphs and methods");
  for (const auto& entry : config->methods) {
    fuzz::require(methodCatalog().find(entry.method) != nullptr,
                  "every method of a loaded configuration is in the catalog");
  }
  fuzz::require(config->budgets.jobs >= 1 && config->budgets.repeats >= 1,
                "jobs and repeats are at least 1");
  return 0;
}
