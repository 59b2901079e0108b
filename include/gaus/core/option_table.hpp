// One declared table per method's options (name, type, default taken from the options struct,
// range, one-line doc), used to parse the string map, to check it (an unknown name is an error
// naming the nearest known one), to echo the values used in the Result and to document the
// method in `gaus methods` and the docs. Parsing, echo and documentation come from the same
// entries, so they cannot disagree; a test round-trips every option of every method.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <gaus/core/enum_names.hpp>
#include <gaus/core/expected.hpp>
#include <gaus/core/options.hpp>

namespace gaus {

namespace option_text {

// The text forms every table shares. Each returns the value or a message saying what was
// expected ("expects an integer, got 'x'").
Expected<std::int64_t> parseInteger(std::string_view text);
Expected<double> parseNumber(std::string_view text);  // finite numbers only
Expected<bool> parseBoolean(std::string_view text);   // true/false, 1/0, yes/no, on/off
std::string formatNumber(double value);               // shortest text that reads back the same
// The known name closest to `given` by edit distance, when it is close enough to be a typo.
std::optional<std::string> nearestName(std::string_view given,
                                       const std::vector<std::string>& known);
// " (did you mean 'NAME'?)" when a known name is close to `given` (nearestName), else nothing:
// the one suggestion of every message about an unknown name (options, methods, kernels, flags,
// experiment keys). `suffix` follows the name inside the quotes ("'time_limit: 5'").
std::string didYouMean(std::string_view given, const std::vector<std::string>& known,
                       std::string_view suffix = {});
// Options from "KEY=VALUE" texts (-O, --option), a later KEY replacing an earlier one; `flag`
// names where they came from in the message ("-O 'x': expected KEY=VALUE").
Expected<MethodOptions> parseAssignments(const std::vector<std::string>& assignments,
                                         std::string_view flag);
// "a, b or c": the known names of a message. `lastSeparator` ", " lists them all with commas
// ("(name, kind, latency)"), where a message names everything a place accepts. The one join of
// every list of names in a message.
template <class Names>
std::string listChoices(const Names& names, std::string_view lastSeparator = " or ") {
  std::string text;
  const std::size_t count = std::size(names);
  std::size_t index = 0;
  for (const auto& name : names) {
    if (index > 0) text += index + 1 == count ? lastSeparator : std::string_view(", ");
    text += name;
    ++index;
  }
  return text;
}

}  // namespace option_text

template <class Options>
class OptionTable {
 public:
  // Returns what is wrong with a value, or nothing when it is accepted.
  using FieldParser = std::function<std::optional<std::string>(Options&, std::string_view)>;
  // The same for a typed setting (a number, a flag): assigned as it is, never through text.
  using FieldSetter = std::function<std::optional<std::string>(Options&, const SettingValue&)>;
  using FieldFormatter = std::function<std::string(const Options&)>;
  using Rule = std::function<std::optional<std::string>(const Options&)>;

  explicit OptionTable(std::string method) : method_(std::move(method)) {}

  // A field of type bool, an integer type, double, std::string or std::optional of a number.
  // `access` is a data member pointer (&Options::seed) or a function returning a reference to
  // the field ([](Options& o) -> bool& { return o.milp.useWindows; }).
  template <class Access>
  OptionTable& add(std::string name, Access access, std::string description,
                   NumericRange range = {});

  // An enum field spelled by `names`.
  template <class Access, class Enum, std::size_t N>
  OptionTable& add(std::string name, Access access, const EnumNames<Enum, N>& names,
                   std::string description);

  // A text field that takes one of `choices` (for options whose values are names the engine
  // passes on, such as a device).
  template <class Access>
  OptionTable& add(std::string name, Access access, std::vector<std::string> choices,
                   std::string description);

  // A field with its own text form (e.g. a comma-separated list of names).
  OptionTable& addCustom(OptionDoc doc, FieldParser parse, FieldFormatter format) {
    fields_.push_back({std::move(doc), std::move(parse), std::move(format), {}});
    return *this;
  }

  // Says in words how the default of the option added last is found, where it depends on the
  // machine (OptionDoc::defaultRule).
  OptionTable& defaultFrom(std::string rule) {
    fields_.back().doc.defaultRule = std::move(rule);
    return *this;
  }

  // A rule across fields, checked once every field is read ("sigma_max must exceed sigma_min").
  OptionTable& require(Rule rule) {
    rules_.push_back(std::move(rule));
    return *this;
  }

  // The options struct from `defaults` with the settings, then the given values applied (a
  // setting that `given` also names does not apply: a method's own option wins). Fails with one
  // message naming the method and every problem: unknown names (with the nearest known one),
  // values that do not parse, values out of range, broken rules.
  Expected<Options> parse(const MethodOptions& given, const Settings& settings,
                          Options defaults = Options{}) const;
  Expected<Options> parse(const MethodOptions& given, Options defaults = Options{}) const {
    return parse(given, Settings{}, std::move(defaults));
  }

  // Every option with the value `options` holds, in declaration order.
  OptionValues echo(const Options& options) const {
    OptionValues values;
    for (const auto& field : fields_) values.emplace_back(field.doc.name, field.format(options));
    return values;
  }

  std::vector<OptionDoc> docs(const Options& defaults = Options{}) const {
    std::vector<OptionDoc> result;
    for (const auto& field : fields_) {
      OptionDoc doc = field.doc;
      doc.defaultValue = field.format(defaults);
      result.push_back(std::move(doc));
    }
    return result;
  }

  std::vector<std::string> names() const {
    std::vector<std::string> result;
    for (const auto& field : fields_) result.push_back(field.doc.name);
    return result;
  }

  const std::string& method() const { return method_; }

 private:
  struct Field {
    OptionDoc doc;  // defaultValue is filled in by docs()
    FieldParser parse;
    FieldFormatter format;
    // Typed settings; empty: a text field, which reads the setting's text (formatSetting).
    FieldSetter set;
  };

  template <class Access>
  static auto& fieldOf(Access access, const Options& options) {
    // Formatting reads through the same accessor that parsing writes through.
    return std::invoke(access, const_cast<Options&>(options));
  }

  std::string method_;
  std::vector<Field> fields_;
  std::vector<Rule> rules_;
};

namespace option_detail {

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {
  using Inner = T;
};

template <class Number>
constexpr const char* numberTypeName() {
  if constexpr (std::is_integral_v<Number>) return "integer";
  return "number";
}

// Parses a number of type Number, checking that it fits the type and the range.
template <class Number>
std::optional<std::string> parseNumberInto(Number& target, std::string_view text,
                                           const NumericRange& range) {
  Number value{};
  if constexpr (std::is_integral_v<Number>) {
    const auto parsed = option_text::parseInteger(text);
    if (!parsed) return parsed.error();
    if constexpr (std::is_unsigned_v<Number>) {
      if (*parsed < 0) return "expects an integer >= 0, got '" + std::string(text) + "'";
    } else {
      if (*parsed < static_cast<std::int64_t>(std::numeric_limits<Number>::min()) ||
          *parsed > static_cast<std::int64_t>(std::numeric_limits<Number>::max())) {
        return "expects an integer that fits " + std::to_string(sizeof(Number) * 8) +
               " bits, got '" + std::string(text) + "'";
      }
    }
    value = static_cast<Number>(*parsed);
  } else {
    const auto parsed = option_text::parseNumber(text);
    if (!parsed) return parsed.error();
    value = static_cast<Number>(*parsed);
  }
  if (!range.contains(static_cast<double>(value))) {
    return "= " + std::string(text) + " must be " + range.describe();
  }
  target = value;
  return std::nullopt;
}

// Assigns a typed setting to a number of type Number: an integer or a number (a whole number for
// an integer field), checked against the type and the range as parsed text would be.
template <class Number>
std::optional<std::string> assignNumber(Number& target, const SettingValue& value,
                                        const NumericRange& range) {
  const std::string text = formatSetting(value);
  if (std::holds_alternative<bool>(value) || std::holds_alternative<std::string>(value)) {
    return std::string("expects ") + numberTypeName<Number>() + ", got '" + text + "'";
  }
  const double number = std::holds_alternative<double>(value)
                            ? std::get<double>(value)
                            : static_cast<double>(std::get<std::int64_t>(value));
  if constexpr (std::is_integral_v<Number>) {
    if (std::holds_alternative<double>(value) &&
        (number != static_cast<double>(static_cast<std::int64_t>(number)))) {
      return "expects an integer, got '" + text + "'";
    }
    const std::int64_t whole = std::holds_alternative<std::int64_t>(value)
                                   ? std::get<std::int64_t>(value)
                                   : static_cast<std::int64_t>(number);
    if constexpr (std::is_unsigned_v<Number>) {
      if (whole < 0) return "expects an integer >= 0, got '" + text + "'";
    } else {
      if (whole < static_cast<std::int64_t>(std::numeric_limits<Number>::min()) ||
          whole > static_cast<std::int64_t>(std::numeric_limits<Number>::max())) {
        return "expects an integer that fits " + std::to_string(sizeof(Number) * 8) +
               " bits, got '" + text + "'";
      }
    }
    if (!range.contains(number)) return "= " + text + " must be " + range.describe();
    target = static_cast<Number>(whole);
  } else {
    if (!range.contains(number)) return "= " + text + " must be " + range.describe();
    target = static_cast<Number>(number);
  }
  return std::nullopt;
}

template <class Number>
std::string formatNumberField(Number value) {
  if constexpr (std::is_integral_v<Number>) {
    return std::to_string(value);
  } else {
    return option_text::formatNumber(static_cast<double>(value));
  }
}

}  // namespace option_detail

template <class Options>
template <class Access>
OptionTable<Options>& OptionTable<Options>::add(std::string name, Access access,
                                                std::string description, NumericRange range) {
  using Value = std::remove_cvref_t<decltype(std::invoke(access, std::declval<Options&>()))>;
  OptionDoc doc;
  doc.name = std::move(name);
  doc.description = std::move(description);
  doc.range = range;
  FieldParser parse;
  FieldFormatter format;
  FieldSetter set;
  if constexpr (std::is_same_v<Value, bool>) {
    doc.type = "boolean";
    parse = [access](Options& options, std::string_view text) -> std::optional<std::string> {
      const auto parsed = option_text::parseBoolean(text);
      if (!parsed) return parsed.error();
      std::invoke(access, options) = *parsed;
      return std::nullopt;
    };
    format = [access](const Options& options) -> std::string {
      return fieldOf(access, options) ? "true" : "false";
    };
    set = [access, parse](Options& options, const SettingValue& value) -> std::optional<std::string> {
      if (const bool* flag = std::get_if<bool>(&value)) {
        std::invoke(access, options) = *flag;
        return std::nullopt;
      }
      return parse(options, formatSetting(value));
    };
  } else if constexpr (std::is_same_v<Value, std::string>) {
    doc.type = "text";
    parse = [access](Options& options, std::string_view text) -> std::optional<std::string> {
      std::invoke(access, options) = std::string(text);
      return std::nullopt;
    };
    format = [access](const Options& options) -> std::string { return fieldOf(access, options); };
  } else if constexpr (option_detail::IsOptional<Value>::value) {
    using Number = typename option_detail::IsOptional<Value>::Inner;
    static_assert(std::is_arithmetic_v<Number>, "optional options hold numbers");
    doc.type = std::string(option_detail::numberTypeName<Number>()) + " or none";
    parse = [access, range](Options& options, std::string_view text) -> std::optional<std::string> {
      auto& field = std::invoke(access, options);
      if (text == "none") {
        field.reset();
        return std::nullopt;
      }
      Number value{};
      if (auto problem = option_detail::parseNumberInto(value, text, range)) return problem;
      field = value;
      return std::nullopt;
    };
    format = [access](const Options& options) -> std::string {
      const auto& field = fieldOf(access, options);
      return field ? option_detail::formatNumberField(*field) : std::string("none");
    };
    set = [access, range, parse](Options& options,
                                 const SettingValue& value) -> std::optional<std::string> {
      if (const std::string* text = std::get_if<std::string>(&value)) return parse(options, *text);
      Number number{};
      if (auto problem = option_detail::assignNumber(number, value, range)) return problem;
      std::invoke(access, options) = number;
      return std::nullopt;
    };
  } else {
    static_assert(std::is_arithmetic_v<Value>, "unsupported option type");
    doc.type = option_detail::numberTypeName<Value>();
    parse = [access, range](Options& options, std::string_view text) -> std::optional<std::string> {
      return option_detail::parseNumberInto(std::invoke(access, options), text, range);
    };
    format = [access](const Options& options) -> std::string {
      return option_detail::formatNumberField(fieldOf(access, options));
    };
    set = [access, range, parse](Options& options,
                                 const SettingValue& value) -> std::optional<std::string> {
      if (const std::string* text = std::get_if<std::string>(&value)) return parse(options, *text);
      return option_detail::assignNumber(std::invoke(access, options), value, range);
    };
  }
  fields_.push_back({std::move(doc), std::move(parse), std::move(format), std::move(set)});
  return *this;
}

template <class Options>
template <class Access, class Enum, std::size_t N>
OptionTable<Options>& OptionTable<Options>::add(std::string name, Access access,
                                                const EnumNames<Enum, N>& names,
                                                std::string description) {
  OptionDoc doc;
  doc.name = std::move(name);
  doc.type = "choice";
  doc.choices = names.names();
  doc.description = std::move(description);
  auto parse = [access, names](Options& options,
                               std::string_view text) -> std::optional<std::string> {
    const auto parsed = names.parse(text);
    if (!parsed) {
      return "expects " + option_text::listChoices(names.names()) + ", got '" + std::string(text) +
             "'";
    }
    std::invoke(access, options) = *parsed;
    return std::nullopt;
  };
  auto format = [access, names](const Options& options) -> std::string {
    return std::string(names.name(fieldOf(access, options)));
  };
  fields_.push_back({std::move(doc), std::move(parse), std::move(format), {}});
  return *this;
}

template <class Options>
template <class Access>
OptionTable<Options>& OptionTable<Options>::add(std::string name, Access access,
                                                std::vector<std::string> choices,
                                                std::string description) {
  OptionDoc doc;
  doc.name = std::move(name);
  doc.type = "choice";
  doc.choices = choices;
  doc.description = std::move(description);
  auto parse = [access, choices](Options& options,
                                 std::string_view text) -> std::optional<std::string> {
    if (std::find(choices.begin(), choices.end(), text) == choices.end()) {
      return "expects " + option_text::listChoices(choices) + ", got '" + std::string(text) + "'";
    }
    std::invoke(access, options) = std::string(text);
    return std::nullopt;
  };
  auto format = [access](const Options& options) -> std::string {
    return fieldOf(access, options);
  };
  fields_.push_back({std::move(doc), std::move(parse), std::move(format), {}});
  return *this;
}

template <class Options>
Expected<Options> OptionTable<Options>::parse(const MethodOptions& given, const Settings& settings,
                                              Options defaults) const {
  std::vector<std::string> problems;
  std::vector<std::string> known = names();
  for (const auto& [name, value] : settings) {
    if (given.contains(name)) continue;
    const Field* field = nullptr;
    for (const auto& candidate : fields_) {
      if (candidate.doc.name == name) field = &candidate;
    }
    if (field == nullptr) {
      problems.push_back("unknown option '" + name + "'" + option_text::didYouMean(name, known));
      continue;
    }
    const auto problem =
        field->set ? field->set(defaults, value) : field->parse(defaults, formatSetting(value));
    if (problem) problems.push_back("option '" + name + "' " + *problem);
  }
  for (const auto& [name, text] : given) {
    const Field* field = nullptr;
    for (const auto& candidate : fields_) {
      if (candidate.doc.name == name) field = &candidate;
    }
    if (field == nullptr) {
      problems.push_back("unknown option '" + name + "'" + option_text::didYouMean(name, known));
      continue;
    }
    if (auto problem = field->parse(defaults, text)) {
      problems.push_back("option '" + name + "' " + *problem);
    }
  }
  if (problems.empty()) {
    for (const auto& rule : rules_) {
      if (auto problem = rule(defaults)) problems.push_back(*problem);
    }
  }
  if (problems.empty()) return defaults;
  std::string message = "method " + method_ + ": ";
  for (std::size_t i = 0; i < problems.size(); ++i) message += (i ? "; " : "") + problems[i];
  if (message.find("unknown option") != std::string::npos) {
    message += " (known: " + option_text::listChoices(known) + ")";
  }
  return Error{message};
}

}  // namespace gaus
