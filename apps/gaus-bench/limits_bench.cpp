// gaus-bench limits: do time limits hold? Issue 14 part 4 sets the target for every method and
// every command that takes a time limit: the call returns within limit + max(1 s, 10 %), with
// status timeout and the best verified schedule when one exists.
//
// Every method of the catalog (enumerated from the registry, so a new method is measured without
// touching this file) runs on an input of each problem kind it solves that is big enough to hit
// the limit, once per limit; then the commands that take --time-limit run as a user runs them:
// `gaus schedule`, `gaus twill` and `gaus run` (whose per-run seconds come from its results
// file). A run that ends before its limit with a status other than timeout did not test the
// limit: it is reported as "finished before the limit", not as a pass. Each row has the load
// average at its end, since the figures are only as good as the machine's load lets them be.
// A method that solves MILPs (it declares the option `solver`) runs once per MILP solver, so that
// the limits are measured on HiGHS and on CBC alike.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/io/io.hpp>
#include <gaus/methods/method_catalog.hpp>
#include <gaus/methods/run_method.hpp>
#include <gaus/report/results.hpp>

#include "bench_main.hpp"
#include "shared_benchmarks.hpp"

namespace gaus::bench {

namespace {

namespace fs = std::filesystem;

struct LimitsFlags {
  std::vector<double> limits = {1.0, 5.0};
  int runs = 1;  // of each call at each limit
  std::string shared = GAUS_SHARED_DIR;
  std::string source = GAUS_SOURCE_DIR;  // for the loops in tests/data
  std::string gaus = GAUS_BINARY;
  std::string methods;  // comma-separated filter; empty: every method of the catalog
  std::string inputs;   // comma-separated filter of Workload::key; empty: every input
  // The MILP solvers a method with the option `solver` runs on, one row each.
  std::vector<std::string> solvers = {"highs", "cbc"};
  bool commands = true;
};

// The target of issue 14: limit + max(1 s, 10 % of the limit).
double allowedSeconds(double limit) {
  return limit + std::max(1.0, 0.1 * limit);
}

// Whether `name` is in the comma-separated `list` (an empty list selects everything).
bool selected(std::string_view list, std::string_view name) {
  if (list.empty()) return true;
  const std::string padded = "," + std::string(list) + ",";
  return padded.find("," + std::string(name) + ",") != std::string::npos;
}

// An input for one problem kind, chosen to be too large for any method to finish within a few
// seconds (each says why).
struct Workload {
  std::string key;  // for --inputs
  ProblemKind kind;
  std::string name;
  std::string file;  // a path or a built-in kernel name
  std::optional<Cycle> horizon;
};

std::vector<Workload> workloads(const LimitsFlags& flags) {
  const fs::path shared(flags.shared);
  const fs::path heurigym = shared / "benchmarks/heurigym-operator-scheduling/medium/invert.json";
  const fs::path machsuite = shared / "benchmarks/hatschet-machsuite/aes2/graph4.graphml";
  const fs::path epflI2c = shared / "benchmarks/epfl-combinational/i2c.aig";
  const fs::path gsSchedule = shared / "benchmarks/gs-schedule-icml24-rw/rand_graph_1000_1.gml";
  const fs::path galloping =
      fs::path(flags.source) / "tests/data/twill/fa_blackwell_galloping.yaml";
  std::vector<Workload> all{
      // HeuriGym's largest medium graph: the latency MILP does not prove it within a minute.
      {"invert", ProblemKind::kLatency, "HeuriGym invert", heurigym.string(), std::nullopt},
      // The same at D = its critical path, which its few units cannot meet: a search that
      // cannot prove it infeasible runs to its limit.
      {"invert-bounded", ProblemKind::kLatencyBounded, "HeuriGym invert, D = critical path",
       heurigym.string(), std::nullopt},
      // EPFL i2c at D = its critical path (21), peak live memory: the peak-memory MILP (1.4 M
      // nonzeros) is not proven within a minute, and GauS's search runs to its limit.
      {"i2c-memory", ProblemKind::kLatencyBounded, "EPFL i2c, peak memory at D = critical path",
       epflI2c.string(), std::nullopt},
      // MachSuite aes2 loop 4: the modulo MILP runs past 10 s (docs/benchmarks.md).
      {"aes2", ProblemKind::kModulo, "MachSuite aes2/graph4", machsuite.string(), std::nullopt},
      // Twill's largest built-in kernel (3.6 s to a proof on a quiet machine).
      {"fa_fwd_blackwell", ProblemKind::kModuloWarp, "fa_fwd_blackwell", "fa_fwd_blackwell",
       std::nullopt},
      // A loop whose Twill search gallops L at an infeasible II, each model larger than the last
      // (the file says why; issue 29): a model that cannot be loaded into Z3 in the time left
      // must not be started.
      {"galloping", ProblemKind::kModuloWarp, "fa_blackwell_galloping (32 warps)",
       galloping.string(), std::nullopt},
      // GS-Schedule's 1000-op graph in 10 stages (the folder's README).
      {"gs1000", ProblemKind::kStages, "GS-Schedule rand_graph_1000_1, 10 stages",
       gsSchedule.string(), 10},
  };
  std::vector<Workload> chosen;
  for (Workload& workload : all) {
    if (selected(flags.inputs, workload.key)) chosen.push_back(std::move(workload));
  }
  if (chosen.empty()) throw std::runtime_error("--inputs names none of the limits bench's inputs");
  return chosen;
}

Instance readWorkload(const Workload& workload) {
  auto instance = io::readInstance(workload.file);
  if (!instance) throw std::runtime_error(instance.error());
  return std::move(instance).value();
}

Problem poseWorkload(const Workload& workload, const Instance& instance) {
  if (workload.kind != ProblemKind::kLatencyBounded) {
    return instance.problem(workload.kind, workload.horizon);
  }
  const Graph& graph = *instance.problem(ProblemKind::kLatency).graph;
  auto order = topologicalOrder(graph);
  if (!order) throw std::runtime_error(order.error());
  return instance.problem(workload.kind, criticalPathLength(graph, asapTimes(graph, *order)));
}

// One measured call against its limit.
struct LimitRow {
  std::string what;   // method or command
  std::string input;  // workload
  double limit = 0;
  double seconds = 0;
  std::string status;
  std::string schedule;                        // "verified", "none", or what the command printed
  double load = loadAverage().value_or(-1.0);  // when the call ended
};

std::string verdict(const LimitRow& row) {
  if (row.seconds > allowedSeconds(row.limit)) return "OVER";
  if (row.status != "timeout" && row.seconds < row.limit) return "finished before the limit";
  return "within";
}

std::vector<std::string> tableRow(const LimitRow& row) {
  return {row.what,
          row.input,
          fmt::format("{:g}", row.limit),
          fmt::format("{:.2f}", row.seconds),
          fmt::format("{:+.2f}", row.seconds - row.limit),
          row.status,
          row.schedule,
          fmt::format("{:.1f}", row.load),
          verdict(row)};
}

// A command that prints a schedule as JSON (`gaus schedule`, `gaus twill`): its wall time, and
// the status and verification it printed (the exit status when it printed none).
LimitRow commandRow(const std::string& what, const std::string& input, double limit,
                    const std::string& gaus, std::vector<std::string> args,
                    const fs::path& scratch) {
  args.insert(args.end(), {"--json", "-q", "--time-limit", fmt::format("{:g}", limit)});
  const fs::path printed = scratch / "printed.json";
  args.insert(args.begin(), gaus);
  const ProgramRun run = runProgram(std::move(args), printed);
  LimitRow row{what, input, limit, run.seconds, fmt::format("exit {}", run.exitStatus), "none"};
  std::ifstream in(printed);
  const auto json = nlohmann::json::parse(in, nullptr, false);
  if (json.is_object()) {
    row.status = json.value("status", row.status);
    if (json.value("verified", false)) row.schedule = "verified";
  }
  return row;
}

// `gaus run` on a one-run experiment per method: the run's own seconds from results.jsonl.
std::vector<LimitRow> experimentRows(const LimitsFlags& flags, const Workload& workload,
                                     const std::vector<std::string>& methods, double limit,
                                     const fs::path& scratch) {
  const fs::path config = scratch / "limits.yaml";
  const fs::path output = scratch / fmt::format("run-{:g}", limit);
  {
    std::ofstream out(config);
    out << "name: limits\ngraphs:\n  - set: limits\n    files: [" << workload.file
        << "]\nmethods:\n";
    for (const auto& method : methods) out << "  - method: " << method << "\n";
    out << fmt::format("budgets:\n  time_limit: {:g}\n", limit);
  }
  runProgram({flags.gaus, "run", config.string(), "-o", output.string(), "--progress", "quiet",
              "--no-report"});
  auto results = report::readResults(output / "results.jsonl");
  if (!results) throw std::runtime_error("gaus run: " + results.error());
  std::vector<LimitRow> rows;
  for (const auto& record : results->records) {
    rows.push_back({"gaus run (" + record.method + ")", workload.name, limit,
                    record.seconds.value_or(0.0), std::string(report::toString(record.status)),
                    record.verified ? "verified" : "none"});
  }
  return rows;
}

Report runLimitsBench(const LimitsFlags& flags) {
  Report report("Time limits: every method and command against limit + max(1 s, 10 %)");
  for (auto& [key, value] : environmentNotes()) report.note(key, value);
  report.note("target",
              "returns within limit + max(1 s, 10 %); status timeout with the best "
              "verified schedule when one exists");
  report.note("method rows",
              "through the method catalog in this process (the setting "
              "time_limit), every method option at its default");
  report.note("load at the start", fmt::format("{:.2f}", loadAverage().value_or(-1.0)));
  const auto inputs = workloads(flags);
  std::vector<LimitRow> rows;
  const MethodRegistry& catalog = methodCatalog();
  for (const std::string& name : catalog.names()) {
    if (!selected(flags.methods, name)) continue;
    const MethodInfo* method = catalog.find(name);
    for (const Workload& workload : inputs) {
      if (!method->solves(workload.kind)) continue;
      const Instance instance = readWorkload(workload);
      const Problem problem = poseWorkload(workload, instance);
      const std::vector<std::string> solvers =
          method->declares("solver") ? flags.solvers : std::vector<std::string>{""};
      for (double limit : flags.limits) {
        for (const std::string& solver : solvers) {
          for (int run = 0; run < flags.runs; ++run) {
            Settings settings{{"time_limit", limit}};
            if (!solver.empty()) settings["solver"] = solver;
            const Stopwatch clock;
            const Result result = runMethod(catalog, problem, {name, {}, settings});
            const double seconds = clock.seconds();
            const bool limited = method->declares("time_limit");
            rows.push_back({name + (solver.empty() ? "" : " (solver=" + solver + ")") +
                                (limited ? "" : " (declares no time_limit)"),
                            fmt::format("{} ({})", workload.name, toString(workload.kind)), limit,
                            seconds, std::string(result.statusText()),
                            result.schedule ? "verified" : "none"});
            if (result.failed()) rows.back().status += ": " + result.message.substr(0, 80);
          }
        }
      }
    }
  }
  if (flags.commands) {
    const fs::path scratch = fs::temp_directory_path() / fmt::format("gaus-limits-{}", getpid());
    fs::create_directories(scratch);
    for (double limit : flags.limits) {
      for (int run = 0; run < flags.runs; ++run) {
        for (const Workload& workload : inputs) {
          // The commands as users run them: schedule and run on the latency input, twill on
          // the loops of its kind.
          if (workload.kind == ProblemKind::kLatency) {
            for (const char* method : {"ilp", "gaus"}) {
              rows.push_back(commandRow(fmt::format("gaus schedule --method {}", method),
                                        workload.name, limit, flags.gaus,
                                        {"schedule", workload.file, "--method", method}, scratch));
            }
            for (auto& row : experimentRows(flags, workload, {"ilp", "gaus"}, limit, scratch)) {
              rows.push_back(std::move(row));
            }
          } else if (workload.kind == ProblemKind::kModuloWarp) {
            rows.push_back(commandRow("gaus twill", workload.name, limit, flags.gaus,
                                      {"twill", workload.file}, scratch));
          }
        }
      }
    }
    fs::remove_all(scratch);
  }
  report.note("load at the end", fmt::format("{:.2f}", loadAverage().value_or(-1.0)));
  std::vector<std::vector<std::string>> table;
  int over = 0;
  int early = 0;
  for (const LimitRow& row : rows) {
    table.push_back(tableRow(row));
    if (verdict(row) == "OVER") ++over;
    if (verdict(row) == "finished before the limit") ++early;
  }
  report.add(Figure{"calls over limit + max(1 s, 10 %)", static_cast<double>(over), "", 0.0,
                    std::nullopt});
  report.add("calls that finished before their limit", early);
  report.add("calls", static_cast<double>(rows.size()));
  report.addTable("Wall time against the limit",
                  {"method or command", "input", "limit s", "wall s", "overrun s", "status",
                   "schedule", "load", "verdict"},
                  table);
  return report;
}

}  // namespace

void addLimitsSuite(CLI::App& app, BenchOptions& options) {
  auto flags = std::make_shared<LimitsFlags>();
  CLI::App* command = app.add_subcommand(
      "limits", "Wall time of every method and command against its --time-limit");
  command->add_option("--limits", flags->limits, "Time limits to try, seconds")
      ->capture_default_str();
  command->add_option("--runs", flags->runs, "Runs of each call at each limit")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  command->add_option("--methods", flags->methods,
                      "Methods to measure, comma-separated (default: every method)");
  command->add_option("--inputs", flags->inputs,
                      "Inputs to measure on, comma-separated: invert, invert-bounded, aes2, "
                      "fa_fwd_blackwell, galloping, gs1000 (default: every input)");
  command
      ->add_option("--solvers", flags->solvers,
                   "MILP solvers of the methods that take -O solver, one row each")
      ->capture_default_str();
  command->add_flag("!--no-commands", flags->commands,
                    "Skip the gaus schedule, gaus twill and gaus run rows");
  command->add_option("--shared", flags->shared, "Folder holding benchmarks/")
      ->capture_default_str();
  command
      ->add_option("--source", flags->source,
                   "The source tree, for the loops in tests/data (the galloping loop)")
      ->capture_default_str();
  command->add_option("--gaus", flags->gaus, "The gaus program for the command rows")
      ->capture_default_str();
  command->callback([flags, &options] { emitReport(runLimitsBench(*flags), options); });
}

}  // namespace gaus::bench
