// gaus-bench startup: how long the gaus program takes to start and finish light commands, as a
// user running it on a thousand files sees it. Each command runs --repeats times under
// /usr/bin/time (wall seconds and peak RSS of the whole process, loader included); the table
// shows the median. The program links no engine: GauS (LibTorch) and the exact engine (Z3, the MILP
// solvers) are plugins loaded the first time one of their methods is looked up
// (docs/contributing.md), so
// `--version`, `info`, `verify` and `convert` pay for neither; the last rows show what loading
// each engine costs.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <fmt/format.h>

#include "bench_main.hpp"

namespace gaus::bench {

namespace {

namespace fs = std::filesystem;

struct StartupFlags {
  std::string gaus = GAUS_BINARY;
  std::string shared = GAUS_SHARED_DIR;
  int repeats = 15;
};

struct Timing {
  double seconds = 0;      // the bench's clock around the run (microseconds resolution)
  double timeSeconds = 0;  // /usr/bin/time's %e (10 ms resolution)
  double peakRssMb = 0;    // /usr/bin/time's %M
};

// One run of `gaus ARGS` under /usr/bin/time; stdout and stderr of gaus are discarded.
Timing timeOnce(const std::string& gaus, const std::vector<std::string>& args,
                const fs::path& timeFile) {
  std::vector<std::string> words = {"/usr/bin/time", "-f", "%e %M", "-o", timeFile.string(), gaus};
  words.insert(words.end(), args.begin(), args.end());
  const ProgramRun run = runProgram(std::move(words));
  if (run.exitStatus != 0) {
    throw std::runtime_error(fmt::format("gaus {} failed (exit {}); is /usr/bin/time installed?",
                                         fmt::join(args, " "), run.exitStatus));
  }
  std::ifstream in(timeFile);
  Timing timing;
  timing.seconds = run.seconds;
  double kilobytes = 0;
  if (!(in >> timing.timeSeconds >> kilobytes)) {
    throw std::runtime_error("cannot read /usr/bin/time's output " + timeFile.string());
  }
  timing.peakRssMb = kilobytes / 1024.0;
  return timing;
}

Timing medianOf(const std::string& gaus, const std::vector<std::string>& args, int repeats,
                const fs::path& timeFile) {
  std::vector<Timing> runs;
  for (int i = 0; i < repeats; ++i) runs.push_back(timeOnce(gaus, args, timeFile));
  std::sort(runs.begin(), runs.end(),
            [](const Timing& a, const Timing& b) { return a.seconds < b.seconds; });
  return runs[runs.size() / 2];
}

Report runStartupBench(const StartupFlags& flags) {
  Report report("Start-up of the gaus program");
  for (auto& [key, value] : environmentNotes()) report.note(key, value);
  report.note("program", flags.gaus);
  report.note("method",
              fmt::format("median of {} runs under /usr/bin/time; seconds from the bench's clock "
                          "around each run (the time program's own start included, about 1 ms), "
                          "/usr/bin/time's %e (10 ms resolution) and %M beside it",
                          flags.repeats));
  const fs::path scratch = fs::temp_directory_path() / fmt::format("gaus-startup-{}", getpid());
  fs::create_directories(scratch);
  const fs::path timeFile = scratch / "time.txt";
  const std::string heurigym =
      (fs::path(flags.shared) / "benchmarks/heurigym-operator-scheduling/small/ewf.json").string();
  const std::string schedule = (scratch / "ewf.schedule.json").string();
  const std::string converted = (scratch / "ewf.yaml").string();
  // The schedule the verify row reads.
  timeOnce(flags.gaus, {"schedule", heurigym, "--method", "list", "-q", "-o", schedule}, timeFile);

  struct Row {
    std::string name;
    std::vector<std::string> args;
    std::optional<double> target;
  };
  const std::vector<Row> rows = {
      {"gaus --version", {"--version"}, 0.05},
      {"gaus info (HeuriGym ewf)", {"info", heurigym}, 0.1},
      {"gaus verify (HeuriGym ewf)", {"verify", heurigym, schedule}, std::nullopt},
      {"gaus convert (HeuriGym ewf to YAML)", {"convert", heurigym, converted}, std::nullopt},
      {"gaus schedule --method list (ewf)",
       {"schedule", heurigym, "--method", "list", "-q"},
       std::nullopt},
      {"gaus methods (loads every engine)", {"methods"}, std::nullopt},
  };
  std::vector<std::vector<std::string>> table;
  for (const Row& row : rows) {
    const Timing timing = medianOf(flags.gaus, row.args, flags.repeats, timeFile);
    report.add(Figure{row.name, timing.seconds, "s", row.target, std::nullopt});
    table.push_back({row.name, fmt::format("{:.4f}", timing.seconds),
                     fmt::format("{:.2f}", timing.timeSeconds),
                     fmt::format("{:.1f}", timing.peakRssMb),
                     row.target ? fmt::format("<= {}", *row.target) : std::string("-")});
  }
  report.addTable("Median wall time and peak RSS per command",
                  {"command", "seconds", "/usr/bin/time %e", "peak RSS (MB)", "target"}, table);
  fs::remove_all(scratch);
  return report;
}

}  // namespace

void addStartupSuite(CLI::App& app, BenchOptions& options) {
  auto flags = std::make_shared<StartupFlags>();
  CLI::App* command =
      app.add_subcommand("startup", "Start-up time of the gaus program on light commands");
  command->add_option("--gaus", flags->gaus, "The gaus program to time")->capture_default_str();
  command->add_option("--shared", flags->shared, "Folder holding benchmarks/")
      ->capture_default_str();
  command->add_option("--repeats", flags->repeats, "Runs per command (median)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  command->callback([flags, &options] { emitReport(runStartupBench(*flags), options); });
}

}  // namespace gaus::bench
