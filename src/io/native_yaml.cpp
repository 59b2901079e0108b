// The native YAML twin: parsed whole by yaml-cpp (YAML is meant for hand-written and small
// graphs; large graphs load an order of magnitude faster from the streaming JSON reader), then
// interpreted by the same code as the JSON document.

#include "native_document.hpp"
#include "readers.hpp"
#include "yaml_document.hpp"

namespace gaus::io {

std::vector<Instance> readNativeYaml(const std::filesystem::path& path) {
  JsonValue root = parseYaml(readFileText(path));
  NativeAssembler assembler(path);
  assembler.document(std::move(root));
  std::vector<Instance> instances;
  instances.push_back(std::move(assembler).finish());
  return instances;
}

}  // namespace gaus::io
