// gaus-bench crosscheck: the cross-method check (crosscheck/*.hpp,
// docs/benchmarks.md "Cross-method check"). Random cases of every problem kind, one per seed,
// each solved by every method of the catalog that accepts its kind; the answers are compared
// with each other and, on small cases, with exhaustive enumeration. A disagreement is shrunk
// and written as a reproducer, and fails the run.
//   gaus-bench crosscheck --instances 10000              the benchmark form
//   gaus-bench crosscheck --family stages --max-ops 8    tiny cases, every one enumerated
//   gaus-bench crosscheck --replay tests/data/crosscheck   every reproducer again

#include <iostream>
#include <map>
#include <set>

#include <fmt/format.h>

#include <gaus/crosscheck/crosscheck.hpp>
#include <gaus/crosscheck/reproducer.hpp>
#include <gaus/crosscheck/shrink_problem.hpp>
#include <gaus/methods/method_catalog.hpp>

#include "bench_main.hpp"

namespace gaus::bench {

namespace {

using crosscheck::CaseOutcome;
using crosscheck::CrossCheckCase;
using crosscheck::Disagreement;

struct CrossCheckFlags {
  std::int64_t instances = 1000;
  std::uint64_t firstSeed = 1;
  std::string family;       // empty: the family each seed draws
  std::int32_t maxOps = 0;  // 0: the families' own sizes (3 to 40 ops)
  double timeLimit = 1.0;
  std::int32_t exhaustiveMaxOps = 8;
  std::int64_t exhaustiveNodes = 2'000'000;
  std::string reproducers = "crosscheck-reproducers";
  std::vector<std::string> replay;
  bool shrink = true;
  std::int32_t shrinkTrials = 150;
  double progressSeconds = 0;  // 0: no progress lines
};

// Tallies per family and per method for the report's tables.
struct FamilyTally {
  std::int64_t instances = 0;
  std::int64_t exhaustiveRan = 0;
  std::int64_t exhaustiveComplete = 0;
  std::int64_t claims = 0;
  std::int64_t disagreements = 0;
  OpId fewestOps = 0;
  OpId mostOps = 0;
};
struct MethodTally {
  std::map<std::string, std::int64_t> statuses;
  std::int64_t runs = 0;
  double seconds = 0;
  double slowest = 0;
};

class CrossCheckRun {
 public:
  explicit CrossCheckRun(const CrossCheckFlags& flags) : flags_(flags) {
    options_.timeLimitSeconds = flags.timeLimit;
    options_.exhaustiveMaxOps = flags.exhaustiveMaxOps;
    options_.budget.nodes = flags.exhaustiveNodes;
  }

  // Checks one case; every distinct (check, method) it disagrees on is shrunk and written.
  void check(const CrossCheckCase& crossCheckCase) {
    const CaseOutcome outcome = crosscheck::checkCase(crossCheckCase, options_, methodCatalog());
    tally(crossCheckCase, outcome);
    std::set<std::pair<std::string, std::string>> seen;
    for (const Disagreement& disagreement : outcome.disagreements) {
      if (!seen.emplace(disagreement.check, disagreement.method).second) continue;
      record(crossCheckCase, disagreement, outcome);
    }
  }

  // Runs a reproducer again: any disagreement at all on it counts.
  void replay(const crosscheck::Reproducer& reproducer) {
    const CaseOutcome outcome =
        crosscheck::checkCase(reproducer.crossCheckCase, options_, methodCatalog());
    tally(reproducer.crossCheckCase, outcome);
    for (const Disagreement& disagreement : outcome.disagreements) {
      found_.push_back({{"seed", reproducer.crossCheckCase.seed},
                        {"family", toString(reproducer.crossCheckCase.family)},
                        {"check", disagreement.check},
                        {"method", disagreement.method},
                        {"witness", disagreement.witness},
                        {"message", disagreement.message},
                        {"reproducer", reproducer.path.string()}});
    }
  }

  Report report(double seconds) const {
    Report report("Cross-method check");
    for (auto& [key, value] : environmentNotes()) report.note(key, value);
    report.note("settings",
                fmt::format("time_limit {} s and seed {} for every method that declares them; "
                            "exhaustive references up to {} ops ({} nodes)",
                            options_.timeLimitSeconds, options_.methodSeed,
                            options_.exhaustiveMaxOps, options_.budget.nodes));
    if (flags_.replay.empty()) {
      report.note(
          "seeds",
          fmt::format("{} to {}{}", flags_.firstSeed, flags_.firstSeed + flags_.instances - 1,
                      flags_.maxOps > 0 ? fmt::format(", 3 to {} ops each", flags_.maxOps)
                                        : std::string()));
    }
    report.add("instances", static_cast<double>(instances_));
    report.add({"disagreements", static_cast<double>(found_.size()), "", 0.0, std::nullopt});
    report.add("time", seconds, "s");
    std::vector<std::vector<std::string>> familyRows;
    for (const auto& [family, tally] : families_) {
      familyRows.push_back({family, std::to_string(tally.instances),
                            fmt::format("{}-{}", tally.fewestOps, tally.mostOps),
                            std::to_string(tally.exhaustiveRan),
                            std::to_string(tally.exhaustiveComplete), std::to_string(tally.claims),
                            std::to_string(tally.disagreements)});
    }
    report.addTable("Per family",
                    {"family", "instances", "ops", "exhaustive runs", "complete", "claims compared",
                     "disagreements"},
                    familyRows);
    std::vector<std::vector<std::string>> methodRows;
    for (const auto& [method, tally] : methods_) {
      std::string statuses;
      for (const auto& [status, count] : tally.statuses) {
        statuses += fmt::format("{}{} {}", statuses.empty() ? "" : ", ", status, count);
      }
      methodRows.push_back({method, std::to_string(tally.runs), statuses,
                            fmt::format("{:.3f}", tally.seconds / std::max<double>(1, tally.runs)),
                            fmt::format("{:.2f}", tally.slowest)});
    }
    report.addTable("Per method", {"method", "runs", "statuses", "mean s", "slowest s"},
                    methodRows);
    std::vector<std::vector<std::string>> disagreementRows;
    for (const auto& entry : found_) {
      disagreementRows.push_back({std::to_string(entry["seed"].get<std::uint64_t>()),
                                  entry["check"], entry["method"], entry["witness"],
                                  entry["message"], entry["reproducer"]});
    }
    if (!disagreementRows.empty()) {
      report.addTable("Disagreements",
                      {"seed", "check", "method", "witness", "message", "reproducer"},
                      disagreementRows);
    }
    report.addJsonSection("disagreements", found_);
    return report;
  }

  std::int64_t instances() const { return instances_; }
  std::size_t disagreements() const { return found_.size(); }

 private:
  void tally(const CrossCheckCase& crossCheckCase, const CaseOutcome& outcome) {
    ++instances_;
    FamilyTally& family = families_[std::string(toString(crossCheckCase.family))];
    const OpId ops = crossCheckCase.problem.graph->numOps();
    family.fewestOps = family.instances == 0 ? ops : std::min(family.fewestOps, ops);
    family.mostOps = std::max(family.mostOps, ops);
    ++family.instances;
    family.exhaustiveRan += outcome.exhaustiveRan ? 1 : 0;
    family.exhaustiveComplete += outcome.exhaustiveComplete ? 1 : 0;
    family.claims += outcome.claimsCompared;
    family.disagreements += static_cast<std::int64_t>(outcome.disagreements.size());
    for (const auto& run : outcome.runs) {
      MethodTally& method = methods_[run.method];
      ++method.runs;
      ++method.statuses[std::string(run.result.statusText())];
      method.seconds += run.result.stats.seconds;
      method.slowest = std::max(method.slowest, run.result.stats.seconds);
    }
  }

  // Shrinks the case while the same method keeps failing the same check, then writes it.
  void record(const CrossCheckCase& crossCheckCase, const Disagreement& disagreement,
              const CaseOutcome& outcome) {
    CrossCheckCase smallest = crossCheckCase;
    CaseOutcome smallestOutcome = outcome;
    Disagreement kept = disagreement;
    if (flags_.shrink) {
      const auto matches = [&](const CaseOutcome& candidate) -> const Disagreement* {
        for (const Disagreement& d : candidate.disagreements) {
          if (d.check == disagreement.check && d.method == disagreement.method) return &d;
        }
        return nullptr;
      };
      crosscheck::ShrinkOptions shrinkOptions;
      shrinkOptions.maxTrials = flags_.shrinkTrials;
      const auto shrunk = crosscheck::shrinkProblem(
          crossCheckCase.problem,
          [&](const Problem& candidate) {
            const CaseOutcome result =
                crosscheck::checkCase(crosscheck::caseOf(crossCheckCase.seed, crossCheckCase.family,
                                                         candidate, crossCheckCase.instance.name),
                                      options_, methodCatalog());
            return matches(result) != nullptr;
          },
          shrinkOptions);
      smallest = crosscheck::caseOf(crossCheckCase.seed, crossCheckCase.family, shrunk.problem,
                                    crossCheckCase.instance.name);
      smallestOutcome = crosscheck::checkCase(smallest, options_, methodCatalog());
      if (const Disagreement* again = matches(smallestOutcome)) {
        kept = *again;
      } else {  // a disagreement that depends on timing: keep the original
        smallest = crossCheckCase;
        smallestOutcome = outcome;
      }
    }
    const auto written =
        crosscheck::writeReproducer(flags_.reproducers, smallest, kept, smallestOutcome);
    found_.push_back({{"seed", crossCheckCase.seed},
                      {"family", toString(crossCheckCase.family)},
                      {"check", kept.check},
                      {"method", kept.method},
                      {"witness", kept.witness},
                      {"message", kept.message},
                      {"ops", smallest.problem.graph->numOps()},
                      {"reproducer", written ? written->string() : written.error()}});
    std::cerr << fmt::format("crosscheck: seed {}: {} ({}): {}\n", crossCheckCase.seed, kept.check,
                             kept.method, kept.message);
  }

  const CrossCheckFlags& flags_;
  crosscheck::CheckOptions options_;
  std::int64_t instances_ = 0;
  std::map<std::string, FamilyTally> families_;
  std::map<std::string, MethodTally> methods_;
  nlohmann::json found_ = nlohmann::json::array();
};

Report runCrossCheck(const CrossCheckFlags& flags) {
  std::optional<crosscheck::Family> family;
  if (!flags.family.empty()) {
    family = crosscheck::kFamilyNames.parse(flags.family);
    if (!family) {
      throw std::runtime_error(
          fmt::format("--family {}: expected {}", flags.family,
                      option_text::listChoices(crosscheck::kFamilyNames.names())));
    }
  }
  CrossCheckRun run(flags);
  Stopwatch clock;
  double lastProgress = 0;
  if (!flags.replay.empty()) {
    for (const std::string& given : flags.replay) {
      for (const auto& path : crosscheck::reproducerFiles(given)) {
        auto reproducer = crosscheck::readReproducer(path);
        if (!reproducer) throw std::runtime_error(reproducer.error());
        run.replay(*reproducer);
      }
    }
    return run.report(clock.seconds());
  }
  for (std::int64_t i = 0; i < flags.instances; ++i) {
    const std::uint64_t seed = flags.firstSeed + static_cast<std::uint64_t>(i);
    auto crossCheckCase = crosscheck::generateCase(
        seed, family, flags.maxOps > 0 ? std::optional<std::int32_t>(flags.maxOps) : std::nullopt);
    if (!crossCheckCase) {
      throw std::runtime_error(fmt::format("seed {}: {}", seed, crossCheckCase.error()));
    }
    run.check(*crossCheckCase);
    if (flags.progressSeconds > 0 && clock.seconds() - lastProgress >= flags.progressSeconds) {
      lastProgress = clock.seconds();
      std::cerr << fmt::format("crosscheck: {} of {} instances, {} disagreements, {:.0f} s\n",
                               run.instances(), flags.instances, run.disagreements(), lastProgress);
    }
  }
  return run.report(clock.seconds());
}

}  // namespace

void addCrossCheckSuite(CLI::App& app, BenchOptions& options) {
  auto flags = std::make_shared<CrossCheckFlags>();
  CLI::App* command = app.add_subcommand(
      "crosscheck",
      "Cross-method check: random cases of every problem kind, every method that "
      "solves them, exhaustive references on small ones");
  command->add_option("--instances", flags->instances, "Random cases to check")
      ->capture_default_str();
  command->add_option("--first-seed", flags->firstSeed, "Seed of the first case (one per case)")
      ->capture_default_str();
  command->add_option("--family", flags->family,
                      "Only this family: latency, latency-bounded, modulo, modulo-warp, stages");
  command->add_option("--max-ops", flags->maxOps,
                      "Tiny cases only: 3 to this many ops each, all within the exhaustive "
                      "references' reach (0: the families' own sizes)");
  command->add_option("--time-limit", flags->timeLimit, "Seconds per method run")
      ->capture_default_str();
  command
      ->add_option("--exhaustive-ops", flags->exhaustiveMaxOps,
                   "Exhaustive references on cases up to this many ops")
      ->capture_default_str();
  command
      ->add_option("--exhaustive-nodes", flags->exhaustiveNodes,
                   "Nodes an exhaustive search may visit before it gives up")
      ->capture_default_str();
  command
      ->add_option("--reproducers", flags->reproducers,
                   "Folder the reproducers of disagreements are written to")
      ->capture_default_str();
  command->add_option("--replay", flags->replay,
                      "Reproducer files or folders to check again instead of random cases");
  command->add_flag("!--no-shrink", flags->shrink, "Write disagreements as found, unshrunk");
  command
      ->add_option("--shrink-trials", flags->shrinkTrials,
                   "Candidates tested while shrinking one disagreement")
      ->capture_default_str();
  command->add_option("--progress", flags->progressSeconds,
                      "Seconds between progress lines on stderr (0: none)");
  command->callback([flags, &options] { emitReport(runCrossCheck(*flags), options); });
}

}  // namespace gaus::bench
