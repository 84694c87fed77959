#pragma once
// Reading a problem from TOML, validated: every error names the file, line, key, what is wrong and what
// is allowed. The embedded default benchmark goes through the same reader.
#include "io/input/model.hpp"

#include <stdexcept>
#include <string>
#include <string_view>

namespace keff {

// A problem with the input. what() is the whole message, e.g.
//   "bench.toml:12: key 'material' of cell 'fuel': material 'fule' is not defined (defined: fuel, water)"
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

model::Problem read_problem_file(const std::string& path);
// The bytes of an input file, read once, for read_problem_string and for the input's fingerprint: a
// regular file of at most limits::max_input_bytes (io/input_file.hpp; a FIFO, `keff run <(...)` too,
// would block or be read by one rank only). Throws InputError naming the path and what is allowed.
std::string read_input_file(const std::string& path);
model::Problem read_problem_string(std::string_view toml_text, const std::string& source_name);

// The default benchmark (a reflected lattice of fuel pins in water, tens of nuclides): the bytes of
// examples/default.toml, embedded at build time, and parsed.
std::string_view default_problem_toml();
model::Problem default_problem();

}  // namespace keff
