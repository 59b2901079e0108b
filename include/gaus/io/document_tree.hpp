// Documents that another module reads for itself (the experiment runner's config and its
// per-graph value files), read into io's line-numbered tree (json_value.hpp) with io's error
// (input_error.hpp), so that a mistake in them reads like every input error of gaus. Both
// functions throw InputError with the line; the caller's own reader turns it into an Error that
// names the file before it leaves that reader (docs/contributing.md, "Conventions").
#pragma once

#include <filesystem>

#include <gaus/io/input_error.hpp>
#include <gaus/io/json_value.hpp>

namespace gaus::io {

// A YAML file, typed by the YAML 1.2 core schema as every YAML input of gaus.
JsonValue readYamlFile(const std::filesystem::path& path);

// A JSON file, as one tree.
JsonValue readJsonFile(const std::filesystem::path& path);

}  // namespace gaus::io
