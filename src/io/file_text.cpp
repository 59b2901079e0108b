// Reading a whole input file into memory: every reader parses from one contiguous buffer (the
// JSON reader's line tracking and the AIGER decoder rely on it).

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "input_error.hpp"
#include "readers.hpp"

namespace gaus::io {

std::string readFileText(const std::filesystem::path& path) {
  // Only regular files: a FIFO or a device such as /dev/zero could make the read never end.
  std::error_code error;
  if (std::filesystem::exists(path, error) && !std::filesystem::is_regular_file(path, error)) {
    throw InputError(path, 0, expectedFound("a regular file", "a directory or device"));
  }
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                             &std::fclose);
  if (!file) {
    throw InputError(path, 0, fmt::format("cannot open the file: {}", std::strerror(errno)));
  }
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

}  // namespace gaus::io
