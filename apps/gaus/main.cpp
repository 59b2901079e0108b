// gaus: schedule dependence graphs. One file per subcommand; this file wires them up and turns
// every failure into one line on stderr and a non-zero exit.

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <gaus/core/build_info.hpp>
#include <gaus/core/option_table.hpp>

#include "command.hpp"

namespace {

// The long flags (and --help) of `command`, for suggestions.
std::vector<std::string> longFlags(const CLI::App& command) {
  std::vector<std::string> flags;
  for (const CLI::Option* option : command.get_options()) {
    for (const auto& name : option->get_lnames()) flags.push_back("--" + name);
  }
  return flags;
}

// CLI11 says "The following arguments were not expected: 5 --timelimit" (in reverse order and
// without a hint). This names the first argument it could not place, with the suggestion every
// unknown name gets (option_text::didYouMean) and where the known ones are listed.
std::string describeUnexpected(const CLI::App& app) {
  const auto parsed = app.get_subcommands();
  const CLI::App& command = parsed.empty() ? app : *parsed.back();
  const std::string usage = parsed.empty() ? std::string("gaus --help")
                                           : fmt::format("gaus {} --help", command.get_name());
  const std::vector<std::string> unexpected = app.remaining(true);
  for (const auto& argument : unexpected) {
    if (!argument.starts_with("--")) continue;
    const std::string flag = argument.substr(0, argument.find('='));
    return fmt::format("unknown flag '{}'{} ({} lists the flags)", flag,
                       gaus::option_text::didYouMean(flag, longFlags(command)), usage);
  }
  if (unexpected.empty()) return "unexpected arguments";
  if (parsed.empty()) {
    std::vector<std::string> commands;
    for (const CLI::App* sub : app.get_subcommands({})) commands.push_back(sub->get_name());
    return fmt::format("unknown command '{}'{} ({} lists the commands)", unexpected.front(),
                       gaus::option_text::didYouMean(unexpected.front(), commands), usage);
  }
  return fmt::format("unexpected argument '{}' ({} says what the command takes)",
                     unexpected.front(), usage);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gaus: schedule dependence graphs (differentiable, exact and heuristic methods)",
               "gaus"};
  app.require_subcommand(1);
  app.set_version_flag("--version", gaus::softwareVersion());
  gaus::cli::addInfoCommand(app);
  gaus::cli::addVerifyCommand(app);
  gaus::cli::addGenerateCommand(app);
  gaus::cli::addConvertCommand(app);
  gaus::cli::addScheduleCommand(app);
  gaus::cli::addBoundCommand(app);
  gaus::cli::addRenderCommand(app);
  gaus::cli::addReportCommand(app);
  gaus::cli::addCodegenCommand(app);
  gaus::cli::addRunCommand(app);
  gaus::cli::addTwillCommand(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // An argument CLI11 could not place, or a first word that names no command (which CLI11
    // reports as a missing subcommand): named with a suggestion. Help, version and the other
    // parse errors keep CLI11's text.
    const bool unplaced = dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr ||
                          (app.get_subcommands().empty() && !app.remaining().empty());
    if (!unplaced || error.get_exit_code() == 0) return app.exit(error);
    fmt::print(stderr, "gaus: error: {}\n", describeUnexpected(app));
    return gaus::cli::kExitUsage;
  } catch (const gaus::cli::CommandError& error) {
    std::fflush(stdout);
    fmt::print(stderr, "gaus: error: {}\n", error.what());
    return gaus::cli::kExitFailure;
  } catch (const std::exception& error) {
    std::fflush(stdout);
    fmt::print(stderr, "gaus: error: {}\n", error.what());
    return gaus::cli::kExitFailure;
  }
  return gaus::cli::exitCode();
}
