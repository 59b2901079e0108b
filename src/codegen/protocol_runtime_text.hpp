// The text of include/gaus/codegen/protocol_runtime.hpp, embedded at build time, so that the
// programs the CPU target writes include the very runtime the in-process executor compiles.
#pragma once

#include <string_view>

namespace gaus::codegen::detail {

std::string_view protocolRuntimeText();

}  // namespace gaus::codegen::detail
