// C and C++ identifiers for the names of a graph (ops, rings, roles, the kernel), for the code
// the generators write: "case3_FA/loop0" -> case3_FA_loop0, "1" -> op_1, "int" -> int_. A set
// hands out each identifier once.
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace gaus::codegen::detail {

// `name` with every character outside [A-Za-z0-9_] replaced by '_', a prefix `prefix` when it
// would start with a digit or be empty, and a trailing '_' for C++ keywords and names the
// generated code or CUDA reserve.
std::string identifierFor(std::string_view name, std::string_view prefix = "op_");

class IdentifierSet {
 public:
  // identifierFor(name), made unique with a suffix _2, _3, ...
  std::string claim(std::string_view name, std::string_view prefix = "op_");

 private:
  std::set<std::string, std::less<>> taken_;
};

}  // namespace gaus::codegen::detail
