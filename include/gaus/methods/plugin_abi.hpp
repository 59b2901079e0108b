// The interface an engine plugin and the program that loads it must share. A plugin is built
// from the same sources as the program, so a mismatch means a stale build: the loader refuses a
// plugin whose fingerprint differs, naming both, instead of calling into a different layout.
#pragma once

#include <cstdint>

#include <gaus/core/graph.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/methods/registry.hpp>

namespace gaus {

// The sizes of the types that cross the boundary, folded into one number (FNV-1a).
inline constexpr std::uint64_t kPluginAbi = [] {
  std::uint64_t hash = 1469598103934665603ULL;
  for (std::uint64_t size :
       {std::uint64_t{4}, sizeof(Graph), sizeof(Machine), sizeof(Problem), sizeof(Schedule),
        sizeof(Result), sizeof(Attempt), sizeof(MethodInfo), sizeof(RunContext), sizeof(OptionDoc),
        sizeof(FigureDoc), sizeof(VerificationReport)}) {
    hash = (hash ^ size) * 1099511628211ULL;
  }
  return hash;
}();

}  // namespace gaus

// Every plugin exports these two C functions; the loader finds them with dlsym.
extern "C" {
std::uint64_t gaus_plugin_abi();                            // the plugin's kPluginAbi
void gaus_plugin_register(gaus::MethodRegistry* registry);  // adds the plugin's methods
using GausPluginAbiFunction = decltype(&gaus_plugin_abi);
using GausPluginRegisterFunction = decltype(&gaus_plugin_register);
}
