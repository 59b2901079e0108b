// Format names and format sniffing: the extension first, then the content (for .json, the
// top-level keys, read by a SAX pass that stops as soon as they decide; the native writer puts
// "format" first, so a 10^6-op file is decided after a few bytes).

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <gaus/io/input_error.hpp>
#include <gaus/io/io.hpp>

#include "json_parse.hpp"

namespace gaus::io {

namespace {

struct FormatName {
  Format format;
  std::string_view name;
};
// The first name of each format is the one toString gives.
constexpr FormatName kFormatNames[] = {
    {Format::kNativeJson, "json"},
    {Format::kNativeJson, "native"},
    {Format::kNativeJson, "gaus"},
    {Format::kNativeYaml, "yaml"},
    {Format::kNativeYaml, "yml"},
    {Format::kHeuriGym, "heurigym"},
    {Format::kGml, "gml"},
    {Format::kAigerBinary, "aig"},
    {Format::kAigerAscii, "aag"},
    {Format::kTritonDdg, "triton"},
    {Format::kTritonDdg, "ddg"},
    {Format::kHatschetGraphml, "hatschet"},
    {Format::kHatschetGraphml, "graphml"},
    {Format::kDot, "dot"},
};

// Reads the top-level keys of a JSON object and stops once they identify the format.
class TopLevelKeys {
 public:
  using json = nlohmann::json;

  std::optional<Format> decided;
  bool isSchedule = false;
  bool hasDelay = false, hasResource = false, hasNodes = false;

  bool null() { return value(); }
  bool boolean(bool) { return value(); }
  bool number_integer(json::number_integer_t) { return value(); }
  bool number_unsigned(json::number_unsigned_t) { return value(); }
  bool number_float(json::number_float_t, const json::string_t&) { return value(); }
  bool binary(json::binary_t&) { return value(); }
  bool string(json::string_t& text) {
    if (depth_ == 1) {
      if (key_ == "schema_version" && text == "ddg-0.1") decided = Format::kTritonDdg;
      if (key_ == "format" && text == "gaus-0.1") decided = Format::kNativeJson;
      if (key_ == "format" && text == "gaus-schedule-0.1") isSchedule = true;
    }
    return value();
  }
  bool start_object(std::size_t) { return ++depth_ > 0; }
  bool start_array(std::size_t) { return ++depth_ > 0; }
  bool end_object() { return --depth_ >= 0 && !isDecided(); }
  bool end_array() { return --depth_ >= 0 && !isDecided(); }
  bool key(json::string_t& name) {
    if (depth_ == 1) {
      key_ = name;
      hasDelay = hasDelay || name == "delay";
      hasResource = hasResource || name == "resource";
      hasNodes = hasNodes || name == "nodes";
      if (hasDelay && hasResource && hasNodes) decided = Format::kHeuriGym;
    }
    return !isDecided();
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& error) {
    syntaxError = describeJsonSyntaxError(error.what());
    // nlohmann's message says "parse error at line L, column C".
    const std::string what = error.what();
    if (const auto at = what.find("at line "); at != std::string::npos) {
      syntaxErrorLine = std::atoll(what.c_str() + at + 8);
    }
    return false;
  }
  std::string syntaxError;
  std::int64_t syntaxErrorLine = 0;

 private:
  bool value() { return !isDecided(); }
  bool isDecided() const { return decided.has_value() || isSchedule; }
  int depth_ = 0;
  std::string key_;
};

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

Expected<Format> sniffJson(const std::filesystem::path& path) {
  std::ifstream stream(path, std::ios::binary);
  TopLevelKeys keys;
  nlohmann::json::sax_parse(stream, &keys);
  if (keys.isSchedule) {
    return Error{locate(path, 0,
                        expectedFound("a graph",
                                      "a schedule (gaus-schedule-0.1); "
                                      "read it with the graph it belongs to"))};
  }
  if (keys.decided) return *keys.decided;
  if (!keys.syntaxError.empty()) return Error{locate(path, keys.syntaxErrorLine, keys.syntaxError)};
  return Error{locate(path, 0,
                      expectedFound("a JSON graph format: native (\"format\": \"gaus-0.1\"), "
                                    "Triton (\"schema_version\": \"ddg-0.1\") or HeuriGym "
                                    "(\"delay\", \"resource\", \"nodes\")",
                                    "none of their top-level keys"))};
}

}  // namespace

std::string_view toString(Format format) {
  for (const auto& entry : kFormatNames) {
    if (entry.format == format) return entry.name;
  }
  return "unknown";
}

std::optional<Format> parseFormat(std::string_view name) {
  const std::string lower = lowercase(std::string(name));
  for (const auto& entry : kFormatNames) {
    if (entry.name == lower) return entry.format;
  }
  return std::nullopt;
}

Expected<Format> sniffFormat(const std::filesystem::path& path) {
  if (const Status readable = checkInputFile(path); !readable) return Error{readable.error()};
  char head[512] = {};
  std::ifstream stream(path, std::ios::binary);
  stream.read(head, sizeof head);
  const std::string_view content(head, static_cast<std::size_t>(stream.gcount()));
  const bool aigerBinary = content.starts_with("aig ");
  const bool aigerAscii = content.starts_with("aag ");

  const std::string extension = lowercase(path.extension().string());
  if (extension == ".aig" || extension == ".aag") {
    // The header decides, so a renamed file still reads.
    if (aigerAscii) return Format::kAigerAscii;
    if (aigerBinary) return Format::kAigerBinary;
    return extension == ".aig" ? Format::kAigerBinary : Format::kAigerAscii;
  }
  if (extension == ".gml") return Format::kGml;
  if (extension == ".graphml") return Format::kHatschetGraphml;
  if (extension == ".yaml" || extension == ".yml") return Format::kNativeYaml;
  if (extension == ".dot" || extension == ".gv") return Format::kDot;
  if (extension == ".json") return sniffJson(path);

  // No known extension: the content alone.
  if (aigerBinary) return Format::kAigerBinary;
  if (aigerAscii) return Format::kAigerAscii;
  std::size_t start = 0;
  while (start < content.size() && std::isspace(static_cast<unsigned char>(content[start])))
    ++start;
  const std::string_view body = content.substr(start);
  if (body.starts_with("{")) return sniffJson(path);
  if (body.starts_with("<") && content.find("<graphml") != std::string_view::npos) {
    return Format::kHatschetGraphml;
  }
  if (body.starts_with("graph") && body.size() > 5 &&
      (std::isspace(static_cast<unsigned char>(body[5])) || body[5] == '[')) {
    return Format::kGml;
  }
  if (body.starts_with("digraph")) return Format::kDot;
  if (content.find("gaus-0.1") != std::string_view::npos) return Format::kNativeYaml;
  return Error{locate(path, 0,
                      expectedFound("a known format (by extension .json, .yaml, .gml, .aig, .aag, "
                                    ".graphml, or by content)",
                                    "neither; pass the format explicitly"))};
}

}  // namespace gaus::io
