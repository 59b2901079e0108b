// A JSON value that remembers the line it started on, so that every reader can say where a bad
// value is. JSON and YAML documents are both read into this one tree (yaml_document.cpp), and the
// typed accessors below check types and ranges once for every format, throwing InputError with
// the value's line: `asNonNegativeInt32(v, "latency for op 'a'")` fails with
//   "expected a nonnegative integer latency for op 'a', found -1".
#pragma once

#include <cmath>
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/types.hpp>

namespace gaus::io {

struct JsonValue {
  enum class Kind : std::uint8_t {
    kNull,
    kBool,
    kInteger,   // fits in int64
    kUnsigned,  // an integer above the int64 range (always an overflow for gaus)
    kFloat,
    kString,
    kArray,
    kObject,
  };
  Kind kind = Kind::kNull;
  bool boolean = false;
  std::int64_t integer = 0;
  std::uint64_t unsignedInteger = 0;
  double number = 0.0;
  std::string text;               // kString: the string; kFloat: the number as written
  std::vector<JsonValue> items;   // kArray: the elements; kObject: the values
  std::vector<std::string> keys;  // kObject: the keys, parallel to `items`, in document order
  std::int64_t line = 0;          // where the value starts; 0 when unknown

  bool isNull() const { return kind == Kind::kNull; }
  bool isObject() const { return kind == Kind::kObject; }
  bool isArray() const { return kind == Kind::kArray; }
  bool isString() const { return kind == Kind::kString; }
  bool isNumber() const {
    return kind == Kind::kInteger || kind == Kind::kUnsigned || kind == Kind::kFloat;
  }

  // The member of an object named `key`, or null when absent (or when this is no object).
  const JsonValue* find(std::string_view key) const;

  // How the value reads in a message: "\"two\"", "-1", "1.5", "an object", "an array", "null".
  std::string describe() const;

  // Turns the value into an empty one of `kind` at `line`, keeping allocated capacity (the
  // streaming reader reuses one value for millions of array elements).
  void reset(Kind newKind, std::int64_t newLine);
};

// ---- typed access; each throws InputError at the value's line ----
// `what` names the value for the message: "latency for op 'a'".
const JsonValue& asObject(const JsonValue& value, std::string_view what);
const JsonValue& asArray(const JsonValue& value, std::string_view what);
const std::string& asString(const JsonValue& value, std::string_view what);
bool asBool(const JsonValue& value, std::string_view what);
// Any integer in the int32 range (an integral float such as 2.0 counts as an integer).
std::int32_t asInt32(const JsonValue& value, std::string_view what);
std::int32_t asNonNegativeInt32(const JsonValue& value, std::string_view what);
std::int32_t asPositiveInt32(const JsonValue& value, std::string_view what);
// A start cycle: a nonnegative integer in the int64 range.
std::int64_t asCycle(const JsonValue& value, std::string_view what);
// A finite number whose magnitude is within the int32 range (weights, memory, communication).
double asNumber(const JsonValue& value, std::string_view what);

// The same with the description built only on failure (`describe` returns a std::string), for
// hot loops: a 10^6-op document would otherwise format millions of unused messages.
template <typename Describe>
requires std::invocable<Describe>
const std::string& asString(const JsonValue& value, Describe&& describe) {
  if (value.isString()) return value.text;
  return asString(value, std::string_view(describe()));
}
template <typename Describe>
requires std::invocable<Describe> std::int32_t asNonNegativeInt32(const JsonValue& value,
                                                                  Describe&& describe) {
  if (value.kind == JsonValue::Kind::kInteger && value.integer >= 0 &&
      value.integer <= kMaxInputValue) {
    return static_cast<std::int32_t>(value.integer);
  }
  return asNonNegativeInt32(value, std::string_view(describe()));
}
template <typename Describe>
requires std::invocable<Describe> std::int32_t asPositiveInt32(const JsonValue& value,
                                                               Describe&& describe) {
  if (value.kind == JsonValue::Kind::kInteger && value.integer >= 1 &&
      value.integer <= kMaxInputValue) {
    return static_cast<std::int32_t>(value.integer);
  }
  return asPositiveInt32(value, std::string_view(describe()));
}

template <typename Describe>
requires std::invocable<Describe>
bool asBool(const JsonValue& value, Describe&& describe) {
  if (value.kind == JsonValue::Kind::kBool) return value.boolean;
  return asBool(value, std::string_view(describe()));
}
template <typename Describe>
requires std::invocable<Describe>
double asNumber(const JsonValue& value, Describe&& describe) {
  if (value.kind == JsonValue::Kind::kInteger && value.integer <= kMaxInputValue &&
      value.integer >= -kMaxInputValue) {
    return static_cast<double>(value.integer);
  }
  if (value.kind == JsonValue::Kind::kFloat && std::isfinite(value.number) &&
      std::fabs(value.number) <= static_cast<double>(kMaxInputValue)) {
    return value.number;
  }
  return asNumber(value, std::string_view(describe()));
}
template <typename Describe>
requires std::invocable<Describe>
const JsonValue& asArray(const JsonValue& value, Describe&& describe) {
  if (value.isArray()) return value;
  return asArray(value, std::string_view(describe()));
}
template <typename Describe>
requires std::invocable<Describe>
const JsonValue& asObject(const JsonValue& value, Describe&& describe) {
  if (value.isObject()) return value;
  return asObject(value, std::string_view(describe()));
}

// The member `key` of `object`; throws "expected a member KEY in WHAT" at the object's line.
const JsonValue& requireMember(const JsonValue& object, std::string_view key,
                               std::string_view what);

// Throws on the first key of `object` not in `allowed`, and on a key given twice.
void checkKeys(const JsonValue& object, std::initializer_list<std::string_view> allowed,
               std::string_view what);

}  // namespace gaus::io
