// libFuzzer target: any bytes as a keff input file. read_problem_string must either return a problem or
// throw InputError; anything else (another exception, a crash, a hang, a sanitizer report) is a bug.
#include "io/input/input.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const keff::model::Problem p = keff::read_problem_string(text, "fuzz.toml");
    (void)p;
  } catch (const keff::InputError&) {
  }
  return 0;
}
