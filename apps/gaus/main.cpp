// gaus: schedule dependence graphs. One file per subcommand; this file wires them up and turns
// every failure into one line on stderr and a non-zero exit.

#include <cstdio>
#include <exception>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "command.hpp"

int main(int argc, char** argv) {
  CLI::App app{"gaus: schedule dependence graphs (differentiable, exact and heuristic methods)",
               "gaus"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "gaus 0.1.0");
  gaus::cli::addInfoCommand(app);
  gaus::cli::addVerifyCommand(app);
  gaus::cli::addGenerateCommand(app);
  gaus::cli::addConvertCommand(app);
  gaus::cli::addScheduleCommand(app);
  gaus::cli::addRenderCommand(app);
  gaus::cli::addReportCommand(app);
  gaus::cli::addCodegenCommand(app);
  gaus::cli::addTwillCommand(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error);
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
