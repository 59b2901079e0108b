// The line-aware config values (config_value.hpp): names close to a typo, variables in strings,
// paths relative to the configuration.

#include "config_value.hpp"

#include <cstdlib>

#include <gaus/core/option_table.hpp>

#ifndef GAUS_SHARED_DIR
#define GAUS_SHARED_DIR ""
#endif

namespace gaus::experiment {

namespace fs = std::filesystem;

// " (did you mean 'NAME'?)" when a known name is close to the given one, else nothing.
std::string didYouMean(std::string_view given, const std::vector<std::string>& known,
                       std::string_view suffix) {
  const auto nearest = option_text::nearestName(given, known);
  return nearest ? fmt::format(" (did you mean '{}{}'?)", *nearest, suffix) : std::string();
}

// "${NAME}": `shared` (the folder holding benchmarks/: $GAUS_SHARED_DIR, else the source tree's
// ../shared), `config_dir`, or an environment variable.
std::string expandVariables(const ConfigValue& where, const std::string& text,
                            const ConfigContext& context) {
  std::string result;
  std::size_t position = 0;
  while (true) {
    const auto open = text.find("${", position);
    if (open == std::string::npos) break;
    const auto close = text.find('}', open);
    if (close == std::string::npos) where.fail("a string whose ${...} variables are closed");
    const std::string name = text.substr(open + 2, close - open - 2);
    result += text.substr(position, open - position);
    const char* environment = std::getenv(name.c_str());
    if (name == "config_dir") {
      result += context.folder.string();
    } else if (environment != nullptr) {
      result += environment;
    } else if (name == "shared" && std::string_view(GAUS_SHARED_DIR).size() > 0) {
      result += GAUS_SHARED_DIR;
    } else {
      where.fail(
          fmt::format("variables ${{shared}}, ${{config_dir}} or set environment "
                      "variables, but ${{{}}} is neither",
                      name));
    }
    position = close + 1;
  }
  return result + text.substr(position);
}

fs::path resolvePath(const fs::path& path, const ConfigContext& context) {
  return path.is_absolute() ? path : (context.folder / path).lexically_normal();
}

}  // namespace gaus::experiment
