// Reading the values of an experiment configuration with the key that leads to each, so that
// every message names the file, the line and the key: "quick.yaml:12: budgets.time_limit:
// expected a positive number of seconds per run, found \"ten\"". The YAML is the io module's
// line-numbered tree (src/io/yaml_document.hpp) and failures are its InputError, so a config
// error reads like every other input error of gaus.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include <gaus/core/registry.hpp>
#include <gaus/experiment/experiment_config.hpp>

#include "input_error.hpp"
#include "json_value.hpp"

namespace gaus::experiment {

using io::InputError;
using io::JsonValue;

// " (did you mean 'NAME'?)" when a known name is close to the given one, else nothing.
std::string didYouMean(std::string_view given, const std::vector<std::string>& known,
                       std::string_view suffix = {});

// A value of the configuration with the key path that leads to it ("methods[1].options.lr"),
// so that every message can name the key.
class ConfigValue {
 public:
  ConfigValue(const JsonValue& value, std::string key) : value_(&value), key_(std::move(key)) {}

  const JsonValue& raw() const { return *value_; }
  const std::string& key() const { return key_; }
  std::int64_t line() const { return value_->line; }

  // "KEY: expected EXPECTED, found VALUE HINT".
  [[noreturn]] void fail(std::string_view expected, std::string_view hint = {}) const {
    throw InputError(
        value_->line,
        fmt::format("{}: {}{}", key_, io::expectedFound(expected, value_->describe()), hint));
  }
  // "KEY: MESSAGE", for a message that says what was expected itself.
  [[noreturn]] void failWith(std::string_view message) const {
    throw InputError(value_->line, fmt::format("{}: {}", key_, message));
  }

  std::optional<ConfigValue> member(std::string_view name) const {
    const JsonValue* found = value_->find(name);
    if (found == nullptr || found->isNull()) return std::nullopt;
    return ConfigValue(*found, child(name));
  }

  // Every key must be one of `known`; a typo is named with the nearest known key.
  const ConfigValue& requireObject(std::string_view what,
                                   std::initializer_list<std::string_view> known) const {
    if (!value_->isObject()) fail(fmt::format("{} (a mapping)", what));
    const std::vector<std::string> names(known.begin(), known.end());
    for (std::size_t i = 0; i < value_->keys.size(); ++i) {
      const std::string& key = value_->keys[i];
      if (std::find(names.begin(), names.end(), key) == names.end()) {
        throw InputError(value_->items[i].line,
                         fmt::format("{}: expected a key of {} ({}), found {}{}", child(key), what,
                                     option_text::listChoices(names), io::quoteText(key),
                                     didYouMean(key, names)));
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

  // The elements of a list; a single value counts as a list of one.
  std::vector<ConfigValue> list() const {
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

  std::vector<std::pair<std::string, ConfigValue>> entries() const {
    std::vector<std::pair<std::string, ConfigValue>> result;
    for (std::size_t i = 0; i < value_->keys.size(); ++i) {
      result.emplace_back(value_->keys[i], ConfigValue(value_->items[i], child(value_->keys[i])));
    }
    return result;
  }

  const std::string& text(std::string_view what) const {
    if (!value_->isString() || value_->text.empty()) fail(what);
    return value_->text;
  }

  // A scalar as written (numbers and booleans keep their text): option values.
  std::string scalar(std::string_view what) const {
    if (value_->isArray() || value_->isObject() || value_->isNull()) fail(what);
    return value_->text;
  }

  double number(std::string_view what) const {
    if (value_->kind != JsonValue::Kind::kInteger && value_->kind != JsonValue::Kind::kFloat) {
      fail(what);
    }
    const double number = value_->kind == JsonValue::Kind::kInteger
                              ? static_cast<double>(value_->integer)
                              : value_->number;
    if (!std::isfinite(number)) fail(what);
    return number;
  }

  double positiveNumber(std::string_view what) const {
    const double value = number(what);
    if (value <= 0) fail(what);
    return value;
  }

  std::int64_t integer(std::string_view what, std::int64_t min, std::int64_t max) const {
    if (value_->kind != JsonValue::Kind::kInteger || value_->integer < min ||
        value_->integer > max) {
      fail(what);
    }
    return value_->integer;
  }

  bool boolean(std::string_view what) const {
    if (value_->kind != JsonValue::Kind::kBool) fail(what);
    return value_->boolean;
  }

 private:
  std::string child(std::string_view name) const {
    return key_.empty() ? std::string(name) : fmt::format("{}.{}", key_, name);
  }

  const JsonValue* value_;
  std::string key_;
};

inline constexpr std::int64_t kMaxCount = 1000000;

// What a configuration's paths are relative to, and the variables its strings may use.
struct ConfigContext {
  std::filesystem::path folder;
  const MethodRegistry* registry = nullptr;
};

// "${NAME}": `shared` (the folder holding benchmarks/: $GAUS_SHARED_DIR, else the source tree's
// ../shared), `config_dir`, or an environment variable.
std::string expandVariables(const ConfigValue& where, const std::string& text,
                            const ConfigContext& context);

// A path of the configuration: relative ones are relative to its folder.
std::filesystem::path resolvePath(const std::filesystem::path& path, const ConfigContext& context);

// The sections other files read (config_graphs.cpp, experiment_config.cpp).
ProblemSpec parseProblem(const ConfigValue& value, const ConfigContext& context);
GraphEntry parseGraphEntry(const ConfigValue& value, const ConfigContext& context,
                           const ProblemSpec& problem);

}  // namespace gaus::experiment
