// libFuzzer harness of a reader whose input is one file: built once per format, with
// GAUS_FUZZ_FORMAT (an io::Format enumerator) and GAUS_FUZZ_FILE_NAME (the name the input is
// written under, whose extension some readers look at) set by tests/fuzz/CMakeLists.txt. The
// input goes through the shared pipeline (fuzz_pipeline.hpp).

#include "fuzz_pipeline.hpp"

#if !defined(GAUS_FUZZ_FORMAT) || !defined(GAUS_FUZZ_FILE_NAME)
#error "GAUS_FUZZ_FORMAT and GAUS_FUZZ_FILE_NAME name the reader this harness exercises"
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gaus::fuzz::readAndExercise(gaus::fuzz::asText(data, size), GAUS_FUZZ_FILE_NAME,
                              gaus::io::Format::GAUS_FUZZ_FORMAT);
  return 0;
}
