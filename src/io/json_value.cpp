#include <cmath>
#include <limits>

#include <fmt/format.h>

#include <gaus/core/option_table.hpp>
#include <gaus/core/types.hpp>
#include <gaus/io/input_error.hpp>
#include <gaus/io/json_value.hpp>

namespace gaus::io {

namespace {

[[noreturn]] void fail(const JsonValue& value, std::string_view expected) {
  throw InputError(value.line, expectedFound(expected, value.describe()));
}

[[noreturn]] void failOverflow(const JsonValue& value, std::string_view expected) {
  throw InputError(value.line, expectedFound(expected, value.describe() + " (integer overflow)"));
}

// The value as an int64 when it is an integer (or an integral float) in the int64 range; sets
// `overflow` for integers beyond it.
bool integerValue(const JsonValue& value, std::int64_t& out, bool& overflow) {
  overflow = false;
  switch (value.kind) {
    case JsonValue::Kind::kInteger:
      out = value.integer;
      return true;
    case JsonValue::Kind::kUnsigned:
      overflow = true;
      return true;
    case JsonValue::Kind::kFloat:
      if (!std::isfinite(value.number) || std::trunc(value.number) != value.number) return false;
      // 2^63 as a double: anything at or beyond it does not fit.
      if (std::fabs(value.number) >= 9223372036854775808.0) {
        overflow = true;
        return true;
      }
      out = static_cast<std::int64_t>(value.number);
      return true;
    default:
      return false;
  }
}

}  // namespace

const JsonValue* JsonValue::find(std::string_view key) const {
  if (kind != Kind::kObject) return nullptr;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] == key) return &items[i];
  }
  return nullptr;
}

std::string JsonValue::describe() const {
  switch (kind) {
    case Kind::kNull:
      return "null";
    case Kind::kBool:
      return boolean ? "true" : "false";
    case Kind::kInteger:
      return std::to_string(integer);
    case Kind::kUnsigned:
      return std::to_string(unsignedInteger);
    case Kind::kFloat:
      return text.empty() ? fmt::format("{}", number) : text;
    case Kind::kString:
      return quoteText(text);
    case Kind::kArray:
      return "an array";
    case Kind::kObject:
      return "an object";
  }
  return "a value";
}

void JsonValue::reset(Kind newKind, std::int64_t newLine) {
  kind = newKind;
  line = newLine;
  text.clear();
  items.clear();
  keys.clear();
}

const JsonValue& asObject(const JsonValue& value, std::string_view what) {
  if (!value.isObject()) fail(value, fmt::format("an object for {}", what));
  return value;
}

const JsonValue& asArray(const JsonValue& value, std::string_view what) {
  if (!value.isArray()) fail(value, fmt::format("an array for {}", what));
  return value;
}

const std::string& asString(const JsonValue& value, std::string_view what) {
  if (!value.isString()) fail(value, fmt::format("a string for {}", what));
  return value.text;
}

bool asBool(const JsonValue& value, std::string_view what) {
  if (value.kind != JsonValue::Kind::kBool) fail(value, fmt::format("true or false for {}", what));
  return value.boolean;
}

std::int32_t asInt32(const JsonValue& value, std::string_view what) {
  std::int64_t integer = 0;
  bool overflow = false;
  if (!integerValue(value, integer, overflow)) fail(value, fmt::format("an integer {}", what));
  if (overflow || integer > kMaxInputValue || integer < -kMaxInputValue) {
    failOverflow(value, fmt::format("an integer {} within the int32 range (|value| <= {})", what,
                                    kMaxInputValue));
  }
  return static_cast<std::int32_t>(integer);
}

std::int32_t asNonNegativeInt32(const JsonValue& value, std::string_view what) {
  const std::int32_t result = asInt32(value, what);
  if (result < 0) fail(value, fmt::format("a nonnegative integer {}", what));
  return result;
}

std::int32_t asPositiveInt32(const JsonValue& value, std::string_view what) {
  const std::int32_t result = asInt32(value, what);
  if (result < 1) fail(value, fmt::format("a positive integer {}", what));
  return result;
}

std::int64_t asCycle(const JsonValue& value, std::string_view what) {
  std::int64_t integer = 0;
  bool overflow = false;
  if (!integerValue(value, integer, overflow)) fail(value, fmt::format("an integer {}", what));
  if (overflow) failOverflow(value, fmt::format("an integer {} within the int64 range", what));
  if (integer < 0) fail(value, fmt::format("a nonnegative integer {}", what));
  return integer;
}

double asNumber(const JsonValue& value, std::string_view what) {
  double number = 0.0;
  switch (value.kind) {
    case JsonValue::Kind::kInteger:
      number = static_cast<double>(value.integer);
      break;
    case JsonValue::Kind::kUnsigned:
      failOverflow(value, fmt::format("a number {} within the int32 range", what));
    case JsonValue::Kind::kFloat:
      number = value.number;
      break;
    default:
      fail(value, fmt::format("a number {}", what));
  }
  if (!std::isfinite(number) || std::fabs(number) > static_cast<double>(kMaxInputValue)) {
    failOverflow(value, fmt::format("a number {} within the int32 range (|value| <= {})", what,
                                    kMaxInputValue));
  }
  return number;
}

const JsonValue& requireMember(const JsonValue& object, std::string_view key,
                               std::string_view what) {
  const JsonValue* member = object.find(key);
  if (member == nullptr) {
    throw InputError(object.line,
                     expectedFound(fmt::format("a member \"{}\" in {}", key, what), "none"));
  }
  return *member;
}

void checkKeys(const JsonValue& object, std::initializer_list<std::string_view> allowed,
               std::string_view what) {
  for (std::size_t i = 0; i < object.keys.size(); ++i) {
    const std::string& key = object.keys[i];
    bool known = false;
    for (std::string_view name : allowed) known = known || name == key;
    if (!known) {
      throw InputError(object.items[i].line,
                       expectedFound(fmt::format("a key of {} ({})", what,
                                                 option_text::listChoices(allowed, ", ")),
                                     quoteText(key)));
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (object.keys[j] == key) {
        throw InputError(object.items[i].line,
                         expectedFound(fmt::format("each key once in {}", what),
                                       fmt::format("{} a second time", quoteText(key))));
      }
    }
  }
}

}  // namespace gaus::io
