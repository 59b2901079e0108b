// Reading the values of an experiment configuration with the key that leads to each, so that
// every message names the file, the line and the key: "quick.yaml:12: budgets.time_limit:
// expected a positive number of seconds per run, found \"ten\"". The YAML is the io module's
// line-numbered tree (gaus/io/document_tree.hpp) and failures are its InputError, so a config
// error reads like every other input error of gaus.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gaus/experiment/experiment_config.hpp>
#include <gaus/io/json_value.hpp>
#include <gaus/methods/registry.hpp>

namespace gaus::experiment {

// A value of the configuration with the key path that leads to it ("methods[1].options.lr"),
// so that every message can name the key.
class ConfigValue {
 public:
  ConfigValue(const io::JsonValue& value, std::string key) : value_(&value), key_(std::move(key)) {}

  const io::JsonValue& raw() const { return *value_; }
  const std::string& key() const { return key_; }
  std::int64_t line() const { return value_->line; }

  // "KEY: expected EXPECTED, found VALUE HINT".
  [[noreturn]] void fail(std::string_view expected, std::string_view hint = {}) const;
  // "KEY: MESSAGE", for a message that says what was expected itself.
  [[noreturn]] void failWith(std::string_view message) const;

  // The member `name` of a mapping; nothing when it is absent or null.
  std::optional<ConfigValue> member(std::string_view name) const;
  // Checks that this is a mapping whose keys are all `known` (a typo is named with the nearest
  // known key), each once.
  const ConfigValue& requireObject(std::string_view what,
                                   std::initializer_list<std::string_view> known) const;
  // The elements of a list; a single value counts as a list of one.
  std::vector<ConfigValue> list() const;
  // The members of a mapping, in order.
  std::vector<std::pair<std::string, ConfigValue>> entries() const;

  // Typed values; each fails with `what` as what was expected.
  const std::string& text(std::string_view what) const;  // a non-empty string
  std::string scalar(std::string_view what) const;       // a scalar as written (option values)
  double number(std::string_view what) const;
  double positiveNumber(std::string_view what) const;
  std::int64_t integer(std::string_view what, std::int64_t min, std::int64_t max) const;
  bool boolean(std::string_view what) const;

 private:
  std::string child(std::string_view name) const;

  const io::JsonValue* value_;
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

}  // namespace gaus::experiment
