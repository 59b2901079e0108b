// The one error type every reader throws internally. A reader signals bad input by throwing an
// InputError that knows the line (and, when it is not the file being read, the file); the entry
// points in read_instance.cpp turn it into an Error whose message has one shape for every format:
//   "PATH:LINE: expected X, found Y"    (or "PATH: ..." where the format has no lines)
// Exceptions stay inside the io module (contributing.md: status values cross the boundary).
#pragma once

#include <cstdint>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>

namespace gaus::io {

class InputError : public std::exception {
 public:
  // `line` 0 means "no line": the message is about the file as a whole.
  InputError(std::int64_t line, std::string message) : line_(line), message_(std::move(message)) {}
  InputError(std::filesystem::path file, std::int64_t line, std::string message)
      : file_(std::move(file)), line_(line), message_(std::move(message)) {}

  const char* what() const noexcept override { return message_.c_str(); }
  std::int64_t line() const { return line_; }
  const std::filesystem::path& file() const { return file_; }

  // "FILE:LINE: message", with FILE = the file the error names or else `defaultFile`.
  std::string describe(const std::filesystem::path& defaultFile) const;

 private:
  std::filesystem::path file_;
  std::int64_t line_ = 0;
  std::string message_;
};

// "expected X, found Y": the core of every message.
std::string expectedFound(std::string_view expected, std::string_view found);

// A character that would break a one-line message, a table or a generated name: below 0x20,
// or DEL.
inline bool isControlCharacter(char c) {
  return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
}

// "PATH:LINE: message" / "PATH: message" (line 0), on one line: control characters in the
// message are escaped.
std::string locate(const std::filesystem::path& file, std::int64_t line, std::string_view message);

// Quotes text for a message, shortening very long text: "\"mul\"".
std::string quoteText(std::string_view text);

}  // namespace gaus::io
