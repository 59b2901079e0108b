// Writes the block structure of a document in JSON or in YAML; leaf values are JSON flow text,
// which YAML reads as flow collections and scalars, so both writers share every value's text.
// JSON: one member per line, indented by two spaces per level. YAML: block mappings and block
// sequences, with each op or edge a flow collection on one line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gaus::io {

class DocumentWriter {
 public:
  enum class Style { kJson, kYaml };

  explicit DocumentWriter(Style style);

  // A member `key: value` of the current mapping; `flowValue` is JSON text.
  void field(std::string_view key, std::string_view flowValue);
  // An element of the current sequence.
  void item(std::string_view flowValue);
  // A nested block mapping or sequence as member `key`; closed by end().
  void beginObject(std::string_view key);
  void beginList(std::string_view key);
  void end();

  // The document; the writer is spent afterwards.
  std::string finish();

  // A buffer for composing one flow value at a time without reallocating.
  std::string& scratch() { return scratch_; }

 private:
  struct Frame {
    bool list = false;
    std::size_t entries = 0;
  };
  void beginEntry();
  void appendKey(std::string_view key);
  void open(std::string_view key, bool list);

  Style style_;
  std::string out_;
  std::string scratch_;
  std::vector<Frame> frames_;
};

// A JSON string literal (also a valid YAML double-quoted scalar).
void appendJsonString(std::string& out, std::string_view text);
// A number as the shortest text that reads back to the same double. Throws InputError when it
// is not finite (JSON has no infinity or NaN); `what` names it in the message.
void appendJsonNumber(std::string& out, double value, std::string_view what);
void appendJsonInteger(std::string& out, std::int64_t value);

}  // namespace gaus::io
