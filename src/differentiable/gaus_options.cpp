// Reading, echoing and documenting GausOptions from one table, so that the three never disagree.
#include <array>
#include <variant>

#include <fmt/format.h>

#include <gaus/differentiable/gaus_options.hpp>

namespace gaus::differentiable {

std::string_view toString(Formulation formulation) {
  switch (formulation) {
    case Formulation::kAuto:
      return "auto";
    case Formulation::kStageWeight:
      return "A";
    case Formulation::kPeakMemory:
      return "B";
    case Formulation::kModulo:
      return "C";
    case Formulation::kLatency:
      return "L";
  }
  return "?";
}

std::optional<Formulation> parseFormulation(std::string_view text) {
  for (Formulation f : {Formulation::kAuto, Formulation::kStageWeight, Formulation::kPeakMemory,
                        Formulation::kModulo, Formulation::kLatency}) {
    if (text == toString(f)) return f;
  }
  if (text == "a") return Formulation::kStageWeight;
  if (text == "b") return Formulation::kPeakMemory;
  if (text == "c") return Formulation::kModulo;
  if (text == "l") return Formulation::kLatency;
  return std::nullopt;
}

std::string_view toString(Initialization initialization) {
  switch (initialization) {
    case Initialization::kAuto:
      return "auto";
    case Initialization::kAsapAlap:
      return "asap-alap";
    case Initialization::kList:
      return "list";
    case Initialization::kGiven:
      return "given";
  }
  return "?";
}

std::optional<Initialization> parseInitialization(std::string_view text) {
  for (Initialization i : {Initialization::kAuto, Initialization::kAsapAlap, Initialization::kList,
                           Initialization::kGiven}) {
    if (text == toString(i)) return i;
  }
  return std::nullopt;
}

std::string_view toString(ModuloObjective objective) {
  switch (objective) {
    case ModuloObjective::kAuto:
      return "auto";
    case ModuloObjective::kNone:
      return "none";
    case ModuloObjective::kLatency:
      return "latency";
    case ModuloObjective::kMemory:
      return "memory";
  }
  return "?";
}

std::optional<ModuloObjective> parseModuloObjective(std::string_view text) {
  for (ModuloObjective o : {ModuloObjective::kAuto, ModuloObjective::kNone,
                            ModuloObjective::kLatency, ModuloObjective::kMemory}) {
    if (text == toString(o)) return o;
  }
  return std::nullopt;
}

namespace {

using Field = std::variant<double GausOptions::*, std::int64_t GausOptions::*,
                           std::uint64_t GausOptions::*, bool GausOptions::*,
                           std::string GausOptions::*, std::optional<double> GausOptions::*,
                           std::optional<std::int64_t> GausOptions::*, Formulation GausOptions::*,
                           Initialization GausOptions::*, ModuloObjective GausOptions::*>;

struct OptionEntry {
  const char* name;
  Field field;
  const char* description;
};

const std::array kOptionTable = {
    OptionEntry{"formulation", &GausOptions::formulation,
                "A (stage weight), B (peak memory), C (modulo), L (latency search) or auto"},
    OptionEntry{"lr", &GausOptions::learningRate, "Adam learning rate, in time steps"},
    OptionEntry{"K", &GausOptions::adamSteps, "Adam steps between multiplier updates"},
    OptionEntry{"rho0", &GausOptions::rho0, "initial penalty rho"},
    OptionEntry{"gamma", &GausOptions::gamma, "rho growth factor"},
    OptionEntry{"eta", &GausOptions::eta,
                "grow rho when the violation fell by less than this factor"},
    OptionEntry{"rho_max", &GausOptions::rhoMax, "cap on rho"},
    OptionEntry{"sigma_min", &GausOptions::sigmaMin, "smallest sigma"},
    OptionEntry{"sigma_max", &GausOptions::sigmaMax, "largest sigma (sets the window width)"},
    OptionEntry{"kappa", &GausOptions::kappa,
                "initial sigma = kappa * (ALAP - ASAP), clamped to [sigma_min, sigma_max]"},
    OptionEntry{"sigma_restart", &GausOptions::sigmaRestart,
                "sigma when mu restarts from a schedule"},
    OptionEntry{"restart_noise", &GausOptions::restartNoise,
                "std. dev. of the noise on mu of batch rows 1..B-1"},
    OptionEntry{"tau", &GausOptions::tau, "temperature of the smooth maxima (normalized units)"},
    OptionEntry{"alpha", &GausOptions::alpha, "A: weight of communication"},
    OptionEntry{"harden", &GausOptions::harden, "weight of sum(sigma) in the loss"},
    OptionEntry{"window_k", &GausOptions::windowK, "window W = 2 * ceil(k * sigma_max) + 1"},
    OptionEntry{"dense", &GausOptions::dense, "use the |V| x D model (W = D; for tests)"},
    OptionEntry{
        "batch", &GausOptions::batch,
        "B: independent starts optimized as one batch (0: 8 up to 1,250 ops, 1 from 10,000 on)"},
    OptionEntry{"mixed_starts", &GausOptions::mixedStarts,
                "odd batch rows start from the ASAP/ALAP midpoint, the others from a schedule"},
    OptionEntry{"updates_per_round", &GausOptions::updatesPerRound,
                "multiplier updates per round before mu restarts from the best schedule"},
    OptionEntry{"patience", &GausOptions::patience,
                "rounds without improvement before an attempt stops"},
    OptionEntry{"time_limit", &GausOptions::timeLimitSeconds, "seconds for the whole run"},
    OptionEntry{"max_steps", &GausOptions::maxSteps, "Adam step budget (unset: none)"},
    OptionEntry{"target", &GausOptions::target, "stop once the objective is <= target"},
    OptionEntry{"init", &GausOptions::initialization,
                "auto, asap-alap, list or given (RunContext's initial schedule)"},
    OptionEntry{"release", &GausOptions::releaseTimes,
                "legalize never before round(mu): auto (A and B), on, off"},
    OptionEntry{"objective", &GausOptions::moduloObjective, "C: auto, none, latency or memory"},
    OptionEntry{"horizon_search", &GausOptions::horizonSearch,
                "L and C: linear, bisect, or auto (bisect gaps over 32)"},
    OptionEntry{"horizon_slack", &GausOptions::horizonSlack,
                "C without a horizon: D = (1 + slack) * the start's latency"},
    OptionEntry{"device", &GausOptions::device, "auto, cpu or cuda"},
    OptionEntry{"dtype", &GausOptions::dtype, "float32 or float64"},
    OptionEntry{"kernels", &GausOptions::kernels,
                "auto (fused on CPU, LibTorch on CUDA), fused or torch"},
    OptionEntry{"threads", &GausOptions::threads, "CPU threads (0: LibTorch's default)"},
    OptionEntry{"seed", &GausOptions::seed, "seed of the multi-start noise"},
    OptionEntry{"trace", &GausOptions::tracePath,
                "trace file: CSV when it ends in .csv, else JSON lines"},
    OptionEntry{"progress_interval", &GausOptions::progressIntervalSeconds,
                "seconds between progress lines"},
};

std::string formatValue(const GausOptions& options, const Field& field) {
  return std::visit(
      [&](auto member) -> std::string {
        const auto& value = options.*member;
        using Value = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<Value, bool>) {
          return value ? "true" : "false";
        } else if constexpr (std::is_same_v<Value, std::string>) {
          return value;
        } else if constexpr (std::is_same_v<Value, std::optional<double>> ||
                             std::is_same_v<Value, std::optional<std::int64_t>>) {
          return value ? fmt::format("{}", *value) : std::string("none");
        } else if constexpr (std::is_same_v<Value, Formulation> ||
                             std::is_same_v<Value, Initialization> ||
                             std::is_same_v<Value, ModuloObjective>) {
          return std::string(toString(value));
        } else {
          return fmt::format("{}", value);
        }
      },
      field);
}

// Reads one option into `options` (whose current value is the default).
void readValue(OptionReader& reader, const OptionEntry& entry, GausOptions& options,
               std::vector<std::string>& errors) {
  std::visit(
      [&](auto member) {
        auto& value = options.*member;
        using Value = std::decay_t<decltype(value)>;
        const std::string name = entry.name;
        if constexpr (std::is_same_v<Value, double>) {
          value = reader.getDouble(name, value);
        } else if constexpr (std::is_same_v<Value, std::int64_t>) {
          value = reader.getInt(name, value);
        } else if constexpr (std::is_same_v<Value, std::uint64_t>) {
          const std::int64_t read = reader.getInt(name, static_cast<std::int64_t>(value));
          if (read < 0) errors.push_back(fmt::format("option '{}' must be >= 0", name));
          value = static_cast<std::uint64_t>(read);
        } else if constexpr (std::is_same_v<Value, bool>) {
          value = reader.getBool(name, value);
        } else if constexpr (std::is_same_v<Value, std::string>) {
          value = reader.getString(name, value);
        } else if constexpr (std::is_same_v<Value, std::optional<double>>) {
          if (auto read = reader.getOptionalDouble(name)) value = read;
        } else if constexpr (std::is_same_v<Value, std::optional<std::int64_t>>) {
          if (auto read = reader.getOptionalInt(name)) value = read;
        } else {
          const std::string text = reader.getString(name, std::string(toString(value)));
          std::optional<Value> parsed;
          if constexpr (std::is_same_v<Value, Formulation>) parsed = parseFormulation(text);
          if constexpr (std::is_same_v<Value, Initialization>) parsed = parseInitialization(text);
          if constexpr (std::is_same_v<Value, ModuloObjective>) parsed = parseModuloObjective(text);
          if (parsed) {
            value = *parsed;
          } else {
            errors.push_back(
                fmt::format("option '{}': '{}' is not one of: {}", name, text, entry.description));
          }
        }
      },
      entry.field);
}

// Ranges: each message names the option, the value and what it must be.
void checkRanges(const GausOptions& o, std::vector<std::string>& errors) {
  const auto require = [&](bool ok, const char* name, const auto& value, const char* rule) {
    if (!ok) errors.push_back(fmt::format("option '{}' = {} must be {}", name, value, rule));
  };
  require(o.sigmaMin > 0, "sigma_min", o.sigmaMin, "> 0");
  require(o.sigmaMax > o.sigmaMin, "sigma_max", o.sigmaMax, "> sigma_min");
  require(o.windowK > 0, "window_k", o.windowK, "> 0");
  require(o.kappa > 0, "kappa", o.kappa, "> 0");
  require(o.sigmaRestart > 0, "sigma_restart", o.sigmaRestart, "> 0");
  require(o.restartNoise >= 0, "restart_noise", o.restartNoise, ">= 0");
  require(o.learningRate > 0, "lr", o.learningRate, "> 0");
  require(o.adamSteps >= 1, "K", o.adamSteps, ">= 1");
  require(o.rho0 > 0, "rho0", o.rho0, "> 0");
  require(o.gamma >= 1, "gamma", o.gamma, ">= 1");
  require(o.eta > 0 && o.eta <= 1, "eta", o.eta, "in (0, 1]");
  require(o.rhoMax >= o.rho0, "rho_max", o.rhoMax, ">= rho0");
  require(o.tau > 0, "tau", o.tau, "> 0");
  require(o.alpha >= 0, "alpha", o.alpha, ">= 0");
  require(o.harden >= 0, "harden", o.harden, ">= 0");
  require(o.batch >= 0, "batch", o.batch, ">= 0 (0: auto)");
  require(o.updatesPerRound >= 1, "updates_per_round", o.updatesPerRound, ">= 1");
  require(o.patience >= 1, "patience", o.patience, ">= 1");
  require(!o.timeLimitSeconds || *o.timeLimitSeconds > 0, "time_limit",
          o.timeLimitSeconds.value_or(0), "> 0");
  require(!o.maxSteps || *o.maxSteps >= 0, "max_steps", o.maxSteps.value_or(0), ">= 0");
  require(o.horizonSlack >= 0, "horizon_slack", o.horizonSlack, ">= 0");
  require(o.threads >= 0, "threads", o.threads, ">= 0");
  require(o.progressIntervalSeconds >= 0, "progress_interval", o.progressIntervalSeconds, ">= 0");
  require(o.horizonSearch == "auto" || o.horizonSearch == "linear" || o.horizonSearch == "bisect",
          "horizon_search", o.horizonSearch, "auto, linear or bisect");
  require(o.releaseTimes == "auto" || o.releaseTimes == "on" || o.releaseTimes == "off", "release",
          o.releaseTimes, "auto, on or off");
}

// The defaults a run starts from: the struct's, with seed, device and time limit taken from the
// caller's context.
GausOptions contextDefaults(const RunContext& context) {
  GausOptions options;
  options.seed = context.seed;
  options.device = context.device;
  options.timeLimitSeconds = context.timeLimitSeconds.value_or(60.0);
  return options;
}

}  // namespace

Expected<GausOptions> readGausOptions(const MethodOptions& options, const RunContext& context) {
  GausOptions result = contextDefaults(context);
  OptionReader reader("gaus", options);
  std::vector<std::string> errors;
  for (const OptionEntry& entry : kOptionTable) readValue(reader, entry, result, errors);
  checkRanges(result, errors);
  std::string message = reader.finish();
  for (const auto& error : errors) message += (message.empty() ? "method gaus: " : "; ") + error;
  if (!message.empty()) return Error{message};
  return result;
}

std::vector<std::pair<std::string, std::string>> describeOptions(const GausOptions& options) {
  std::vector<std::pair<std::string, std::string>> described;
  for (const OptionEntry& entry : kOptionTable) {
    described.emplace_back(entry.name, formatValue(options, entry.field));
  }
  return described;
}

std::vector<OptionDoc> gausOptionDocs() {
  const GausOptions defaults = contextDefaults(RunContext{});
  std::vector<OptionDoc> docs;
  for (const OptionEntry& entry : kOptionTable) {
    docs.push_back({entry.name, formatValue(defaults, entry.field), entry.description});
  }
  return docs;
}

}  // namespace gaus::differentiable
