// The results file of a batch (results_store.hpp): lock, repair of a half-written last line,
// the runs already recorded (read with the report module's reader), atomic appends.

#include "results_store.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>

namespace gaus::experiment {

namespace {

namespace fs = std::filesystem;

std::string systemError() {
  return std::strerror(errno);
}

// Cuts the file after its last newline: what follows is a line the writer did not finish.
Expected<std::int64_t> cutHalfWrittenLine(int descriptor, const fs::path& path) {
  const off_t size = ::lseek(descriptor, 0, SEEK_END);
  if (size <= 0) return std::int64_t{0};
  off_t end = size;
  char byte = 0;
  while (end > 0) {
    if (::pread(descriptor, &byte, 1, end - 1) != 1) {
      return Error{
          fmt::format("{}: cannot read the results file: {}", path.string(), systemError())};
    }
    if (byte == '\n') break;
    --end;
  }
  if (end == size) return std::int64_t{0};
  if (::ftruncate(descriptor, end) != 0 || ::fsync(descriptor) != 0) {
    return Error{fmt::format("{}: cannot cut off its half-written last line: {}", path.string(),
                             systemError())};
  }
  return static_cast<std::int64_t>(size - end);
}

}  // namespace

Expected<ResultsStore> ResultsStore::open(const fs::path& path, bool resume) {
  ResultsStore store;
  store.path_ = path;
  store.descriptor_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (store.descriptor_ < 0) {
    return Error{fmt::format("{}: cannot open the results file: {}", path.string(), systemError())};
  }
  if (::flock(store.descriptor_, LOCK_EX | LOCK_NB) != 0) {
    return Error{
        fmt::format("{}: another gaus run is writing this results file (it holds its "
                    "lock); wait for it or choose another output folder",
                    path.string())};
  }
  const off_t size = ::lseek(store.descriptor_, 0, SEEK_END);
  if (size > 0 && !resume) {
    return Error{
        fmt::format("{}: the results file exists and is not empty: pass --resume to go "
                    "on with it, or choose another output folder",
                    path.string())};
  }
  if (size == 0) return store;
  auto cut = cutHalfWrittenLine(store.descriptor_, path);
  if (!cut) return Error{cut.error()};
  store.discardedBytes_ = *cut;
  auto results = report::readResults(path);
  if (!results) {
    // Only a file without any readable record fails to read: then nothing is recorded yet,
    // unless a line is there (a results file of another kind must not be appended to).
    if (::lseek(store.descriptor_, 0, SEEK_END) > 0) return Error{results.error()};
    return store;
  }
  store.records_ = std::move(results->records);
  store.skippedLines_ = static_cast<std::int64_t>(results->skipped.size());
  for (const auto& record : store.records_) store.recorded_.insert(record.runId);
  return store;
}

ResultsStore::ResultsStore(ResultsStore&& other) noexcept
    : path_(std::move(other.path_)),
      descriptor_(other.descriptor_),
      recorded_(std::move(other.recorded_)),
      records_(std::move(other.records_)),
      discardedBytes_(other.discardedBytes_),
      skippedLines_(other.skippedLines_) {
  other.descriptor_ = -1;
}

ResultsStore::~ResultsStore() {
  if (descriptor_ >= 0) ::close(descriptor_);  // closing releases the lock
}

Status ResultsStore::append(const report::ResultRecord& record) {
  const std::string line = report::formatResultRecord(record) + "\n";
  // One write() of the whole line on a file opened O_APPEND: the line lands in one piece after
  // every earlier one. A short write (a full disk) is completed or reported, never left silent.
  std::size_t written = 0;
  while (written < line.size()) {
    const ssize_t count = ::write(descriptor_, line.data() + written, line.size() - written);
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) {
      return Error{fmt::format("{}: cannot append the record of run {}: {}", path_.string(),
                               record.runId, systemError())};
    }
    written += static_cast<std::size_t>(count);
  }
  if (::fsync(descriptor_) != 0) {
    return Error{fmt::format("{}: cannot flush the record of run {} to disk: {}", path_.string(),
                             record.runId, systemError())};
  }
  recorded_.insert(record.runId);
  records_.push_back(record);
  return Done{};
}

}  // namespace gaus::experiment
