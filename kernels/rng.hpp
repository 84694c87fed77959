#pragma once
// Per-particle random number streams: a 63-bit linear congruential generator with O(log n) skip-ahead
// (F. B. Brown, "Random number generation with arbitrary strides", 1994). Every particle history
// starts at a state derived only from (seed, stream, batch, global particle index), so the numbers it
// draws do not depend on which thread, rank or transport mode runs it. There is no shared pool.
#include "kernels/vocabulary/batch.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace keff {

// Independent uses of randomness get disjoint streams (geometry_check: the sample points of
// kernels/geometry_check.hpp, drawn before any transport and never from the other streams;
// source_pilot: the initial source's pilot sample, kernels/source_pilot.hpp; urr: evaluated data's
// probability-table draws, kernels/neutron/xs/nuclide_lookup.hpp).
//
// Disjoint is not independent. history_rng spaces streams 2^58 draws apart on one cycle, and
// a^(2^58) = 1 (mod 2^60): draw n of stream k is draw n of stream 0 plus one of at most eight
// constants (mod 1). Two such streams may serve only where their aligned draws never meet in one
// calculation: the source stream's site i aligns with tracking's batch 0, which no history draws from; the
// selection stream's batch b and the pilot's point i align with the initial source's site b and i (a
// comb's phases and a count, not the sites' physics). A stream read beside the tracking stream by the
// same history (urr) starts from a seed of its own instead (independent_rng).
enum class RngStream : std::uint64_t {
  tracking = 0, source = 1, selection = 2, geometry_check = 3, source_pilot = 4, urr = 5
};

struct Lcg63 {
  static constexpr std::uint64_t mult = 2806196910506780709ULL;
  static constexpr std::uint64_t add = 1ULL;
  static constexpr std::uint64_t mask = ~(1ULL << 63);
  static constexpr double norm = 1.0 / 9223372036854775808.0;  // 2^-63
  // Draws reserved per particle history; a history that needs more overlaps the next one's stream,
  // which correlates but never breaks determinism.
  static constexpr std::uint64_t stride = 152917ULL;

  std::uint64_t state = 1;

  // Uniform in [0, 1).
  KOKKOS_INLINE_FUNCTION double next() {
    state = (mult * state + add) & mask;
    return static_cast<double>(state) * norm;
  }

  // The state n steps ahead of `s`, in O(log n) multiplications.
  KOKKOS_INLINE_FUNCTION static std::uint64_t skip(std::uint64_t s, std::uint64_t n) {
    std::uint64_t g = mult, c = add;
    std::uint64_t g_new = 1, c_new = 0;
    n &= mask;
    while (n > 0) {
      if (n & 1ULL) {
        g_new = (g_new * g) & mask;
        c_new = (c_new * g + c) & mask;
      }
      c = ((g + 1) * c) & mask;
      g = (g * g) & mask;
      n >>= 1;
    }
    return (g_new * s + c_new) & mask;
  }
};

// The stream of one particle history: `index` is the particle's global index within `batch`
// (batch 0 is the initial source), `n_per_batch` the global number of histories per batch.
KOKKOS_INLINE_FUNCTION Lcg63 history_rng(std::uint64_t seed, RngStream stream, std::uint64_t batch,
                                         std::uint64_t n_per_batch, std::uint64_t index) {
  // Streams are spaced 2^58 draws apart: far beyond any run's batch * particles * stride.
  const std::uint64_t stream_offset = static_cast<std::uint64_t>(stream) << 58;
  const std::uint64_t n = stream_offset + (batch * n_per_batch + index) * Lcg63::stride;
  Lcg63 r;
  r.state = Lcg63::skip(seed & Lcg63::mask, n);
  return r;
}

// The stream of the history with global index `index` in the batch `c` describes.
KOKKOS_INLINE_FUNCTION Lcg63 history_rng(const BatchCoordinates& c, RngStream stream, std::int64_t index) {
  return history_rng(c.seed, stream, c.batch, static_cast<std::uint64_t>(c.n_global), static_cast<std::uint64_t>(index));
}

// splitmix64's output function: neighbouring inputs give unrelated words.
KOKKOS_INLINE_FUNCTION std::uint64_t mix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// A stream independent of the history's tracking stream, for numbers the history draws beside it: laid
// out as history_rng's, from the seed mixed with the stream's number, a point of the cycle unrelated to
// the seed's (a stream 2^58 k draws on would repeat the tracking stream's numbers, shifted).
KOKKOS_INLINE_FUNCTION Lcg63 independent_rng(const BatchCoordinates& c, RngStream stream, std::int64_t index) {
  const std::uint64_t seed = mix64(c.seed ^ (static_cast<std::uint64_t>(stream) << 58));
  return history_rng(seed, stream, c.batch, static_cast<std::uint64_t>(c.n_global), static_cast<std::uint64_t>(index));
}

}  // namespace keff
