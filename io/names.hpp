#pragma once
// The names an input gives its cells, materials, universes, lattices, meshes, tallies and plots: one rule,
// read by the input reader and by the readers of what keff wrote (a statepoint's tally description), so a
// file can hold no name an input could not have given. Host only; no Kokkos.
#include <algorithm>
#include <string_view>

namespace keff {

inline bool valid_name(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
  });
}
inline constexpr std::string_view name_rule = "letters, digits, '_', '-' and '.'";

// A tally's name: a valid name that can be a group of its own in a statepoint's /tallies: not only dots
// ("." is HDF5's name for the group itself) and not "names" (the list of tallies beside them).
inline bool valid_tally_name(std::string_view s) {
  return valid_name(s) && s != "names" && s.find_first_not_of('.') != std::string_view::npos;
}
inline constexpr std::string_view tally_name_rule = "letters, digits, '_', '-' and '.', not only dots, and not 'names'";

}  // namespace keff
