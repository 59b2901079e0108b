// The GPU bundle's entry point (scripts/gpu/run, copied to dist/gaus-gpu/run by
// scripts/gpu-bundle.sh), tested without a GPU or PyTorch: a fake python3 answers what torch's
// would (its version, its lib/ folder, the nvidia-* lib/ folders), and a fake program prints the
// library path and the arguments it was started with.
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "run_program.hpp"
#include "temp_folder.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using gaus::test::runProgram;
using gaus::test::TempFolder;

void writeExecutable(const TempFolder& folder, const std::string& name, const std::string& text) {
  const fs::path path = folder.write(name, text);
  fs::permissions(path, fs::perms::owner_all, fs::perm_options::add);
}

// A bundle built against torch 2.11.0+cu130 with one program, bin/show, and a python3 whose
// torch reports `torchVersion`.
struct FakeBundle {
  TempFolder folder;
  explicit FakeBundle(const std::string& python) {
    fs::create_directories(folder.file("bundle/bin"));
    fs::create_directories(folder.file("bundle/lib"));
    fs::copy_file(gaus::test::sourcePath("scripts/gpu/run"), folder.file("bundle/run"));
    folder.write("bundle/torch-version", "2.11.0+cu130\n");
    writeExecutable(
        folder, "bundle/bin/show",
        "#!/bin/sh\necho \"LD_LIBRARY_PATH=$LD_LIBRARY_PATH\"\nprintf '[%s]\\n' \"$@\"\n");
    writeExecutable(folder, "python3", python);
  }
  static std::string pythonWithTorch(const std::string& torchVersion, const fs::path& torchLib) {
    return "#!/bin/sh\ncat >/dev/null\necho " + torchVersion + "\necho " + torchLib.string() +
           "\necho /site/nvidia/cu13/lib:/site/nvidia/cudnn/lib\n";
  }
  gaus::test::ProgramOutput run(const std::string& program) const {
    return runProgram("env",
                      {"-u", "LD_LIBRARY_PATH", "GAUS_PYTHON=" + folder.file("python3").string(),
                       folder.file("bundle/run").string(), program, "two words", "x"});
  }
};

}  // namespace

TEST_CASE("gpu bundle run: the bundle's lib, then torch's, then the nvidia folders",
          "[cli][gpu-bundle]") {
  // A patch release of the same minor version (2.11.1 against 2.11.0) keeps LibTorch's ABI.
  TempFolder scratch;
  fs::create_directories(scratch.path() / "torch/lib");  // the wrapper checks that it exists
  FakeBundle bundle(FakeBundle::pythonWithTorch("2.11.1+cu130", scratch.path() / "torch/lib"));
  const auto output = bundle.run("show");
  INFO(output.err);
  REQUIRE(output.exitCode == 0);
  const std::string bundleLib = (bundle.folder.path() / "bundle/lib").string();
  const std::string torchLib = (scratch.path() / "torch/lib").string();
  CHECK(output.out == "LD_LIBRARY_PATH=" + bundleLib + ":" + torchLib +
                          ":/site/nvidia/cu13/lib:/site/nvidia/cudnn/lib\n[two words]\n[x]\n");
}

TEST_CASE("gpu bundle run: another minor version of torch is refused, naming both and the fix",
          "[cli][gpu-bundle]") {
  TempFolder scratch;
  fs::create_directories(scratch.path() / "torch/lib");
  FakeBundle bundle(FakeBundle::pythonWithTorch("2.12.0+cu130", scratch.path() / "torch/lib"));
  const auto output = bundle.run("show");
  CHECK(output.exitCode == 1);
  CHECK(output.out.empty());
  CHECK(output.err.find("built against torch 2.11.0+cu130") != std::string::npos);
  CHECK(output.err.find("has torch 2.12.0+cu130") != std::string::npos);
  CHECK(output.err.find("scripts/gpu-bundle.sh 2.12.0") != std::string::npos);
}

TEST_CASE("gpu bundle run: a python3 without torch is named, with what it said and the install",
          "[cli][gpu-bundle]") {
  FakeBundle bundle(
      "#!/bin/sh\ncat >/dev/null\necho \"ModuleNotFoundError: No module named 'torch'\" >&2\n"
      "exit 1\n");
  const auto output = bundle.run("show");
  CHECK(output.exitCode == 1);
  CHECK(output.err.find("cannot import torch") != std::string::npos);
  CHECK(output.err.find("pip install torch==2.11.0") != std::string::npos);
  CHECK(output.err.find("No module named 'torch'") != std::string::npos);
}

TEST_CASE("gpu bundle run: an unknown program lists the bundle's programs", "[cli][gpu-bundle]") {
  TempFolder scratch;
  fs::create_directories(scratch.path() / "torch/lib");
  FakeBundle bundle(FakeBundle::pythonWithTorch("2.11.0+cu130", scratch.path() / "torch/lib"));
  const auto output = bundle.run("gaus");
  CHECK(output.exitCode == 1);
  CHECK(output.err.find("no program 'gaus'") != std::string::npos);
  CHECK(output.err.find("expected one of: show") != std::string::npos);
}
