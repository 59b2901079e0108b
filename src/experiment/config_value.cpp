// The line-aware config values (config_value.hpp): names close to a typo, variables in strings,
// paths relative to the configuration.

#include "config_value.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include <gaus/core/option_table.hpp>
#include <gaus/io/input_error.hpp>

#ifndef GAUS_SHARED_DIR
#define GAUS_SHARED_DIR ""
#endif

namespace gaus::experiment {

namespace fs = std::filesystem;
using io::InputError;
using io::JsonValue;

void ConfigValue::fail(std::string_view expected, std::string_view hint) const {
  throw InputError(
      value_->line,
      fmt::format("{}: {}{}", key_, io::expectedFound(expected, value_->describe()), hint));
}

void ConfigValue::failWith(std::string_view message) const {
  throw InputError(value_->line, fmt::format("{}: {}", key_, message));
}

std::optional<ConfigValue> ConfigValue::member(std::string_view name) const {
  const JsonValue* found = value_->find(name);
  if (found == nullptr || found->isNull()) return std::nullopt;
  return ConfigValue(*found, child(name));
}

const ConfigValue& ConfigValue::requireObject(std::string_view what,
                                              std::initializer_list<std::string_view> known) const {
  if (!value_->isObject()) fail(fmt::format("{} (a mapping)", what));
  const std::vector<std::string> names(known.begin(), known.end());
  for (std::size_t i = 0; i < value_->keys.size(); ++i) {
    const std::string& key = value_->keys[i];
    if (std::find(names.begin(), names.end(), key) == names.end()) {
      throw InputError(value_->items[i].line,
                       fmt::format("{}: expected a key of {} ({}), found {}{}", child(key), what,
                                   option_text::listChoices(names), io::quoteText(key),
                                   option_text::didYouMean(key, names)));
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (value_->keys[j] == key) {
        throw InputError(
            value_->items[i].line,
            fmt::format("{}: expected each key once, found it a second time", child(key)));
      }
    }
  }
  return *this;
}

std::vector<ConfigValue> ConfigValue::list() const {
  std::vector<ConfigValue> items;
  if (!value_->isArray()) {
    items.push_back(*this);
    return items;
  }
  for (std::size_t i = 0; i < value_->items.size(); ++i) {
    items.emplace_back(value_->items[i], fmt::format("{}[{}]", key_, i));
  }
  return items;
}

std::vector<std::pair<std::string, ConfigValue>> ConfigValue::entries() const {
  std::vector<std::pair<std::string, ConfigValue>> result;
  for (std::size_t i = 0; i < value_->keys.size(); ++i) {
    result.emplace_back(value_->keys[i], ConfigValue(value_->items[i], child(value_->keys[i])));
  }
  return result;
}

const std::string& ConfigValue::text(std::string_view what) const {
  if (!value_->isString() || value_->text.empty()) fail(what);
  return value_->text;
}

std::string ConfigValue::scalar(std::string_view what) const {
  if (value_->isArray() || value_->isObject() || value_->isNull()) fail(what);
  return value_->text;
}

double ConfigValue::number(std::string_view what) const {
  if (value_->kind != JsonValue::Kind::kInteger && value_->kind != JsonValue::Kind::kFloat) {
    fail(what);
  }
  const double number = value_->kind == JsonValue::Kind::kInteger
                            ? static_cast<double>(value_->integer)
                            : value_->number;
  if (!std::isfinite(number)) fail(what);
  return number;
}

double ConfigValue::positiveNumber(std::string_view what) const {
  const double value = number(what);
  if (value <= 0) fail(what);
  return value;
}

std::int64_t ConfigValue::integer(std::string_view what, std::int64_t min, std::int64_t max) const {
  if (value_->kind != JsonValue::Kind::kInteger || value_->integer < min || value_->integer > max) {
    fail(what);
  }
  return value_->integer;
}

bool ConfigValue::boolean(std::string_view what) const {
  if (value_->kind != JsonValue::Kind::kBool) fail(what);
  return value_->boolean;
}

std::string ConfigValue::child(std::string_view name) const {
  return key_.empty() ? std::string(name) : fmt::format("{}.{}", key_, name);
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
