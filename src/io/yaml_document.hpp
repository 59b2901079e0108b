// YAML text into the same JsonValue tree as JSON, so the native YAML twin, machine files and
// every YAML input share the readers of the JSON side. Scalars are typed by the YAML 1.2 core
// schema (null, true/false, decimal integers, floats); quoted scalars are always strings.
#pragma once

#include <string_view>

#include <gaus/io/json_value.hpp>

namespace gaus::io {

// Throws InputError (with the line) on a syntax error.
JsonValue parseYaml(std::string_view text);

}  // namespace gaus::io
