// Method options as the CLI and the experiment YAML hold them: a map from snake_case name to text.
// Every method declares its options in an OptionTable (option_table.hpp), which parses this map
// into the method's options struct, checks it, echoes the values used and documents them.
// Settings, the values a caller gives every method at once, are typed instead (Settings).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace gaus {

using MethodOptions = std::map<std::string, std::string, std::less<>>;

// The value of a setting (--time-limit, --memory-limit, --seed, ...; an experiment's budget),
// typed once it is past the edge it came in by: a flag, a count or bytes, seconds, or a word
// (a device, a formulation). Text only where the edge does not know the type (a value of an
// experiment's `settings:`), which the option table then reads as it reads -O, once.
using SettingValue = std::variant<bool, std::int64_t, double, std::string>;
// Settings by option name: each reaches a method as its option of that name, where it declares
// one (applySettings, methods/registry.hpp).
using Settings = std::map<std::string, SettingValue, std::less<>>;
// The value as a message or a record writes it: "true", "5", "2.5", "cuda".
std::string formatSetting(const SettingValue& value);

// Every option of a method with the value a run used, in the method's declaration order: what a
// Result echoes, so that a run says exactly what produced it.
using OptionValues = std::vector<std::pair<std::string, std::string>>;

// The allowed values of a numeric option.
struct NumericRange {
  std::optional<double> min;
  std::optional<double> max;
  bool minExclusive = false;
  bool maxExclusive = false;

  static NumericRange atLeast(double value) { return {value, std::nullopt, false, false}; }
  static NumericRange above(double value) { return {value, std::nullopt, true, false}; }
  static NumericRange between(double low, double high) { return {low, high, false, false}; }
  static NumericRange aboveUpTo(double low, double high) { return {low, high, true, false}; }

  bool contains(double value) const;
  std::string describe() const;  // ">= 1", "> 0", "in [0, 1]", "in (0, 1]"; empty: any value
};

// The documentation of one option, generated from the table that parses it (`gaus methods`).
struct OptionDoc {
  std::string name;
  std::string type;                  // boolean, integer, number, text, choice, list, ...
  std::vector<std::string> choices;  // the accepted values of a choice or list option
  std::string defaultValue;          // as echoed; "none" for an option unset by default
  NumericRange range;                // of a number; unbounded for other types
  std::string description;
  // A default that depends on the machine, in words ("90 % of physical memory"); empty when
  // defaultValue is the same everywhere. `gaus methods --json` gives this instead of the value.
  std::string defaultRule;
};

}  // namespace gaus
