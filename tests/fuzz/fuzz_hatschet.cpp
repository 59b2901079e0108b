// libFuzzer harness of the HatScheT reader: a GraphML graph and its resource model
// (graph_RM.xml beside it) in one input, split at the first NUL (fuzz_two_file_reader.hpp).

#include "fuzz_two_file_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gaus::fuzz::readWithCompanion(gaus::fuzz::asText(data, size), "graph.graphml", "graph_RM.xml",
                                gaus::io::Format::kHatschetGraphml);
  return 0;
}
