#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include <gaus/core/registry.hpp>

namespace gaus {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Deadline::Deadline(std::optional<double> seconds) : start_(std::chrono::steady_clock::now()) {
  if (seconds) {
    end_ = start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(std::max(0.0, *seconds)));
  }
}

bool Deadline::expired() const {
  return end_ && std::chrono::steady_clock::now() >= *end_;
}

double Deadline::remainingSeconds() const {
  if (!end_) return std::numeric_limits<double>::infinity();
  return std::max(0.0,
                  std::chrono::duration<double>(*end_ - std::chrono::steady_clock::now()).count());
}

double Deadline::elapsedSeconds() const {
  return secondsSince(start_);
}

bool MethodInfo::solves(ProblemKind kind) const {
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

bool MethodInfo::declares(std::string_view option) const {
  return std::any_of(options.begin(), options.end(),
                     [&](const OptionDoc& doc) { return doc.name == option; });
}

AppliedSettings applySettings(const MethodInfo& method, MethodOptions options,
                              const MethodOptions& settings) {
  AppliedSettings applied;
  for (const auto& [name, value] : settings) {
    if (!method.declares(name)) {
      applied.ignored.push_back(name);
    } else if (!options.contains(name)) {
      options.emplace(name, value);
    }
  }
  applied.options = std::move(options);
  return applied;
}

ProblemKind inferProblemKind(const Graph& graph, const MethodInfo& method, bool fixedIi,
                             bool hasHorizon) {
  std::vector<ProblemKind> preferred;
  if (graph.hasLoopCarriedEdges() || fixedIi) {
    preferred = {ProblemKind::kModulo, ProblemKind::kModuloWarp};
  } else if (hasHorizon) {
    preferred = {ProblemKind::kLatencyBounded};
  } else {
    preferred = {ProblemKind::kLatency};
  }
  for (ProblemKind kind : preferred) {
    if (method.solves(kind)) return kind;
  }
  return method.kinds.empty() ? preferred.front() : method.kinds.front();
}

void MethodRegistry::add(MethodInfo method) {
  const std::string name = method.name;
  methods_.insert_or_assign(name, std::move(method));
}

const MethodInfo* MethodRegistry::find(std::string_view name) const {
  const auto it = methods_.find(name);
  return it == methods_.end() ? nullptr : &it->second;
}

std::vector<std::string> MethodRegistry::names() const {
  std::vector<std::string> result;
  for (const auto& [name, method] : methods_) result.push_back(name);
  return result;
}

Result MethodRegistry::run(std::string_view name, const Problem& problem,
                           const MethodOptions& options, const RunContext& context,
                           const MethodOptions& settings) const {
  const MethodInfo* method = find(name);
  if (method == nullptr) {
    std::string known;
    for (const auto& known_name : names()) known += (known.empty() ? "" : ", ") + known_name;
    return errorResult(fmt::format("unknown method '{}' (known: {})", name, known));
  }
  if (!method->solves(problem.kind)) {
    std::string kinds;
    for (ProblemKind kind : method->kinds) {
      kinds += std::string(kinds.empty() ? "" : ", ") + std::string(toString(kind));
    }
    return errorResult(fmt::format("method {} does not solve {} problems (it solves: {})", name,
                                   toString(problem.kind), kinds));
  }
  if (const auto errors = problem.check(); !errors.empty()) {
    std::string message = errors.front();
    if (errors.size() > 1) message += fmt::format(" (and {} more input errors)", errors.size() - 1);
    return errorResult(message);
  }
  const auto start = std::chrono::steady_clock::now();
  Result result = method->run(problem, applySettings(*method, options, settings).options, context);
  result.stats.seconds = secondsSince(start);
  if (result.schedule) {
    result.verification = verify(problem, *result.schedule);
    if (!result.verification->ok()) {
      result.message = fmt::format("method {} returned a schedule that fails verification: {}",
                                   name, result.verification->summary());
      result.call = CallStatus::kError;
    }
  }
  return result;
}

}  // namespace gaus
