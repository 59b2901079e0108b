// What every reader harness does with one input: hands the bytes to the reader through a file
// (the readers take paths, and some look for files beside the input: a HatScheT resource
// model, HeuriGym's baseline.json, a machine a document names), and passes whatever loads
// through Problem::check(), the graph analyses, list scheduling and verify(). Bad input must
// come back as an error value; anything else the sanitizers or an inconsistency catch (a list
// schedule that fails verification) stops the run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include <gaus/core/instance.hpp>
#include <gaus/io/io.hpp>

// libFuzzer's entry point, which every harness defines (and replay_main.cpp calls).
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace gaus::fuzz {

// A folder private to this process on a memory file system (/dev/shm when there is one), made
// on first use and removed at exit.
const std::filesystem::path& scratchFolder();

// Writes `bytes` to `name` in the scratch folder (replacing it) and returns the path.
std::filesystem::path writeScratchFile(std::string_view name, std::string_view bytes);

// The bytes libFuzzer hands over, as text.
inline std::string_view asText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Reads `bytes` as a file named `fileName` in `format` and exercises every instance it holds.
void readAndExercise(std::string_view bytes, std::string_view fileName, io::Format format,
                     const io::ReadOptions& options = {});

// check(), the analyses, list scheduling and verify() on one instance that loaded; a schedule
// the instance carries is verified too (its verdict may be anything, but it must not crash).
void exerciseInstance(const Instance& instance);

// The toy Flash-Attention graph of tests/data/native/toy_fa.json (three ops on a machine with
// warps, registers and a memory), read once: the graph the schedule and machine harnesses use.
const Instance& toyFlashAttention();

// Stops the run (libFuzzer reports it as a crash with the input) when `holds` is false.
void require(bool holds, std::string_view what);

}  // namespace gaus::fuzz
