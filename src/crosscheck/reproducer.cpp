// Writing and reading the reproducers of the cross-method check (reproducer.hpp).

#include <algorithm>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <gaus/crosscheck/reproducer.hpp>
#include <gaus/io/io.hpp>

namespace gaus::crosscheck {

namespace {

constexpr std::string_view kReproducerFormat = "gaus-disagreement-0.1";
constexpr std::string_view kSuffix = ".disagreement.json";

nlohmann::json optionalNumber(const auto& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

}  // namespace

Expected<std::filesystem::path> writeReproducer(const std::filesystem::path& folder,
                                                const CrossCheckCase& crossCheckCase,
                                                const Disagreement& disagreement,
                                                const CaseOutcome& outcome) {
  const std::string name =
      fmt::format("{}-{}-{}-seed{}", toString(crossCheckCase.family), disagreement.check,
                  disagreement.method, crossCheckCase.seed);
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error)
    return Error{fmt::format("{}: cannot create the folder: {}", folder.string(), error.message())};

  const Problem& problem = crossCheckCase.problem;
  Instance instance = crossCheckCase.instance;
  instance.name = name;
  instance.graph = problem.graph;
  instance.machine = problem.machine;
  if (disagreement.witnessSchedule && disagreement.witnessSchedule->start.size() ==
                                          static_cast<std::size_t>(problem.graph->numOps())) {
    instance.schedule = disagreement.witnessSchedule;
  }
  instance.reference["differential_seed"] = static_cast<double>(crossCheckCase.seed);
  if (problem.horizon) instance.reference["horizon"] = static_cast<double>(*problem.horizon);
  if (problem.ii) instance.reference["ii"] = *problem.ii;
  const std::filesystem::path instancePath = folder / (name + ".json");
  if (const Status written = io::writeInstance(instancePath, instance, io::Format::kNativeJson);
      !written) {
    return Error{written.error()};
  }

  nlohmann::json record;
  record["format"] = kReproducerFormat;
  record["instance"] = instancePath.filename().string();
  record["family"] = toString(crossCheckCase.family);
  record["seed"] = crossCheckCase.seed;
  record["problem"] = {{"kind", toString(problem.kind)},
                       {"horizon", optionalNumber(problem.horizon)},
                       {"ii", optionalNumber(problem.ii)}};
  record["check"] = disagreement.check;
  record["method"] = disagreement.method;
  record["witness"] = disagreement.witness;
  record["message"] = disagreement.message;
  for (const MethodRun& run : outcome.runs) {
    if (run.method != disagreement.method) continue;
    for (const auto& [key, value] : run.settings) record["settings"][key] = formatSetting(value);
    for (const auto& [key, value] : run.result.options) record["options"][key] = value;
  }
  const std::filesystem::path recordPath = folder / (name + std::string(kSuffix));
  if (const Status written = io::writeFileAtomically(recordPath, record.dump(2) + "\n"); !written) {
    return Error{written.error()};
  }
  return recordPath;
}

Expected<Reproducer> readReproducer(const std::filesystem::path& path) {
  nlohmann::json record;
  try {
    std::ifstream file(path);
    if (!file) return Error{fmt::format("{}: cannot open the file", path.string())};
    record = nlohmann::json::parse(file);
    if (record.value("format", "") != kReproducerFormat) {
      return Error{
          fmt::format("{}: expected \"format\": \"{}\"", path.string(), kReproducerFormat)};
    }
    const auto family = kFamilyNames.parse(record.at("family").get<std::string>());
    const auto kind = parseProblemKind(record.at("problem").at("kind").get<std::string>());
    if (!family || !kind) {
      return Error{fmt::format("{}: expected a known family and problem kind", path.string())};
    }
    auto instance =
        io::readInstance((path.parent_path() / record.at("instance").get<std::string>()).string());
    if (!instance) return Error{instance.error()};
    const auto& problemRecord = record.at("problem");
    std::optional<Cycle> horizon;
    std::optional<std::int32_t> ii;
    if (!problemRecord.at("horizon").is_null()) horizon = problemRecord.at("horizon").get<Cycle>();
    if (!problemRecord.at("ii").is_null()) ii = problemRecord.at("ii").get<std::int32_t>();
    const Problem problem = instance->problem(*kind, horizon, ii);
    Reproducer reproducer;
    reproducer.path = path;
    reproducer.crossCheckCase =
        caseOf(record.at("seed").get<std::uint64_t>(), *family, problem, instance->name);
    reproducer.check = record.at("check").get<std::string>();
    reproducer.method = record.at("method").get<std::string>();
    reproducer.message = record.value("message", "");
    return reproducer;
  } catch (const nlohmann::json::exception& error) {
    return Error{
        fmt::format("{}: expected a disagreement record: {}", path.string(), error.what())};
  }
}

std::vector<std::filesystem::path> reproducerFiles(const std::filesystem::path& path) {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  if (!std::filesystem::is_directory(path, error)) return {path};
  for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
    if (entry.path().string().ends_with(kSuffix)) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace gaus::crosscheck
