#pragma once
// Where the tests' input files are, a file's bytes and a small valid problem: shared by the input tests.
#include <fstream>
#include <sstream>
#include <string>

namespace keff::test_inputs {

inline const std::string examples = KEFF_EXAMPLES;
inline const std::string inputs = KEFF_TEST_INPUTS;

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A small valid problem (a general plane and a vacuum cylinder, two cells), which the tests read as it
// is or edit into a mistake.
inline constexpr const char* minimal = R"(
[settings]
particles = 7
[settings.source]
lower_left = [-1, -2, -3]
upper_right = [1, 2, 3]

[[surface]]
id = 4
type = "plane"
coeffs = [1, 1, 0, 0.5]
[[surface]]
id = 9
type = "z-cylinder"
coeffs = [0, 0, 1]
boundary = "vacuum"

[[cell]]
name = "a"
region = "-9 4"
material = "void"
[[cell]]
name = "b"
region = "-9 -4"
material = "m"

[[material]]
name = "m"
trace_nuclides = 2
trace_density = 3e-5
[[material]]
name = "unused"
nuclides = { Fe56 = 1e-3 }
)";

}  // namespace keff::test_inputs
