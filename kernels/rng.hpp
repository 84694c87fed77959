#pragma once
// Per-particle random number streams: a 63-bit linear congruential generator with O(log n) skip-ahead
// (F. B. Brown, "Random number generation with arbitrary strides", 1994). Every particle history
// starts at a state derived only from (seed, stream, batch, global particle index), so the numbers it
// draws do not depend on which thread, rank or transport mode runs it. There is no shared pool.
#include "kernels/vocabulary/batch.hpp"
#include "kernels/vocabulary/splitmix64.hpp"

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

  // The state n steps ahead of `s`, in O(log n) multiplications (LcgJump below).
  KOKKOS_INLINE_FUNCTION static std::uint64_t skip(std::uint64_t s, std::uint64_t n);
};

// The affine map s -> g s + c that some number of the generator's steps make. Composed and raised to
// powers modulo 2^64, and reduced to the generator's 63 bits only when applied: reduction modulo 2^63
// commutes with products and sums, so the states are those of stepping.
struct LcgJump {
  std::uint64_t g = 1;
  std::uint64_t c = 0;

  KOKKOS_INLINE_FUNCTION constexpr std::uint64_t apply(std::uint64_t s) const { return (g * s + c) & Lcg63::mask; }

  // This jump, then `next`.
  KOKKOS_INLINE_FUNCTION constexpr LcgJump then(const LcgJump& next) const { return {next.g * g, next.g * c + next.c}; }

  // `step` made n times, by squaring. The bits of n choose factors without a branch: they are as random
  // as the histories' indices, and a mispredicted branch per bit cost more than the products (with a
  // branch, starting the streams took 15 % of the evaluated HEU sphere's run).
  KOKKOS_INLINE_FUNCTION static constexpr LcgJump power(LcgJump step, std::uint64_t n) {
    LcgJump out;
    while (n > 0) {
      const std::uint64_t take = std::uint64_t{0} - (n & 1);  // all ones where the bit is set
      const std::uint64_t g = 1 + ((step.g - 1) & take);
      out = {out.g * g, out.c * g + (step.c & take)};
      step = step.then(step);
      n >>= 1;
    }
    return out;
  }
};

KOKKOS_INLINE_FUNCTION std::uint64_t Lcg63::skip(std::uint64_t s, std::uint64_t n) {
  return LcgJump::power({mult, add}, n & mask).apply(s);
}

// The generator's one step, one history's stride of steps, and the 2^58 steps between streams, as scalars
// (device code may read a constexpr scalar, not a constexpr object).
namespace detail {
inline constexpr LcgJump lcg_step{Lcg63::mult, Lcg63::add};
inline constexpr std::uint64_t history_step_g = LcgJump::power(lcg_step, Lcg63::stride).g;
inline constexpr std::uint64_t history_step_c = LcgJump::power(lcg_step, Lcg63::stride).c;
inline constexpr std::uint64_t stream_step_g = LcgJump::power(lcg_step, std::uint64_t{1} << 58).g;
inline constexpr std::uint64_t stream_step_c = LcgJump::power(lcg_step, std::uint64_t{1} << 58).c;
}  // namespace detail

// From a stream's start to the first draw of history `index` of `batch` (batch 0 is the initial source),
// with `n_per_batch` histories in each batch over all ranks: (batch n_per_batch + index) strides, the
// same jump in every stream. Squaring the stride's jump takes log2 of the history count steps, where
// squaring one step took log2 of the draw count (about 17 more).
KOKKOS_INLINE_FUNCTION LcgJump history_offset(std::uint64_t batch, std::uint64_t n_per_batch, std::uint64_t index) {
  return LcgJump::power({detail::history_step_g, detail::history_step_c}, batch * n_per_batch + index);
}

// The stream of one particle history, `offset` (history_offset) draws into stream `stream` of `seed`.
// Streams are spaced 2^58 draws apart: far beyond any run's batch * particles * stride.
KOKKOS_INLINE_FUNCTION Lcg63 history_rng(std::uint64_t seed, RngStream stream, const LcgJump& offset) {
  const LcgJump start = LcgJump::power({detail::stream_step_g, detail::stream_step_c}, static_cast<std::uint64_t>(stream));
  Lcg63 r;
  r.state = start.then(offset).apply(seed & Lcg63::mask);
  return r;
}

KOKKOS_INLINE_FUNCTION Lcg63 history_rng(std::uint64_t seed, RngStream stream, std::uint64_t batch,
                                         std::uint64_t n_per_batch, std::uint64_t index) {
  return history_rng(seed, stream, history_offset(batch, n_per_batch, index));
}

// The jump to history `index` of the batch `c` describes.
KOKKOS_INLINE_FUNCTION LcgJump history_offset(const BatchCoordinates& c, std::int64_t index) {
  return history_offset(c.batch, static_cast<std::uint64_t>(c.n_global), static_cast<std::uint64_t>(index));
}

// The stream of the history with global index `index` in the batch `c` describes.
KOKKOS_INLINE_FUNCTION Lcg63 history_rng(const BatchCoordinates& c, RngStream stream, std::int64_t index) {
  return history_rng(c.seed, stream, history_offset(c, index));
}

// splitmix64's word after z: neighbouring inputs give unrelated words.
KOKKOS_INLINE_FUNCTION std::uint64_t mix64(std::uint64_t z) { return splitmix64_next(z); }

// A stream independent of the history's tracking stream, for numbers the history draws beside it: laid
// out as history_rng's, from the seed mixed with the stream's number, a point of the cycle unrelated to
// the seed's (a stream 2^58 k draws on would repeat the tracking stream's numbers, shifted). `offset`:
// history_offset, which a history starting both streams computes once.
KOKKOS_INLINE_FUNCTION Lcg63 independent_rng(std::uint64_t seed, RngStream stream, const LcgJump& offset) {
  return history_rng(mix64(seed ^ (static_cast<std::uint64_t>(stream) << 58)), stream, offset);
}

KOKKOS_INLINE_FUNCTION Lcg63 independent_rng(const BatchCoordinates& c, RngStream stream, std::int64_t index) {
  return independent_rng(c.seed, stream, history_offset(c, index));
}

}  // namespace keff
