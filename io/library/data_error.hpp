#pragma once
// A nuclear-data library that cannot be used: missing, of another format version, truncated, corrupt,
// or malformed. what() names the file and the object (nuclide, dataset, line) and what is wrong. The
// loaders agree on it across ranks before any data moves, so every rank throws the same DataError and
// the CLI exits cleanly instead of hanging in a collective.
#include <stdexcept>

namespace keff {

class DataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace keff
