#pragma once
// Which inputs a keff without NCrystal refuses: those with an NCrystal material (`ncrystal = ...`).
#include "io/input/input.hpp"
#include "io/thermal/ncrystal.hpp"

#include <string>

namespace keff::test {

inline bool uses_ncrystal(const std::string& path) {
  return read_input_file(path).find("\nncrystal = ") != std::string::npos;
}

}  // namespace keff::test
