// Reading a whole input file into memory: every reader parses from one contiguous buffer (the
// JSON reader's line tracking and the AIGER decoder rely on it), and the documents other modules
// read into io's tree (document_tree.hpp).

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include <gaus/io/document_tree.hpp>
#include <gaus/io/input_error.hpp>

#include "json_parse.hpp"
#include "readers.hpp"
#include "yaml_document.hpp"

namespace gaus::io {

namespace {

using OpenFile = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

// The one rule of checkInputFile, with the file left open for a reader that goes on to read it.
// The error says what is wrong without the path, for the caller to locate.
Expected<OpenFile> openInputFile(const std::filesystem::path& path, std::string_view what) {
  const std::string expected = what.empty() ? std::string() : fmt::format(" (expected {})", what);
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return Error{"no such file" + expected};
  // Only regular files: a FIFO or a device such as /dev/zero could make the read never end.
  if (!std::filesystem::is_regular_file(path, error)) {
    return Error{expectedFound("a regular file", "a directory or device")};
  }
  OpenFile file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) return Error{fmt::format("cannot open the file: {}", std::strerror(errno)) + expected};
  return file;
}

}  // namespace

Status checkInputFile(const std::filesystem::path& path, std::string_view what) {
  const auto file = openInputFile(path, what);
  if (!file) return Error{locate(path, 0, file.error())};
  return Done{};
}

std::string readFileText(const std::filesystem::path& path) {
  auto opened = openInputFile(path, {});
  if (!opened) throw InputError(path, 0, opened.error());
  const OpenFile file = std::move(opened).value();
  std::string text;
  char buffer[1 << 16];
  while (true) {
    const std::size_t count = std::fread(buffer, 1, sizeof buffer, file.get());
    text.append(buffer, count);
    if (count < sizeof buffer) break;
  }
  if (std::ferror(file.get()) != 0) {
    throw InputError(path, 0, fmt::format("cannot read the file: {}", std::strerror(errno)));
  }
  return text;
}

JsonValue readYamlFile(const std::filesystem::path& path) {
  return parseYaml(readFileText(path));
}

JsonValue readJsonFile(const std::filesystem::path& path) {
  return parseJson(readFileText(path));
}

}  // namespace gaus::io
