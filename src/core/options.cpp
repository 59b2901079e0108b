#include <charconv>
#include <cstdlib>

#include <fmt/format.h>

#include <gaus/core/options.hpp>

namespace gaus {

OptionReader::OptionReader(std::string methodName, const MethodOptions& options)
    : methodName_(std::move(methodName)), options_(options) {}

const std::string* OptionReader::find(std::string_view name) {
  read_.emplace(name);
  const auto it = options_.find(name);
  return it == options_.end() ? nullptr : &it->second;
}

std::int64_t OptionReader::getInt(std::string_view name, std::int64_t defaultValue) {
  const auto value = getOptionalInt(name);
  if (!value) used_.emplace_back(std::string(name), std::to_string(defaultValue));
  return value.value_or(defaultValue);
}

std::optional<std::int64_t> OptionReader::getOptionalInt(std::string_view name) {
  const std::string* text = find(name);
  if (text == nullptr) return std::nullopt;
  std::int64_t value = 0;
  const auto* end = text->data() + text->size();
  const auto [ptr, ec] = std::from_chars(text->data(), end, value);
  if (ec != std::errc{} || ptr != end) {
    errors_.push_back(fmt::format("option '{}' expects an integer, got '{}'", name, *text));
    return std::nullopt;
  }
  used_.emplace_back(std::string(name), *text);
  return value;
}

double OptionReader::getDouble(std::string_view name, double defaultValue) {
  const auto value = getOptionalDouble(name);
  if (!value) used_.emplace_back(std::string(name), fmt::format("{}", defaultValue));
  return value.value_or(defaultValue);
}

std::optional<double> OptionReader::getOptionalDouble(std::string_view name) {
  const std::string* text = find(name);
  if (text == nullptr) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text->c_str(), &end);
  if (text->empty() || end != text->c_str() + text->size()) {
    errors_.push_back(fmt::format("option '{}' expects a number, got '{}'", name, *text));
    return std::nullopt;
  }
  used_.emplace_back(std::string(name), *text);
  return value;
}

bool OptionReader::getBool(std::string_view name, bool defaultValue) {
  const std::string* text = find(name);
  if (text == nullptr) {
    used_.emplace_back(std::string(name), defaultValue ? "true" : "false");
    return defaultValue;
  }
  if (*text == "true" || *text == "1" || *text == "yes" || *text == "on") {
    used_.emplace_back(std::string(name), "true");
    return true;
  }
  if (*text == "false" || *text == "0" || *text == "no" || *text == "off") {
    used_.emplace_back(std::string(name), "false");
    return false;
  }
  errors_.push_back(fmt::format("option '{}' expects true or false, got '{}'", name, *text));
  return defaultValue;
}

std::string OptionReader::getString(std::string_view name, std::string defaultValue) {
  const std::string* text = find(name);
  std::string value = text != nullptr ? *text : std::move(defaultValue);
  used_.emplace_back(std::string(name), value);
  return value;
}

std::string OptionReader::finish() const {
  std::vector<std::string> problems = errors_;
  std::string known;
  for (const auto& name : read_) known += (known.empty() ? "" : ", ") + name;
  for (const auto& [name, value] : options_) {
    if (!read_.contains(name)) {
      problems.push_back(fmt::format("unknown option '{}' (known: {})", name, known));
    }
  }
  if (problems.empty()) return {};
  std::string message = fmt::format("method {}: ", methodName_);
  for (std::size_t i = 0; i < problems.size(); ++i) message += (i ? "; " : "") + problems[i];
  return message;
}

}  // namespace gaus
