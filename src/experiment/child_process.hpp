// One function run in a child process (fork), so that whatever it does (crash, abort, allocate
// without bound, hang) ends that process only. The child gets its own process group (a Ctrl-C
// at the terminal reaches the runner, which stops the children itself), dies with its parent,
// writes its output to a log file, runs under an address-space limit when one is given, and
// exits with kOutOfMemoryExit when an allocation fails. The parent polls it without blocking,
// stops it at its deadline, and reads its peak RSS from wait4's resource usage.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <sys/types.h>

#include <gaus/core/expected.hpp>

namespace gaus::experiment {

// The exit code of a child whose allocation failed (operator new, or a std::bad_alloc that
// would have ended it anyway).
inline constexpr int kOutOfMemoryExit = 86;

struct ChildLimits {
  std::optional<std::int64_t> addressSpaceBytes;  // RLIMIT_AS
  std::optional<double> wallSeconds;              // stopped (SIGKILL) once it runs this long
};

struct ChildEnd {
  enum class How {
    kExited,       // exited on its own; exitCode says how
    kSignaled,     // killed by a signal it did not expect (crash, abort, the OOM killer)
    kDeadline,     // stopped by the parent at its wall-clock deadline
    kOutOfMemory,  // an allocation failed (kOutOfMemoryExit)
    kStopped,      // stopped by the parent on request (an interrupted batch)
  };
  How how = How::kExited;
  int exitCode = 0;
  int signal = 0;
  double seconds = 0.0;
  std::optional<std::int64_t> peakRssBytes;
  std::string outputTail;  // the last lines the child printed, for messages

  // "killed by signal 6 (Aborted)", "exited with code 2", ...
  std::string describe() const;
};

class ChildProcess {
 public:
  // Forks; the child runs `body` and exits with its return value. Its stdout and stderr go to
  // `logFile` (created), which the parent reads back for ChildEnd::outputTail.
  static Expected<ChildProcess> start(const std::function<int()>& body, const ChildLimits& limits,
                                      std::filesystem::path logFile);

  // The end of the process once it has ended (reaped), else nothing. Stops it first when its
  // deadline has passed.
  std::optional<ChildEnd> poll();
  // Stops the process (SIGKILL to its group) and reaps it.
  ChildEnd stop();

  pid_t pid() const { return pid_; }
  double elapsedSeconds() const;

 private:
  // Reaps the process when it has ended (waiting for it with `wait`), else nothing.
  std::optional<ChildEnd> reap(bool wait, ChildEnd::How ifSignaled);

  pid_t pid_ = -1;
  std::chrono::steady_clock::time_point started_;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  std::filesystem::path logFile_;
};

// The last lines of a text file, at most `maxCharacters`, joined with " | " (one line for a
// message); empty when the file is missing or empty.
std::string fileTail(const std::filesystem::path& path, std::size_t maxCharacters = 300);

}  // namespace gaus::experiment
