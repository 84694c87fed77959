#include "src/host/fingerprint.hpp"

#include "io/input/settings_rows.hpp"

#include <cstdio>

namespace keff {

namespace {

// FNV-1a, 64 bit: stable across platforms and compilers, unlike std::hash, so a statepoint written on
// one machine is recognised on another.
struct Fnv1a {
  std::uint64_t h = 0xcbf29ce484222325ull;
  void add(std::string_view bytes) {
    for (const char c : bytes) {
      h ^= static_cast<unsigned char>(c);
      h *= 0x100000001b3ull;
    }
  }
  void add(std::uint64_t v) {  // little-endian bytes whatever the machine's order
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xffu;
      h *= 0x100000001b3ull;
    }
  }
};

}  // namespace

std::uint64_t run_fingerprint(std::string_view input_text, const std::vector<std::string_view>& arguments) {
  Fnv1a f;
  f.add(input_text.size());
  f.add(input_text);
  for (const std::string_view a : arguments) {
    f.add(a.size());  // lengths keep ("ab", "c") apart from ("a", "bc")
    f.add(a);
  }
  return f.h;
}

std::uint64_t input_fingerprint(std::string_view input_text, const model::Settings& settings) {
  Fnv1a f;
  f.add(input_text.size());
  f.add(input_text);
  for (const auto& [key, value] : settings::restart_values(settings)) {
    f.add(key.size());
    f.add(key);
    f.add(value.size());
    f.add(value);
  }
  return f.h;
}

std::string fingerprint_text(std::uint64_t fingerprint) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(fingerprint));
  return text;
}

}  // namespace keff
