#include "input_error.hpp"

#include <fmt/format.h>

namespace gaus::io {

std::string InputError::describe(const std::filesystem::path& defaultFile) const {
  return locate(file_.empty() ? defaultFile : file_, line_, message_);
}

std::string expectedFound(std::string_view expected, std::string_view found) {
  return fmt::format("expected {}, found {}", expected, found);
}

std::string locate(const std::filesystem::path& file, std::int64_t line, std::string_view message) {
  // One line whatever the input put into the message: a name quoted without quoteText (a
  // HeuriGym type with a newline in it, found by fuzzing) keeps its control characters escaped.
  std::string oneLine;
  for (const char c : message) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      oneLine += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    } else {
      oneLine += c;
    }
  }
  if (line > 0) return fmt::format("{}:{}: {}", file.string(), line, oneLine);
  return fmt::format("{}: {}", file.string(), oneLine);
}

std::string quoteText(std::string_view text) {
  // A message stays one line: control characters are shown escaped, long text is cut.
  constexpr std::size_t kMaxShown = 60;
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size() && i < kMaxShown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  if (text.size() > kMaxShown) out += "...";
  out += '"';
  return out;
}

}  // namespace gaus::io
