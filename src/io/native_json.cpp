// The native JSON reader. It streams: the elements of "ops" and "edges" go one at a time from
// nlohmann's SAX parser into GraphBuilder (native_document.cpp), so a 10^6-op graph never exists
// as a DOM of millions of JSON objects (which would cost several GB and seconds to build).

#include <gaus/io/input_error.hpp>

#include "json_parse.hpp"
#include "native_document.hpp"
#include "readers.hpp"

namespace gaus::io {

std::vector<Instance> readNativeJson(const std::filesystem::path& path) {
  return readNativeJsonDocument(readFileText(path), path);
}

std::vector<Instance> readNativeJsonDocument(std::string_view text,
                                             const std::filesystem::path& path) {
  NativeAssembler assembler(path);
  JsonStreamCallbacks callbacks;
  callbacks.streamsKey = &NativeAssembler::streamsKey;
  callbacks.element = [&](std::string_view key, const JsonValue& element) {
    if (key == "ops") {
      assembler.op(element);
    } else {
      assembler.edge(element);
    }
  };
  callbacks.member = [&](std::string_view key, JsonValue&& value) {
    assembler.member(key, std::move(value));
  };
  parseJsonStream(text, callbacks);
  std::vector<Instance> instances;
  instances.push_back(std::move(assembler).finish());
  return instances;
}

}  // namespace gaus::io
