// libFuzzer harness of the Triton ddg-0.1 reader: a dependence-graph dump and, after the first
// NUL, the heuristic schedule Triton wrote beside it (dump.schedule_graph.json), whose figures
// the reader attaches to each loop (fuzz_two_file_reader.hpp).

#include "fuzz_two_file_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gaus::fuzz::readWithCompanion(gaus::fuzz::asText(data, size), "dump.ddg.json",
                                "dump.schedule_graph.json", gaus::io::Format::kTritonDdg);
  return 0;
}
