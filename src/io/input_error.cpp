#include <fmt/format.h>

#include <gaus/io/input_error.hpp>

namespace gaus::io {

namespace {

// One character of a message as it is shown: a control character (a newline would split the
// message, which must stay one line) as \xNN, any other as it is.
void appendShown(std::string& out, char c) {
  if (isControlCharacter(c)) {
    out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
  } else {
    out += c;
  }
}

}  // namespace

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
  for (const char c : message) appendShown(oneLine, c);
  if (line > 0) return fmt::format("{}:{}: {}", file.string(), line, oneLine);
  return fmt::format("{}: {}", file.string(), oneLine);
}

std::string quoteText(std::string_view text) {
  // A message stays one line: control characters are shown escaped, long text is cut.
  constexpr std::size_t kMaxShown = 60;
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size() && i < kMaxShown; ++i) {
    const char c = text[i];
    if (c == '"' || c == '\\') out += '\\';
    appendShown(out, c);
  }
  if (text.size() > kMaxShown) out += "...";
  out += '"';
  return out;
}

}  // namespace gaus::io
