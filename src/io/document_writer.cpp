#include "document_writer.hpp"

#include <cmath>
#include <iterator>

#include <fmt/format.h>

#include <gaus/io/input_error.hpp>

namespace gaus::io {

namespace {

bool isPlainYamlKey(std::string_view key) {
  if (key.empty()) return false;
  for (std::size_t i = 0; i < key.size(); ++i) {
    const char c = key[i];
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    const bool digit = c >= '0' && c <= '9';
    if (!letter && !(digit && i > 0)) return false;
  }
  // Words that YAML would read as something other than a string are quoted anyway.
  return key != "true" && key != "false" && key != "null" && key != "True" && key != "False" &&
         key != "Null" && key != "TRUE" && key != "FALSE" && key != "NULL";
}

}  // namespace

void appendJsonString(std::string& out, std::string_view text) {
  out += '"';
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<unsigned>(c));
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void appendJsonNumber(std::string& out, double value, std::string_view what) {
  if (!std::isfinite(value)) {
    throw InputError(
        0, expectedFound(fmt::format("a finite number for {}", what), fmt::format("{}", value)));
  }
  fmt::format_to(std::back_inserter(out), "{}", value);
}

void appendJsonInteger(std::string& out, std::int64_t value) {
  fmt::format_to(std::back_inserter(out), "{}", value);
}

DocumentWriter::DocumentWriter(Style style) : style_(style) {
  frames_.push_back(Frame{});
  if (style_ == Style::kJson) out_ += "{";
}

void DocumentWriter::beginEntry() {
  Frame& frame = frames_.back();
  const std::size_t depth = frames_.size() - 1;
  if (style_ == Style::kJson) {
    if (frame.entries == 0 && depth > 0) out_ += frame.list ? "[" : "{";
    out_ += frame.entries == 0 ? "\n" : ",\n";
    out_.append(2 * (depth + 1), ' ');
  } else {
    if (depth > 0 || frame.entries > 0) out_ += "\n";
    out_.append(2 * depth, ' ');
    if (frame.list) out_ += "- ";
  }
  ++frame.entries;
}

void DocumentWriter::appendKey(std::string_view key) {
  if (style_ == Style::kYaml && isPlainYamlKey(key)) {
    out_ += key;
  } else {
    appendJsonString(out_, key);
  }
  out_ += ":";
}

void DocumentWriter::field(std::string_view key, std::string_view flowValue) {
  beginEntry();
  appendKey(key);
  out_ += " ";
  out_ += flowValue;
}

void DocumentWriter::item(std::string_view flowValue) {
  beginEntry();
  out_ += flowValue;
}

void DocumentWriter::open(std::string_view key, bool list) {
  beginEntry();
  appendKey(key);
  if (style_ == Style::kJson) out_ += " ";
  frames_.push_back(Frame{list, 0});
}

void DocumentWriter::beginObject(std::string_view key) {
  open(key, false);
}
void DocumentWriter::beginList(std::string_view key) {
  open(key, true);
}

void DocumentWriter::end() {
  const Frame frame = frames_.back();
  frames_.pop_back();
  const char* empty = frame.list ? "[]" : "{}";
  if (style_ == Style::kJson) {
    if (frame.entries == 0) {
      out_ += empty;
    } else {
      out_ += "\n";
      out_.append(2 * frames_.size(), ' ');
      out_ += frame.list ? "]" : "}";
    }
  } else if (frame.entries == 0) {
    out_ += " ";
    out_ += empty;
  }
}

std::string DocumentWriter::finish() {
  while (frames_.size() > 1) end();
  out_ += style_ == Style::kJson ? "\n}\n" : "\n";
  return std::move(out_);
}

}  // namespace gaus::io
