// JSON text into JsonValue trees with line numbers, through nlohmann's SAX interface. Two ways:
// the whole document as one tree (small files: HeuriGym, Triton, schedules), or streaming, where
// the elements of chosen top-level arrays are handed over one at a time and never stored (the
// native reader loads 10^6-op graphs this way without a DOM of millions of objects).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include <gaus/io/json_value.hpp>

namespace gaus::io {

// The whole document. Throws InputError (with the line) on a syntax error.
JsonValue parseJson(std::string_view text);

struct JsonStreamCallbacks {
  // True for top-level keys whose array value should be streamed element by element.
  std::function<bool(std::string_view key)> streamsKey;
  // One element of a streamed array. The value is reused for the next element: copy what you keep.
  std::function<void(std::string_view key, const JsonValue& element)> element;
  // Every other top-level member, whole.
  std::function<void(std::string_view key, JsonValue&& value)> member;
};

// A document whose top level is an object, streamed. Throws InputError on a syntax error, on a
// top level that is not an object and on a top-level key given twice.
void parseJsonStream(std::string_view text, const JsonStreamCallbacks& callbacks);

// nlohmann's description of a syntax error in the "expected X, found Y" shape.
std::string describeJsonSyntaxError(const std::string& what);

}  // namespace gaus::io
