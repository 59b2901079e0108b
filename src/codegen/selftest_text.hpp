// The parts of the self-test program that do not depend on the pipeline (selftest_text.cpp).
#pragma once

#include <string_view>

namespace gaus::codegen::detail {

// Device code: the error records and the stamping and checking of words.
std::string_view selfTestDeviceSupport();
// Host code: the driver that launches the kernel, watches it and checks what it reports.
std::string_view selfTestHostSupport();

}  // namespace gaus::codegen::detail
