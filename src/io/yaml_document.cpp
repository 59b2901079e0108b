#include "yaml_document.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <regex>
#include <string>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <gaus/io/input_error.hpp>

namespace gaus::io {

namespace {

constexpr int kMaxNesting = 200;  // as for JSON: trees are destroyed recursively

bool isDecimalInteger(std::string_view text) {
  std::size_t i = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  if (i == text.size()) return false;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  return true;
}

bool isFloat(const std::string& text) {
  // YAML 1.2 core schema: [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
  static const std::regex pattern(R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)");
  return std::regex_match(text, pattern);
}

void typeScalar(const std::string& text, bool quoted, JsonValue& out) {
  out.kind = JsonValue::Kind::kString;
  out.text = text;
  if (quoted) return;
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") {
    out.kind = JsonValue::Kind::kNull;
    out.text.clear();
  } else if (text == "true" || text == "True" || text == "TRUE") {
    out.kind = JsonValue::Kind::kBool;
    out.boolean = true;
  } else if (text == "false" || text == "False" || text == "FALSE") {
    out.kind = JsonValue::Kind::kBool;
    out.boolean = false;
  } else if (isDecimalInteger(text)) {
    const char* begin = text.data() + (text[0] == '+' ? 1 : 0);
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(begin, text.data() + text.size(), value);
    if (error == std::errc{} && end == text.data() + text.size()) {
      out.kind = JsonValue::Kind::kInteger;
      out.integer = value;
    } else {
      // Beyond int64: kept as a float with its text, which every integer accessor rejects as
      // an overflow.
      out.kind = JsonValue::Kind::kFloat;
      out.number = std::strtod(text.c_str(), nullptr);
    }
  } else if (isFloat(text)) {
    out.kind = JsonValue::Kind::kFloat;
    out.number = std::strtod(text.c_str(), nullptr);
  } else if (text == ".inf" || text == ".Inf" || text == ".INF" || text == "+.inf") {
    out.kind = JsonValue::Kind::kFloat;
    out.number = std::numeric_limits<double>::infinity();
  } else if (text == "-.inf" || text == "-.Inf" || text == "-.INF") {
    out.kind = JsonValue::Kind::kFloat;
    out.number = -std::numeric_limits<double>::infinity();
  } else if (text == ".nan" || text == ".NaN" || text == ".NAN") {
    out.kind = JsonValue::Kind::kFloat;
    out.number = std::numeric_limits<double>::quiet_NaN();
  }
}

void convert(const YAML::Node& node, JsonValue& out, int depth) {
  out.line = node.Mark().line >= 0 ? node.Mark().line + 1 : 0;
  if (depth > kMaxNesting) {
    throw InputError(out.line, expectedFound(fmt::format("at most {} nested levels", kMaxNesting),
                                             "deeper nesting"));
  }
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      out.kind = JsonValue::Kind::kNull;
      return;
    case YAML::NodeType::Scalar:
      // yaml-cpp tags plain scalars "?" and quoted ones "!".
      typeScalar(node.Scalar(), node.Tag() == "!", out);
      return;
    case YAML::NodeType::Sequence:
      out.kind = JsonValue::Kind::kArray;
      out.items.reserve(node.size());
      for (const auto& item : node) {
        out.items.emplace_back();
        convert(item, out.items.back(), depth + 1);
      }
      return;
    case YAML::NodeType::Map:
      out.kind = JsonValue::Kind::kObject;
      out.items.reserve(node.size());
      for (const auto& entry : node) {
        if (!entry.first.IsScalar()) {
          const auto line = entry.first.Mark().line + 1;
          throw InputError(line, expectedFound("a plain key", "a structured mapping key"));
        }
        out.keys.push_back(entry.first.Scalar());
        out.items.emplace_back();
        JsonValue& value = out.items.back();
        convert(entry.second, value, depth + 1);
        // A block collection starts on the line after its key; messages about the value as a
        // whole ("unknown key", "expected an array") point at the key.
        const std::int64_t keyLine = entry.first.Mark().line + 1;
        if (value.line == 0 || value.line > keyLine) value.line = keyLine;
      }
      return;
  }
}

}  // namespace

JsonValue parseYaml(std::string_view text) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& error) {
    throw InputError(error.mark.line >= 0 ? error.mark.line + 1 : 0,
                     // yaml-cpp's message may hold the offending character itself (a newline
                     // after "unknown escape character: ", found by fuzzing): quoted, it stays
                     // one line.
                     expectedFound("valid YAML", quoteText(error.msg)));
  }
  JsonValue value;
  convert(root, value, 0);
  return value;
}

}  // namespace gaus::io
