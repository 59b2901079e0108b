// C++ identifiers for graph names (identifiers.hpp).

#include "identifiers.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace gaus::codegen::detail {

namespace {

// C++20 keywords and alternative tokens, names the generated programs and CUDA's headers use at
// namespace scope (where an op or role named so would clash or shadow), and the generated
// programs' own names (cpu_target.cpp, cuda_target.cpp). Space-separated.
constexpr std::string_view kReserved =
    "alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t "
    "char16_t char32_t class compl concept const consteval constexpr constinit const_cast "
    "continue co_await co_return co_yield decltype default delete do double dynamic_cast else "
    "enum explicit export extern false float for friend goto if inline int long mutable "
    "namespace new noexcept not not_eq nullptr operator or or_eq private protected public "
    "register reinterpret_cast requires return short signed sizeof static static_assert "
    "static_cast struct switch template this thread_local throw true try typedef typeid "
    "typename union unsigned using virtual void volatile wchar_t while xor xor_eq "
    "main std assert errno NULL EOF stdin stdout stderr threadIdx blockIdx blockDim gridDim "
    "warpSize gaus_protocol op ops ring role trips slot phase params smem specification Rings "
    "SharedStorage sync slot_of phase_of leader warp_group shared_memory kStages kThreads "
    "kWarpGroups kThreadsPerWarpGroup kSharedBytes";

bool reserved(std::string_view name) {
  std::size_t from = 0;
  while (from < kReserved.size()) {
    const std::size_t end = std::min(kReserved.find(' ', from), kReserved.size());
    if (kReserved.substr(from, end - from) == name) return true;
    from = end + 1;
  }
  return false;
}

}  // namespace

std::string identifierFor(std::string_view name, std::string_view prefix) {
  std::string text;
  text.reserve(name.size() + prefix.size());
  for (char c : name) {
    const bool word = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
    if (word) {
      text.push_back(c);
    } else if (text.empty() || text.back() != '_') {
      text.push_back('_');
    }
  }
  // Leading underscores followed by a capital or another underscore are reserved in C++.
  while (!text.empty() && text.front() == '_') text.erase(text.begin());
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text.front())) != 0) {
    text.insert(0, prefix);
  }
  if (reserved(text)) text.push_back('_');
  return text;
}

std::string IdentifierSet::claim(std::string_view name, std::string_view prefix) {
  const std::string base = identifierFor(name, prefix);
  std::string candidate = base;
  for (int suffix = 2; taken_.count(candidate) > 0; ++suffix) {
    candidate = fmt::format("{}_{}", base, suffix);
  }
  taken_.insert(candidate);
  return candidate;
}

}  // namespace gaus::codegen::detail
