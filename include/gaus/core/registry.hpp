// One registry maps a method name ("list", "ims", "gaus", "ilp", "twill") and an options map to
// a callable, so the CLI and the experiment runner never switch on method names. Each module
// exposes a register function (registerHeuristicMethods, ...); the catalog in src/experiment
// calls them all. run() verifies every schedule a method returns before handing it back.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/options.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>

namespace gaus {

// What a method may use from its caller beyond the problem and its options.
struct RunContext {
  // Receives progress lines (iteration, objective, violation, best, elapsed). May be empty.
  std::function<void(std::string_view)> progress;
  // Wall-clock budget for the whole call; methods stop and return kTimeout (with their best
  // schedule so far) when it runs out. Unset: the method's own default.
  std::optional<double> timeLimitSeconds;
  std::uint64_t seed = 1;
  std::string device = "auto";  // cpu | cuda | auto (methods that have no device ignore it)
  const std::atomic<bool>* cancel = nullptr;  // set from outside to stop early
  // A legal schedule to start from and improve on (e.g. read with --init). Methods that improve
  // a start never return anything worse; methods that cannot use one ignore it. Not owned.
  const Schedule* initialSchedule = nullptr;

  void report(std::string_view line) const {
    if (progress) progress(line);
  }
  bool cancelled() const { return cancel != nullptr && cancel->load(std::memory_order_relaxed); }
};

using MethodFunction =
    std::function<Result(const Problem&, const MethodOptions&, const RunContext&)>;

struct MethodInfo {
  std::string name;
  std::string summary;             // one line for --help
  std::vector<ProblemKind> kinds;  // problem kinds it accepts
  std::vector<OptionDoc> options;  // documented options with defaults
  MethodFunction run;
};

class MethodRegistry {
 public:
  void add(MethodInfo method);  // replaces a method of the same name
  const MethodInfo* find(std::string_view name) const;
  std::vector<std::string> names() const;

  // Checks the problem (Problem::check), runs the method, times it, verifies any schedule it
  // returns and stores the report in Result::verification. A schedule that fails verification
  // turns the status into kError with the first violations in the message: an unverified
  // schedule is never reported as a success.
  Result run(std::string_view name, const Problem& problem, const MethodOptions& options,
             const RunContext& context = {}) const;

 private:
  std::map<std::string, MethodInfo, std::less<>> methods_;
};

// Seconds since `start`, for method statistics and deadlines.
double secondsSince(std::chrono::steady_clock::time_point start);

// A deadline from an optional time limit; `expired()` is false forever when unset.
class Deadline {
 public:
  explicit Deadline(std::optional<double> seconds);
  bool expired() const;
  double remainingSeconds() const;  // +inf when unset
  double elapsedSeconds() const;

 private:
  std::chrono::steady_clock::time_point start_;
  std::optional<std::chrono::steady_clock::time_point> end_;
};

}  // namespace gaus
