// Atomic replacement of a file: the content goes to a temporary file in the same folder (so the
// rename cannot cross file systems), is flushed to disk, and is renamed over the target. On any
// failure the temporary file is removed: a failed write leaves neither a partial target nor a
// stray temporary file, and an existing target keeps its old content.

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <gaus/io/io.hpp>

namespace gaus::io {

Status writeFileAtomically(const std::filesystem::path& path, std::string_view content) {
  const auto fail = [&](std::string_view step, int error) {
    return Error{fmt::format("{}: cannot write the file ({}: {})", path.string(), step,
                             std::strerror(error))};
  };
  std::error_code statusError;
  if (std::filesystem::is_directory(path, statusError)) {
    return Error{fmt::format("{}: cannot write the file: it is a directory", path.string())};
  }
  const std::filesystem::path folder =
      path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  // A hidden name beside the target. (Built by appending: GCC 12 warns, wrongly, about
  // `"." + std::string` under -Wrestrict.)
  std::string hiddenName = path.filename().string();
  hiddenName.insert(hiddenName.begin(), '.');
  hiddenName.append(".tmp.XXXXXX");
  std::string temporary = (folder / hiddenName).string();
  const int descriptor = ::mkstemp(temporary.data());
  if (descriptor < 0) return fail("creating a temporary file", errno);

  const auto abandon = [&](std::string_view step) {
    const int error = errno;
    ::close(descriptor);
    ::unlink(temporary.c_str());
    return fail(step, error);
  };
  for (std::size_t written = 0; written < content.size();) {
    const ssize_t count = ::write(descriptor, content.data() + written, content.size() - written);
    if (count < 0) {
      if (errno == EINTR) continue;
      return abandon("writing");
    }
    written += static_cast<std::size_t>(count);
  }
  // mkstemp creates the file readable by its owner only; give it the usual permissions.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(descriptor, 0666 & ~mask) != 0) return abandon("setting permissions");
  if (::fsync(descriptor) != 0) return abandon("flushing");
  if (::close(descriptor) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    return fail("closing", error);
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    return fail("renaming the temporary file", error);
  }
  return Done{};
}

}  // namespace gaus::io
