// The graphs of an experiment before any run: every file read (and every generator entry
// generated) once, in a child process, to learn the instances a file holds, their sizes, the
// reference figures their readers record and their content hash, and to find unreadable graphs
// before the batch starts. The runner's own process never holds a graph: its memory would be
// inherited by every run it forks and counted in their peak RSS.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/instance.hpp>
#include <gaus/experiment/experiment_config.hpp>

namespace gaus::experiment {

struct SurveyedGraph {
  std::string id;         // unique in the experiment: "heurigym/small/ewf"
  std::size_t entry = 0;  // index of its entry in ExperimentConfig::graphs
  std::string path;       // FILE, FILE#SELECTOR or a kernel name; generated: the file written
  std::optional<std::size_t> generated;  // index into the entry's generator grid
  std::string hash;                      // "sha256:<hex>" of the file (generated: of its text)
  std::string name;                      // the instance's name
  std::int64_t ops = 0;
  std::int64_t edges = 0;
  std::map<std::string, double, std::less<>> reference;  // Instance::reference
};

// Reads every graph in a child process. Generated graphs are written (native JSON) into
// `graphsFolder`, unless it is empty (a dry run). A graph that cannot be read or made fails the
// survey with a config error at its entry's line.
Expected<std::vector<SurveyedGraph>> surveyGraphs(const ExperimentConfig& config,
                                                  const std::filesystem::path& graphsFolder,
                                                  const std::filesystem::path& scratchFolder);

// The survey as text and back: what the child hands to the runner, and what rank 0 of an MPI
// batch sends to the other ranks so that all of them plan the same runs.
std::string formatSurvey(const std::vector<SurveyedGraph>& graphs);
Expected<std::vector<SurveyedGraph>> parseSurvey(std::string_view text);

// The instance a run reads: the file (or built-in kernel) at `graph.path`, or the generated graph
// made again from its options (the same options always give the same graph).
Expected<Instance> loadSurveyedGraph(const ExperimentConfig& config, const SurveyedGraph& graph);

// "sha256:<hex>" of a file's bytes, or of text.
Expected<std::string> fileHash(const std::filesystem::path& path);
std::string textHash(std::string_view text);

}  // namespace gaus::experiment
