// Method options as a string map (what the CLI and the experiment YAML hold), and a reader that
// turns them into typed values with defaults, naming the option and the expected type on error.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gaus {

using MethodOptions = std::map<std::string, std::string, std::less<>>;

// Documentation of one option of a method, shown by `gaus schedule --method M --help-method`.
struct OptionDoc {
  std::string name;
  std::string defaultValue;
  std::string description;
};

// Reads typed options. Every read records the name and the value used (the default when the
// option is absent), so a result can echo exactly what produced it. finish() reports options
// that were given but never read (most likely a typo) and values that did not parse.
class OptionReader {
 public:
  OptionReader(std::string methodName, const MethodOptions& options);

  std::int64_t getInt(std::string_view name, std::int64_t defaultValue);
  double getDouble(std::string_view name, double defaultValue);
  bool getBool(std::string_view name, bool defaultValue);
  std::string getString(std::string_view name, std::string defaultValue);
  std::optional<std::int64_t> getOptionalInt(std::string_view name);
  std::optional<double> getOptionalDouble(std::string_view name);

  // Empty when all options were understood; otherwise one message listing every problem, e.g.
  // "method gaus: unknown option 'lrr' (known: lr, ...); option 'seed' expects an integer, got
  // 'x'".
  std::string finish() const;
  const std::vector<std::pair<std::string, std::string>>& used() const { return used_; }

 private:
  const std::string* find(std::string_view name);

  std::string methodName_;
  const MethodOptions& options_;
  std::set<std::string, std::less<>> read_;
  std::vector<std::pair<std::string, std::string>> used_;
  std::vector<std::string> errors_;
};

}  // namespace gaus
