// gaus-bench twill-model-cost: what a Twill SMT model costs in wall time beyond its checks, held
// against the estimate the search compares with the time left (exact::measureTwillModelCost,
// gaus/exact/twill_model_cost.hpp; issue 29): building it, Z3's load of it at its first check, and
// tearing it down. The load is measured as a check with a timeout of 1 ms, which returns only once
// the model is loaded: Z3 does not look at its timeout while it preprocesses and internalizes the
// assertions, which is why a model that cannot be loaded in the time left must not be started.
// The rates in twill/smt_size.cpp come from this table (docs/exact.md, "Time limits and model
// size"); a model whose measured cost exceeds its estimate misses the target.

#include <memory>

#include <fmt/format.h>

#include <gaus/exact/twill_model_cost.hpp>
#include <gaus/io/io.hpp>

#include "bench_main.hpp"

namespace gaus::bench {

namespace {

namespace fs = std::filesystem;

struct ModelCostFlags {
  // INPUT:WARPS:II:L, INPUT a built-in kernel, a path, or "galloping" for
  // tests/data/twill/fa_blackwell_galloping.yaml; WARPS 0 keeps the machine's.
  std::vector<std::string> cases;
  std::string shared = GAUS_SHARED_DIR;
  std::string source = GAUS_SOURCE_DIR;
};

// The shapes measured for smt_size.cpp's rates: the galloping loop along its gallop (32 warps,
// register rows growing with L), the sub-tiled stand-in at 32 and 6 warps, the smaller kernels,
// and Triton's dumps in raw cycles (millions of literals, no register rows).
std::vector<std::string> defaultCases(const ModelCostFlags& flags) {
  const std::string triton = (fs::path(flags.shared) / "benchmarks/triton-ddg").string();
  std::vector<std::string> cases;
  for (const char* latency : {"36", "72", "108", "180", "324", "612"}) {
    cases.push_back(fmt::format("galloping:0:18:{}", latency));
  }
  for (const char* latency : {"100", "200", "300", "400"}) {
    cases.push_back(fmt::format("fa_fwd_blackwell_subtiled:32:18:{}", latency));
  }
  for (const char* latency : {"100", "400", "800"}) {
    cases.push_back(fmt::format("fa_fwd_blackwell_subtiled:6:18:{}", latency));
  }
  cases.insert(
      cases.end(),
      {"fa_fwd_blackwell:3:16:160", "fa_fwd_blackwell:3:16:414", "fa_fwd_blackwell:32:16:400",
       "fa_fwd_hopper:0:16:400", "toy_fa:0:2:4", triton + "/case1_simple_gemm.ddg.json:0:260:1235",
       triton + "/case6_layernorm.ddg.json:0:567:2877", triton + "/case3_FA.ddg.json:0:1632:5600"});
  return cases;
}

struct ModelCase {
  std::string input;
  int warps = 0;
  std::int32_t ii = 0;
  Cycle latency = 0;
};

ModelCase parseCase(const std::string& text) {
  // The input may hold ':' only before the last three fields.
  ModelCase parsed;
  std::vector<std::string> fields;
  std::string rest = text;
  for (int i = 0; i < 3; ++i) {
    const auto colon = rest.rfind(':');
    if (colon == std::string::npos) {
      throw std::runtime_error(
          fmt::format("--case {}: expected INPUT:WARPS:II:L, e.g. galloping:0:18:324", text));
    }
    fields.push_back(rest.substr(colon + 1));
    rest = rest.substr(0, colon);
  }
  parsed.input = rest;
  parsed.latency = std::stoll(fields[0]);
  parsed.ii = std::stoi(fields[1]);
  parsed.warps = std::stoi(fields[2]);
  return parsed;
}

Problem poseCase(const ModelCase& model, const ModelCostFlags& flags) {
  const std::string input =
      model.input == "galloping"
          ? (fs::path(flags.source) / "tests/data/twill/fa_blackwell_galloping.yaml").string()
          : model.input;
  auto instance = io::readInstance(input);
  if (!instance) throw std::runtime_error(instance.error());
  Problem problem = instance->problem(ProblemKind::kModuloWarp);
  if (model.warps > 0) {
    auto machine = std::make_shared<Machine>(*problem.machine);
    machine->warps = model.warps;
    problem.machine = std::move(machine);
  }
  return problem;
}

Report runModelCost(const ModelCostFlags& flags) {
  Report report("Twill's SMT models: build, load into Z3 and teardown against the estimate");
  for (auto& [key, value] : environmentNotes()) report.note(key, value);
  if (const auto load = loadAverage()) {
    report.note("load at the start", fmt::format("{:.2f}", *load));
  }
  report.note("load", "a check with a timeout of 1 ms: it returns once Z3 has loaded the model");
  std::vector<std::vector<std::string>> rows;
  int over = 0;
  for (const std::string& text : flags.cases.empty() ? defaultCases(flags) : flags.cases) {
    const ModelCase model = parseCase(text);
    const Problem problem = poseCase(model, flags);
    const auto measured = exact::measureTwillModelCost(problem, model.ii, model.latency);
    if (!measured) throw std::runtime_error(measured.error());
    const exact::TwillModelCostSample& sample = *measured;
    if (sample.measuredTotal() > sample.estimatedTotal()) ++over;
    rows.push_back(
        {fs::path(model.input).filename().string(), std::to_string(problem.machine->warps),
         std::to_string(model.ii), std::to_string(model.latency), std::to_string(sample.literals),
         std::to_string(sample.registerRowTermsSquared), fmt::format("{:.2f}", sample.buildSeconds),
         fmt::format("{:.2f}", sample.loadSeconds), fmt::format("{:.2f}", sample.teardownSeconds),
         fmt::format("{:.1f} / {:.1f} / {:.1f}", sample.estimatedBuild, sample.estimatedLoad,
                     sample.estimatedTeardown),
         std::string(toString(sample.firstCheck))});
  }
  report.add(Figure{"models whose build + load + teardown exceeded the estimate",
                    static_cast<double>(over), "", 0.0, std::nullopt});
  report.addTable("Measured seconds and the estimate (build / load / teardown)",
                  {"input", "warps", "II", "L", "literals", "squared register row terms", "build s",
                   "load s", "teardown s", "estimate s", "first check"},
                  std::move(rows));
  return report;
}

}  // namespace

void addTwillModelCostSuite(CLI::App& app, BenchOptions& options) {
  auto flags = std::make_shared<ModelCostFlags>();
  CLI::App* command = app.add_subcommand(
      "twill-model-cost",
      "Twill's SMT models: build, load into Z3 and teardown seconds against their estimate");
  command->add_option("--case", flags->cases,
                      "INPUT:WARPS:II:L (repeatable; INPUT a kernel, a path or galloping; "
                      "WARPS 0 keeps the machine's; default: the calibration set)");
  command->add_option("--shared", flags->shared, "Folder holding benchmarks/")
      ->capture_default_str();
  command->add_option("--source", flags->source, "The source tree, for the galloping loop")
      ->capture_default_str();
  command->callback([flags, &options] { emitReport(runModelCost(*flags), options); });
}

}  // namespace gaus::bench
