#pragma once
// splitmix64 (Steele, Lea and Flood, OOPSLA 2014): a state stepped by the golden gamma, each step's word
// scrambled by an output function that makes neighbouring inputs unrelated. The host's small generators
// draw from it (the synthetic library, NCrystal's tables, tests), and kernels/rng.hpp seeds its
// independent streams with it. No Kokkos.
#include "kernels/vocabulary/macros.hpp"

#include <cstdint>

namespace keff {

inline constexpr std::uint64_t splitmix64_gamma = 0x9E3779B97F4A7C15ULL;

// The generator's next word: the state moved on by the gamma, then scrambled.
KEFF_INLINE_FUNCTION std::uint64_t splitmix64_next(std::uint64_t& state) {
  std::uint64_t z = (state += splitmix64_gamma);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace keff
