#include <algorithm>

#include <gaus/core/figures.hpp>

namespace gaus {

void Figures::set(const Figure& figure, double value) {
  for (auto& [name, held] : values_) {
    if (name == figure.name) {
      held = value;
      return;
    }
  }
  values_.emplace_back(std::string(figure.name), value);
}

std::optional<double> Figures::get(std::string_view name) const {
  for (const auto& [reported, value] : values_) {
    if (reported == name) return value;
  }
  return std::nullopt;
}

FigureTable& FigureTable::add(const Figure& figure, std::vector<std::string_view> methods) {
  entries_.push_back({figure, std::move(methods)});
  return *this;
}

std::vector<FigureDoc> FigureTable::reportedBy(std::string_view method) const {
  std::vector<FigureDoc> docs;
  for (const Entry& entry : entries_) {
    if (std::find(entry.methods.begin(), entry.methods.end(), method) == entry.methods.end()) {
      continue;
    }
    docs.push_back({std::string(entry.figure.name), std::string(toString(entry.figure.unit)),
                    std::string(entry.figure.doc)});
  }
  return docs;
}

}  // namespace gaus
