// Target names, the files of each target, and writing them (targets.hpp).

#include <system_error>

#include <fmt/format.h>

#include <gaus/codegen/targets.hpp>
#include <gaus/io/io.hpp>

namespace gaus::codegen {

Expected<std::vector<GeneratedFile>> generate(const Pipeline& pipeline, Target target,
                                              const TargetOptions& options) {
  switch (target) {
    case Target::kText:
      return std::vector<GeneratedFile>{
          {pipeline.identifier + ".listing.txt", renderListing(pipeline, options)}};
    case Target::kLayout:
      return std::vector<GeneratedFile>{
          {pipeline.identifier + ".layout.json", renderLayoutJson(pipeline)}};
    case Target::kCuda:
      return renderCuda(pipeline, options);
    case Target::kSelfTest:
      return renderSelfTest(pipeline, options);
    case Target::kCpu:
      return renderCpuProgram(pipeline, options);
    case Target::kTrace: {
      auto trace = renderTrace(pipeline, options);
      if (!trace) return Error{trace.error()};
      return std::vector<GeneratedFile>{
          {pipeline.identifier + ".trace.json", std::move(trace).value()}};
    }
  }
  return Error{"unknown target"};
}

Status writeFiles(const std::filesystem::path& folder, const std::vector<GeneratedFile>& files) {
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error || !std::filesystem::is_directory(folder)) {
    return Error{fmt::format("{}: cannot create the output folder ({})", folder.string(),
                             error ? error.message() : "a file of that name exists")};
  }
  for (const GeneratedFile& file : files) {
    if (const Status written = io::writeFileAtomically(folder / file.name, file.content);
        !written) {
      return written;
    }
  }
  return Done{};
}

}  // namespace gaus::codegen
