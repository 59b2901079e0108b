// Line numbers: nlohmann's SAX events carry no position, so the parser reads the text through an
// iterator that records how far the lexer has read; at each event the line is the number of
// newlines before that point, counted incrementally (the whole count is linear in the text).
// The lexer reads one character past a number before it reports it; backing up over trailing
// whitespace puts the position back on the token's line.

#include "json_parse.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <string>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <gaus/io/input_error.hpp>

namespace gaus::io {

namespace {

// Deeper nesting than this is refused: the trees are destroyed recursively, and no format of
// gaus nests more than a handful of levels.
constexpr std::size_t kMaxNesting = 200;

// A forward iterator over the text that publishes its position to `cursor` as it advances.
class TrackedIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  TrackedIterator(const char* position, const char** cursor)
      : position_(position), cursor_(cursor) {}
  reference operator*() const { return *position_; }
  TrackedIterator& operator++() {
    *cursor_ = ++position_;
    return *this;
  }
  TrackedIterator operator++(int) {
    TrackedIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const TrackedIterator& other) const { return position_ == other.position_; }
  bool operator!=(const TrackedIterator& other) const { return position_ != other.position_; }

 private:
  const char* position_;
  const char** cursor_;
};

bool isJsonSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

}  // namespace

// nlohmann's messages read "[json.exception.parse_error.101] parse error at line 3, column 1:
// syntax error while parsing object - unexpected end of input; expected string literal". This
// turns them into "expected string literal, found end of input (while parsing object)".
std::string describeJsonSyntaxError(const std::string& what) {
  std::string detail = what;
  if (const auto column = detail.find("column "); column != std::string::npos) {
    if (const auto colon = detail.find(": ", column); colon != std::string::npos) {
      detail = detail.substr(colon + 2);
    }
  } else if (const auto bracket = detail.find("] "); bracket != std::string::npos) {
    detail = detail.substr(bracket + 2);
  }
  std::string context;
  constexpr std::string_view kSyntax = "syntax error while parsing ";
  if (detail.starts_with(kSyntax)) {
    const auto dash = detail.find(" - ");
    context = detail.substr(kSyntax.size(),
                            dash == std::string::npos ? std::string::npos : dash - kSyntax.size());
    detail = dash == std::string::npos ? std::string{} : detail.substr(dash + 3);
  }
  std::string found = detail;
  std::string expected = "valid JSON";
  if (const auto semicolon = detail.find("; expected "); semicolon != std::string::npos) {
    found = detail.substr(0, semicolon);
    expected = detail.substr(semicolon + 11);
  }
  if (found.starts_with("unexpected ")) found = found.substr(11);
  if (found.starts_with("number overflow")) {
    return expectedFound("a number within the range of a double", found);
  }
  if (!context.empty()) found += fmt::format(" (while parsing {})", context);
  return expectedFound(expected, found);
}

namespace {

class LocatedSax {
 public:
  using json = nlohmann::json;

  LocatedSax(const char* begin, const JsonStreamCallbacks* streaming)
      : cursor_(begin), counted_(begin), streaming_(streaming) {}

  const char** cursorSlot() { return &cursor_; }
  JsonValue& root() { return root_; }

  // ---- nlohmann SAX interface ----
  bool null() { return scalar(JsonValue::Kind::kNull); }
  bool boolean(bool value) {
    scalarValue(JsonValue::Kind::kBool).boolean = value;
    return finishScalar();
  }
  bool number_integer(json::number_integer_t value) {
    scalarValue(JsonValue::Kind::kInteger).integer = value;
    return finishScalar();
  }
  bool number_unsigned(json::number_unsigned_t value) {
    if (value <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      scalarValue(JsonValue::Kind::kInteger).integer = static_cast<std::int64_t>(value);
    } else {
      scalarValue(JsonValue::Kind::kUnsigned).unsignedInteger = value;
    }
    return finishScalar();
  }
  bool number_float(json::number_float_t value, const json::string_t& text) {
    JsonValue& slot = scalarValue(JsonValue::Kind::kFloat);
    slot.number = value;
    slot.text = text;
    return finishScalar();
  }
  bool string(json::string_t& value) {
    scalarValue(JsonValue::Kind::kString).text = value;
    return finishScalar();
  }
  bool binary(json::binary_t& /*value*/) {
    throw InputError(line(), expectedFound("JSON text", "binary data"));
  }
  bool start_object(std::size_t /*size*/) { return open(JsonValue::Kind::kObject); }
  bool start_array(std::size_t /*size*/) { return open(JsonValue::Kind::kArray); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(json::string_t& key) {
    if (stack_.empty()) {
      // A key of the streamed document's top-level object.
      topKey_ = key;
      if (!topKeys_.insert(key).second) {
        throw InputError(line(), expectedFound("each top-level key once",
                                               fmt::format("{} a second time", quoteText(key))));
      }
    } else {
      stack_.back()->keys.push_back(key);
    }
    return true;
  }
  bool parse_error(std::size_t /*position*/, const std::string& /*token*/,
                   const nlohmann::detail::exception& error) {
    // The line of the offending token; at the end of the input, the last line with text.
    throw InputError(line(), describeJsonSyntaxError(error.what()));
  }

 private:
  enum class Level { kBeforeTop, kInTop, kInStreamedArray, kAfterTop };

  std::int64_t line() {
    const char* end = cursor_;
    while (end > counted_ && isJsonSpace(end[-1])) --end;
    line_ += std::count(counted_, end, '\n');
    counted_ = end;
    return line_;
  }
  // Decides where a value that starts with no open container goes. False: the value is
  // structure of the streamed document (its top-level object, a streamed array), not stored.
  bool beginCapture(JsonValue::Kind kind) {
    if (streaming_ == nullptr) {
      target_ = &root_;
      delivery_ = Delivery::kNone;
      return true;
    }
    switch (level_) {
      case Level::kBeforeTop:
        if (kind != JsonValue::Kind::kObject) {
          throw InputError(
              line(),
              expectedFound("a JSON object at the top level",
                            kind == JsonValue::Kind::kArray ? "an array" : "a single value"));
        }
        level_ = Level::kInTop;
        return false;
      case Level::kInTop:
        if (kind == JsonValue::Kind::kArray && streaming_->streamsKey(topKey_)) {
          level_ = Level::kInStreamedArray;
          return false;
        }
        member_ = JsonValue{};
        target_ = &member_;
        delivery_ = Delivery::kMember;
        return true;
      case Level::kInStreamedArray:
        target_ = &scratch_;
        delivery_ = Delivery::kElement;
        return true;
      case Level::kAfterTop:
        break;
    }
    throw InputError(line(), expectedFound("the end of the document", "more values"));
  }

  JsonValue& place(JsonValue::Kind kind) {
    if (stack_.empty()) {
      target_->reset(kind, line());
      return *target_;
    }
    JsonValue& parent = *stack_.back();
    parent.items.emplace_back();
    JsonValue& value = parent.items.back();
    value.kind = kind;
    value.line = line();
    return value;
  }

  JsonValue& scalarValue(JsonValue::Kind kind) {
    if (stack_.empty() && !beginCapture(kind)) {
      throw InputError(line(), expectedFound("an object or array", "a single value"));
    }
    return place(kind);
  }
  bool scalar(JsonValue::Kind kind) {
    scalarValue(kind);
    return finishScalar();
  }
  bool finishScalar() {
    if (stack_.empty()) deliver();
    return true;
  }

  bool open(JsonValue::Kind kind) {
    if (stack_.empty() && !beginCapture(kind)) return true;
    JsonValue& value = place(kind);
    stack_.push_back(&value);
    if (stack_.size() > kMaxNesting) {
      throw InputError(line(), expectedFound(fmt::format("at most {} nested levels", kMaxNesting),
                                             "deeper nesting"));
    }
    return true;
  }

  bool close() {
    if (stack_.empty()) {
      // The end of a streamed array or of the streamed top-level object.
      level_ = level_ == Level::kInStreamedArray ? Level::kInTop : Level::kAfterTop;
      return true;
    }
    stack_.pop_back();
    if (stack_.empty()) deliver();
    return true;
  }

  void deliver() {
    switch (delivery_) {
      case Delivery::kNone:
        break;
      case Delivery::kMember:
        streaming_->member(topKey_, std::move(member_));
        break;
      case Delivery::kElement:
        streaming_->element(topKey_, scratch_);
        break;
    }
  }

  enum class Delivery { kNone, kMember, kElement };

  const char* cursor_;
  const char* counted_;
  std::int64_t line_ = 1;
  const JsonStreamCallbacks* streaming_;
  Level level_ = Level::kBeforeTop;
  Delivery delivery_ = Delivery::kNone;
  std::string topKey_;
  std::unordered_set<std::string> topKeys_;
  JsonValue root_;
  JsonValue member_;
  JsonValue scratch_;
  JsonValue* target_ = &root_;
  std::vector<JsonValue*> stack_;
};

void run(std::string_view text, LocatedSax& sax) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  nlohmann::json::sax_parse(TrackedIterator(begin, sax.cursorSlot()),
                            TrackedIterator(end, sax.cursorSlot()), &sax);
}

}  // namespace

JsonValue parseJson(std::string_view text) {
  LocatedSax sax(text.data(), nullptr);
  run(text, sax);
  return std::move(sax.root());
}

void parseJsonStream(std::string_view text, const JsonStreamCallbacks& callbacks) {
  LocatedSax sax(text.data(), &callbacks);
  run(text, sax);
}

}  // namespace gaus::io
