// An experiment configuration (configs/experiments/*.yaml, docs/experiments.md): which graphs,
// which problem on each, which methods with which option grids, and the budgets of the runs.
// readExperimentConfig checks everything it can before a single run starts: every key (an
// unknown one is named with the nearest known one), every value, every method name and every
// option against the method's own table. A mistake fails with one line naming the file, the
// line, the key and what was expected:
//   quickstart.yaml:14: methods[1].options: method gaus: unknown option 'lrr' (did you mean 'lr'?)
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/memory_limit.hpp>  // parseByteSize: budgets.memory_limit
#include <gaus/core/options.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/random_graph.hpp>
#include <gaus/methods/registry.hpp>

namespace gaus::experiment {

// How the horizon D of a run's problem is set: not at all, a number of cycles, or a factor times
// a figure of the graph (its critical path, or the latency of another method's schedule of it).
struct HorizonPolicy {
  enum class Kind { kNone, kCycles, kCriticalPath, kMethodLatency };
  Kind kind = Kind::kNone;
  std::int64_t cycles = 0;  // kCycles
  std::string method;       // kMethodLatency: "list" for "list_latency"
  double factor = 1.0;      // D = ceil(factor * figure)
  std::string text;         // as written ("list_latency * 1.0")
};

// How the II of a modulo problem is set: searched by the method, fixed, or fixed at the MII.
struct IiPolicy {
  enum class Kind { kSearch, kFixed, kMii };
  Kind kind = Kind::kSearch;
  std::int32_t ii = 0;  // kFixed
  std::string text;
};

// The problem posed on a graph. Each field is optional so that a graph entry and a method entry
// can override some keys of the experiment's `problem` and keep the others.
struct ProblemSpec {
  std::optional<std::string> kind;     // a ProblemKind name, or "inferred" (per method)
  std::optional<std::string> machine;  // a machine name or file to rebind the graph to
  std::optional<HorizonPolicy> horizon;
  std::optional<IiPolicy> ii;
  // The figure of the verified schedule recorded as the objective, so that methods with
  // different objectives are compared on one ("latency", "ii", "peak_memory"), and the objective
  // every method of the run is asked to minimize (Problem::objective: a heuristic without one
  // reports the figure); "method": the method's own objective.
  std::optional<std::string> objective;

  // `over` on top of this: the keys `over` sets win.
  ProblemSpec mergedWith(const ProblemSpec& over) const;
};

// One generated graph: the generator's options and the parameters that name it.
struct GeneratedGraph {
  RandomGraphOptions options;
  std::map<std::string, std::string> parameters;  // key -> value as written, for the id
};

// A file found by a graph entry, and the folder its id is relative to.
struct GraphFile {
  std::string path;  // a path (optionally FILE#SELECTOR) or a built-in kernel name
  std::filesystem::path base;
};

// One entry of `graphs:`: files, globs or a generator grid, with the set name methods refer to.
struct GraphEntry {
  std::string set;
  std::vector<GraphFile> files;           // files and glob matches, sorted per glob
  std::vector<GeneratedGraph> generated;  // the generator grid, expanded
  std::string idPattern;                  // placeholders: see docs/experiments.md
  ProblemSpec problem;                    // over the experiment's problem
  std::string referenceFigure;            // a figure the reader records (Instance::reference)
  std::map<std::string, double, std::less<>> referenceValues;  // from a file, by graph name
  std::optional<double> timeLimit;  // over the budgets' time limit for runs on these graphs
  std::int64_t line = 0;
};

// Where a method entry's start schedule comes from (`init: {from: LABEL}`).
struct StartSpec {
  std::string from;  // a method entry's label, or a method name run with `options` first
  MethodOptions options;
  bool hasOptions = false;
  std::string key;  // "methods[2].init", for messages
  std::int64_t line = 0;
};

// One method entry at one point of its option grid.
struct MethodEntry {
  std::string label;  // unique within the experiment
  std::string method;
  MethodOptions options;
  std::vector<std::string> sets;  // the graph sets it runs on; empty: every set
  ProblemSpec problem;            // over the graph's problem
  std::optional<StartSpec> start;
  std::int64_t line = 0;
};

struct Budgets {
  std::optional<double> timeLimit;  // seconds per run: the setting time_limit
  double grace = 30.0;              // seconds past the limit before a run is stopped
  std::int32_t repeats = 1;
  std::vector<std::uint64_t> seeds = {1};  // for methods that declare the setting seed
  std::optional<std::int64_t> memoryLimitBytes;
  std::int32_t jobs = 1;
  std::optional<std::int32_t> threads;  // the setting threads; unset: cores / jobs
  std::filesystem::path output;         // relative paths are relative to the current folder
  bool schedules = false;               // write every verified schedule beside the results
};

struct ExperimentConfig {
  std::filesystem::path path;
  std::string name;
  std::string description;
  std::vector<GraphEntry> graphs;
  std::vector<MethodEntry> methods;
  Budgets budgets;
  // Applied to every method that declares them; text as the YAML gives it (the option table
  // reads each value once, as it reads an option).
  Settings settings;
};

// Reads and checks a configuration. Method names and options are checked against `registry`.
Expected<ExperimentConfig> readExperimentConfig(const std::filesystem::path& path,
                                                const MethodRegistry& registry);

}  // namespace gaus::experiment
