// The embedded default benchmark: examples/default.toml, compiled in at build time (io/CMakeLists.txt
// generates default_problem_toml() from the file), so that `keff run` needs no files. It goes through
// the same reader as any input.
#include "io/input/input.hpp"

namespace keff {

model::Problem default_problem() { return read_problem_string(default_problem_toml(), "<default>"); }

}  // namespace keff
