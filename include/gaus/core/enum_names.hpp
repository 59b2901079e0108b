// The names of an enum's values in one table, which serves printing, parsing, option checking
// and documentation alike, so that the spellings can never disagree.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gaus {

template <class Enum>
struct EnumName {
  Enum value;
  std::string_view name;
};

template <class Enum, std::size_t N>
class EnumNames {
 public:
  using Value = Enum;

  constexpr explicit EnumNames(std::array<EnumName<Enum>, N> names) : names_(names) {}

  // The name of a value; "?" for a value missing from the table (a programming error that a
  // test per table rules out).
  constexpr std::string_view name(Enum value) const {
    for (const auto& entry : names_) {
      if (entry.value == value) return entry.name;
    }
    return "?";
  }

  constexpr std::optional<Enum> parse(std::string_view text) const {
    for (const auto& entry : names_) {
      if (entry.name == text) return entry.value;
    }
    return std::nullopt;
  }

  std::vector<std::string> names() const {
    std::vector<std::string> result;
    for (const auto& entry : names_) result.emplace_back(entry.name);
    return result;
  }

  // The same table without one value (one that a context cannot take, such as a priority that
  // needs data only a library caller has); `excluded` must be in the table.
  constexpr EnumNames<Enum, N - 1> without(Enum excluded) const {
    std::array<EnumName<Enum>, N - 1> kept{};
    std::size_t next = 0;
    for (const auto& entry : names_) {
      if (entry.value != excluded && next < N - 1) kept[next++] = entry;
    }
    return EnumNames<Enum, N - 1>(kept);
  }

  constexpr const std::array<EnumName<Enum>, N>& entries() const { return names_; }

 private:
  std::array<EnumName<Enum>, N> names_;
};

template <class Enum, std::size_t N>
EnumNames(std::array<EnumName<Enum>, N>) -> EnumNames<Enum, N>;

// Builds the table from a braced list: makeEnumNames<Color>({{Color::kRed, "red"}, ...}).
template <class Enum, std::size_t N>
constexpr EnumNames<Enum, N> makeEnumNames(const EnumName<Enum> (&names)[N]) {
  std::array<EnumName<Enum>, N> entries{};
  for (std::size_t i = 0; i < N; ++i) entries[i] = names[i];
  return EnumNames<Enum, N>(entries);
}

}  // namespace gaus
