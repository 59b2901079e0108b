// The survey of an experiment's graphs (graph_survey.hpp): read in a child process, handed back
// as JSON, checked for unique ids. Content hashes are SHA-256 (OpenSSL's EVP interface).

#include "graph_survey.hpp"

#include <algorithm>
#include <fstream>
#include <memory>
#include <openssl/evp.h>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <gaus/core/option_table.hpp>
#include <gaus/io/io.hpp>
#include <gaus/report/results.hpp>

#include "child_process.hpp"

namespace gaus::experiment {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// An error of one graph entry, carried out of the child to be reported at the entry's line.
struct EntryError {
  std::size_t entry = 0;
  std::string message;
};

// Replaces every {key} of `pattern` by its value; an unknown key is an error naming the known.
std::string fillPattern(const std::string& pattern,
                        const std::map<std::string, std::string>& values) {
  std::string id;
  std::size_t position = 0;
  while (position < pattern.size()) {
    const auto open = pattern.find('{', position);
    if (open == std::string::npos) break;
    const auto close = pattern.find('}', open);
    if (close == std::string::npos) {
      throw std::runtime_error(fmt::format("id pattern '{}': a '{{' is not closed", pattern));
    }
    const std::string key = pattern.substr(open + 1, close - open - 1);
    const auto value = values.find(key);
    if (value == values.end()) {
      std::vector<std::string> known;
      for (const auto& [name, text] : values) known.push_back("{" + name + "}");
      throw std::runtime_error(
          fmt::format("id pattern '{}': expected placeholders {}, found {{{}}}", pattern,
                      option_text::listChoices(known), key));
    }
    id += pattern.substr(position, open - position) + value->second;
    position = close + 1;
  }
  return id + pattern.substr(position);
}

SurveyedGraph surveyed(const Instance& instance, std::size_t entry) {
  SurveyedGraph graph;
  graph.entry = entry;
  graph.name = instance.name;
  graph.ops = instance.graph->numOps();
  graph.edges = instance.graph->numEdges();
  graph.reference = instance.reference;
  return graph;
}

void surveyFiles(const GraphEntry& entry, std::size_t index, std::vector<SurveyedGraph>& graphs) {
  for (const GraphFile& file : entry.files) {
    const auto hash = file.path.find('#');
    const std::string path = file.path.substr(0, hash);
    auto instances = hash == std::string::npos ? io::readInstances(path)
                                               : [&]() -> Expected<std::vector<Instance>> {
      auto one = io::readInstance(file.path);
      if (!one) return Error{one.error()};
      return std::vector<Instance>{std::move(one).value()};
    }();
    if (!instances) throw std::runtime_error(instances.error());
    // A built-in kernel is named, not given as a path: hash the file it was read from.
    std::error_code ignored;
    const fs::path hashed = fs::is_regular_file(path, ignored)
                                ? fs::path(path)
                                : io::findKernelFile(path).value_or(fs::path(path));
    auto digest = fileHash(hashed);
    if (!digest) throw std::runtime_error(digest.error());
    fs::path relative =
        file.base.empty() ? fs::path(path) : fs::path(path).lexically_relative(file.base);
    relative.replace_extension();
    const bool several = instances->size() > 1 || hash != std::string::npos;
    const std::string pattern =
        !entry.idPattern.empty() ? entry.idPattern : (several ? "{set}/{name}" : "{set}/{path}");
    for (std::size_t i = 0; i < instances->size(); ++i) {
      const Instance& instance = (*instances)[i];
      SurveyedGraph graph = surveyed(instance, index);
      graph.path = instances->size() > 1 ? fmt::format("{}#{}", path, i) : file.path;
      graph.hash = *digest;
      graph.id = fillPattern(pattern, {{"set", entry.set},
                                       {"path", relative.generic_string()},
                                       {"stem", fs::path(path).stem().string()},
                                       {"dir", fs::path(path).parent_path().filename().string()},
                                       {"name", instance.name}});
      graphs.push_back(std::move(graph));
    }
  }
}

void surveyGenerated(const GraphEntry& entry, std::size_t index, const fs::path& graphsFolder,
                     std::vector<SurveyedGraph>& graphs) {
  // The default id names ops and seed, and every other parameter whose value varies.
  std::set<std::string> varying = {"ops", "seed"};
  for (const GeneratedGraph& point : entry.generated) {
    for (const auto& [key, value] : point.parameters) {
      if (entry.generated.front().parameters.count(key) == 0 ||
          entry.generated.front().parameters.at(key) != value) {
        varying.insert(key);
      }
    }
  }
  for (std::size_t k = 0; k < entry.generated.size(); ++k) {
    const GeneratedGraph& point = entry.generated[k];
    std::map<std::string, std::string> values(point.parameters.begin(), point.parameters.end());
    values["set"] = entry.set;
    std::string pattern = entry.idPattern;
    if (pattern.empty()) {
      pattern = "{set}/ops{ops}-seed{seed}";
      for (const std::string& key : varying) {
        if (key != "ops" && key != "seed") pattern += fmt::format("-{}{{{}}}", key, key);
      }
    }
    auto made = generateRandomGraph(point.options);
    if (!made) throw std::runtime_error(made.error());
    Instance instance = toInstance(std::move(made).value());
    instance.name = fillPattern(pattern, values);
    auto text = io::formatInstance(instance, io::Format::kNativeJson);
    if (!text) throw std::runtime_error(text.error());
    SurveyedGraph graph = surveyed(instance, index);
    graph.id = instance.name;
    graph.generated = k;
    graph.hash = textHash(*text);
    graph.path = (fs::path("graphs") / (report::fileNameOf(graph.id) + ".json")).generic_string();
    if (!graphsFolder.empty()) {
      const auto written =
          io::writeFileAtomically(graphsFolder / (report::fileNameOf(graph.id) + ".json"), *text);
      if (!written) throw std::runtime_error(written.error());
    }
    graphs.push_back(std::move(graph));
  }
}

// The child's work: every entry in order; the first failure ends the survey.
Json surveyInChild(const ExperimentConfig& config, const fs::path& graphsFolder) {
  std::vector<SurveyedGraph> graphs;
  for (std::size_t index = 0; index < config.graphs.size(); ++index) {
    const GraphEntry& entry = config.graphs[index];
    try {
      if (entry.generated.empty()) {
        surveyFiles(entry, index, graphs);
      } else {
        surveyGenerated(entry, index, graphsFolder, graphs);
      }
    } catch (const std::exception& error) {
      return {{"error", {{"entry", index}, {"message", error.what()}}}};
    }
  }
  return Json::parse(formatSurvey(graphs));
}

}  // namespace

std::string formatSurvey(const std::vector<SurveyedGraph>& graphs) {
  Json list = Json::array();
  for (const SurveyedGraph& graph : graphs) {
    list.push_back({{"id", graph.id},
                    {"entry", graph.entry},
                    {"path", graph.path},
                    {"generated", graph.generated ? Json(*graph.generated) : Json(nullptr)},
                    {"hash", graph.hash},
                    {"name", graph.name},
                    {"ops", graph.ops},
                    {"edges", graph.edges},
                    {"reference", graph.reference}});
  }
  return Json{{"graphs", list}}.dump();
}

Expected<std::vector<SurveyedGraph>> parseSurvey(std::string_view text) {
  try {
    const Json json = Json::parse(text);
    std::vector<SurveyedGraph> graphs;
    for (const Json& item : json.at("graphs")) {
      SurveyedGraph graph;
      graph.id = item.at("id").get<std::string>();
      graph.entry = item.at("entry").get<std::size_t>();
      graph.path = item.at("path").get<std::string>();
      if (!item.at("generated").is_null())
        graph.generated = item.at("generated").get<std::size_t>();
      graph.hash = item.at("hash").get<std::string>();
      graph.name = item.at("name").get<std::string>();
      graph.ops = item.at("ops").get<std::int64_t>();
      graph.edges = item.at("edges").get<std::int64_t>();
      for (const auto& [name, value] : item.at("reference").items()) {
        graph.reference[name] = value.get<double>();
      }
      graphs.push_back(std::move(graph));
    }
    return graphs;
  } catch (const Json::exception& error) {
    return Error{fmt::format("the survey of the graphs does not read back: {}", error.what())};
  }
}

Expected<std::vector<SurveyedGraph>> surveyGraphs(const ExperimentConfig& config,
                                                  const fs::path& graphsFolder,
                                                  const fs::path& scratchFolder) {
  if (!graphsFolder.empty()) {
    std::error_code error;
    fs::create_directories(graphsFolder, error);
    if (error) {
      return Error{fmt::format("{}: cannot create the folder of generated graphs ({})",
                               graphsFolder.string(), error.message())};
    }
  }
  const fs::path output = scratchFolder / "survey.json";
  auto child = ChildProcess::start(
      [&] {
        const Json survey = surveyInChild(config, graphsFolder);
        std::ofstream out(output, std::ios::binary);
        out << survey.dump();
        return out.good() ? 0 : 1;
      },
      {}, scratchFolder / "survey.log");
  if (!child) return Error{child.error()};
  std::optional<ChildEnd> end;
  while (!(end = child->poll())) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::ifstream in(output, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (end->how != ChildEnd::How::kExited || end->exitCode != 0 || text.empty()) {
    return Error{fmt::format("{}: reading the graphs failed: the reading process {}{}",
                             config.path.string(), end->describe(),
                             end->outputTail.empty() ? "" : ": " + end->outputTail)};
  }
  const Json json = Json::parse(text, nullptr, false);
  if (json.contains("error")) {
    const std::size_t entry = json["error"]["entry"].get<std::size_t>();
    return Error{fmt::format("{}:{}: graphs[{}]: expected graphs that read, found: {}",
                             config.path.string(), config.graphs[entry].line, entry,
                             json["error"]["message"].get<std::string>())};
  }
  auto graphs = parseSurvey(text);
  if (!graphs) return graphs;
  std::map<std::string, std::size_t> seen;
  for (const SurveyedGraph& graph : *graphs) {
    const auto [previous, added] = seen.emplace(graph.id, graph.entry);
    if (!added) {
      return Error{fmt::format(
          "{}:{}: graphs[{}]: expected a graph id of its own, found '{}' again (graphs[{}] has "
          "it): set `id:` to a pattern such as {{set}}/{{path}}",
          config.path.string(), config.graphs[graph.entry].line, graph.entry, graph.id,
          previous->second)};
    }
  }
  return graphs;
}

Expected<Instance> loadSurveyedGraph(const ExperimentConfig& config, const SurveyedGraph& graph) {
  if (!graph.generated) return io::readInstance(graph.path);
  auto made =
      generateRandomGraph(config.graphs.at(graph.entry).generated.at(*graph.generated).options);
  if (!made) return Error{made.error()};
  Instance instance = toInstance(std::move(made).value());
  instance.name = graph.id;
  instance.sourcePath = graph.path;
  return instance;
}

Expected<std::string> fileHash(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{fmt::format("{}: cannot read the file to hash it", path.string())};
  const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(),
                                                                        &EVP_MD_CTX_free);
  EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr);
  std::vector<char> buffer(1 << 16);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    EVP_DigestUpdate(context.get(), buffer.data(), static_cast<std::size_t>(in.gcount()));
  }
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_DigestFinal_ex(context.get(), digest, &length);
  std::string hex = "sha256:";
  for (unsigned int i = 0; i < length; ++i) hex += fmt::format("{:02x}", digest[i]);
  return hex;
}

std::string textHash(std::string_view text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha256(), nullptr);
  std::string hex = "sha256:";
  for (unsigned int i = 0; i < length; ++i) hex += fmt::format("{:02x}", digest[i]);
  return hex;
}

}  // namespace gaus::experiment
