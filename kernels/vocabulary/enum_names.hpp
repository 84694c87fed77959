#pragma once
// One table of names per enum, kept beside the enum and read by the input parser, the command line and
// the printed and written results alike, so a name is spelled once. An enum E opts in with an overload
// `enum_names(E)` returning its table (found by argument-dependent lookup). Host only; no Kokkos.
#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace keff {

template <class E>
struct EnumName {
  E value;
  std::string_view name;
};

// The names table of an enum described by a table of rows, each holding its value (the member `value`
// points to) and its `name`: the rows stay the one place a name is written.
template <class E, class Row, std::size_t N>
constexpr std::array<EnumName<E>, N> enum_name_table(const Row (&rows)[N], E Row::*value) {
  std::array<EnumName<E>, N> names{};
  for (std::size_t i = 0; i < N; ++i) names[i] = {rows[i].*value, rows[i].name};
  return names;
}

// The name of `value` in its enum's table ("?" for a value outside it).
template <class E>
constexpr std::string_view name_of(E value) {
  for (const auto& n : enum_names(E{})) {
    if (n.value == value) return n.name;
  }
  return "?";
}

// The value named `name`, if the table has it.
template <class E>
constexpr std::optional<E> enum_from_name(std::string_view name) {
  for (const auto& n : enum_names(E{})) {
    if (n.name == name) return n.value;
  }
  return std::nullopt;
}

// "a, b, c": the allowed names, for error messages.
template <class E>
std::string allowed_names() {
  std::string s;  // appended in place: GCC 12 warns falsely (-Wrestrict) about "" + std::string when inlined
  for (const auto& n : enum_names(E{})) {
    if (!s.empty()) s += ", ";
    s += n.name;
  }
  return s;
}

}  // namespace keff
