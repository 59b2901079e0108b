// Runs a program with arguments and captures its exit code, stdout and stderr (for end-to-end
// tests of the command line).
#pragma once

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace gaus::test {

struct ProgramOutput {
  int exitCode = -1;
  std::string out;
  std::string err;
};

inline std::string shellQuote(const std::string& text) {
  std::string quoted(1, '\'');
  for (char c : text) {
    if (c == '\'') {
      quoted.append("'\\''");
    } else {
      quoted.push_back(c);
    }
  }
  quoted.push_back('\'');
  return quoted;
}

inline std::string readWholeFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline ProgramOutput runProgram(const std::string& program, const std::vector<std::string>& args) {
  const auto folder =
      std::filesystem::temp_directory_path() / ("gaus-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  const auto outPath = folder / "out.txt";
  const auto errPath = folder / "err.txt";
  // Appends piece by piece: GCC 12 at -O3 warns falsely (-Wrestrict) on `" " + string`.
  std::string command = shellQuote(program);
  for (const auto& arg : args) {
    command.push_back(' ');
    command.append(shellQuote(arg));
  }
  command.append(" >");
  command.append(shellQuote(outPath.string()));
  command.append(" 2>");
  command.append(shellQuote(errPath.string()));
  ProgramOutput output;
  const int status = std::system(command.c_str());
  output.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  output.out = readWholeFile(outPath);
  output.err = readWholeFile(errPath);
  return output;
}

}  // namespace gaus::test
