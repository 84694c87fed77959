#pragma once
// The 64-bit checksum stored with every dataset of an HDF5 nuclear-data library (io/library/LIBRARY_FORMAT.md).
//
// FNV-1a-64 applied to whole 64-bit little-endian words, in four interleaved lanes: word i updates
// lane i mod 4 as h = (h ^ w) * prime; a last partial word is zero-padded. The lanes start at the
// FNV offset basis xor the lane number and are folded together, then the byte count, the same way.
// Why not byte-wise FNV: a load must stay memory-bound (the point of the HDF5 format), and one
// multiply per 8 bytes in four independent chains costs about a cycle per word. Every step is a
// bijection of the lane, so a change to any single word always changes the checksum.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace keff {

inline std::uint64_t checksum64(const void* data, std::size_t bytes) {
  constexpr std::uint64_t basis = 0xcbf29ce484222325ULL;
  constexpr std::uint64_t prime = 0x100000001b3ULL;
  std::uint64_t lane[4] = {basis, basis ^ 1, basis ^ 2, basis ^ 3};
  const auto* p = static_cast<const unsigned char*>(data);
  const std::size_t words = bytes / 8;
  std::size_t i = 0;
  for (; i + 4 <= words; i += 4) {
    for (std::size_t j = 0; j < 4; ++j) {
      std::uint64_t w;
      std::memcpy(&w, p + 8 * (i + j), 8);
      lane[j] = (lane[j] ^ w) * prime;
    }
  }
  for (; i < words; ++i) {
    std::uint64_t w;
    std::memcpy(&w, p + 8 * i, 8);
    lane[i % 4] = (lane[i % 4] ^ w) * prime;
  }
  if (const std::size_t rest = bytes % 8; rest != 0) {
    std::uint64_t w = 0;
    std::memcpy(&w, p + 8 * words, rest);
    lane[words % 4] = (lane[words % 4] ^ w) * prime;
  }
  std::uint64_t h = basis;
  for (std::uint64_t l : lane) h = (h ^ l) * prime;
  return (h ^ static_cast<std::uint64_t>(bytes)) * prime;
}

template <class T>
std::uint64_t checksum64(std::span<const T> values) {
  return checksum64(values.data(), values.size_bytes());
}

}  // namespace keff
