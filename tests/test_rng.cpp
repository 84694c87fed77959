// The LCG's skip-ahead lands exactly where stepping lands; streams are reproducible and distinct; the
// streams a history reads side by side are independent.
#include <gtest/gtest.h>

#include "kernels/neutron/xs/nuclide_lookup.hpp"
#include "kernels/rng.hpp"

#include <array>
#include <cmath>
#include <set>

namespace keff {
namespace {

TEST(Rng, SkipAheadEqualsStepping) {
  for (std::uint64_t seed : {1ULL, 12345ULL, 0x7fffffffffffffffULL}) {
    Lcg63 stepped;
    stepped.state = seed;
    for (std::uint64_t n = 0; n <= 5000; ++n) {
      ASSERT_EQ(Lcg63::skip(seed, n), stepped.state) << "seed " << seed << " n " << n;
      stepped.next();
    }
  }
}

TEST(Rng, SkipComposes) {
  const std::uint64_t s = 987654321ULL;
  const std::uint64_t a = 1234567890123ULL, b = 98765432109ULL;
  EXPECT_EQ(Lcg63::skip(Lcg63::skip(s, a), b), Lcg63::skip(s, a + b));
}

// history_rng jumps (batch n + index) strides with the stride's own jump, then stream 2^58-step jumps: the
// state is the one skip reaches from the seed in stream 2^58 + (batch n + index) stride steps, also where
// that count passes 2^64.
TEST(Rng, HistoryStreamStartsWhereSkipLands) {
  struct Case { std::uint64_t seed, batch, n, index; RngStream stream; };
  for (const Case& c : {Case{1, 0, 1, 0, RngStream::tracking}, Case{7, 3, 1000, 42, RngStream::source},
                        Case{0x7fffffffffffffffULL, 97, 123457, 99999, RngStream::urr},
                        Case{12345, 5000, 1ULL << 40, (1ULL << 40) - 1, RngStream::source_pilot}}) {
    const std::uint64_t steps = (static_cast<std::uint64_t>(c.stream) << 58) + (c.batch * c.n + c.index) * Lcg63::stride;
    EXPECT_EQ(history_rng(c.seed, c.stream, c.batch, c.n, c.index).state, Lcg63::skip(c.seed, steps))
        << "seed " << c.seed << " batch " << c.batch << " index " << c.index;
  }
  const LcgJump a = LcgJump::power({Lcg63::mult, Lcg63::add}, 1234567), b = LcgJump::power({Lcg63::mult, Lcg63::add}, 7654321);
  EXPECT_EQ(a.then(b).apply(99), Lcg63::skip(99, 1234567 + 7654321));
  EXPECT_EQ(b.then(a).apply(99), a.then(b).apply(99));
}

TEST(Rng, HistoryStreamsAreReproducibleAndDistinct) {
  Lcg63 a = history_rng(7, RngStream::tracking, 3, 1000, 42);
  Lcg63 b = history_rng(7, RngStream::tracking, 3, 1000, 42);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(a.next(), b.next());
  // Particle 42's stream is particle 41's stream advanced by one stride.
  Lcg63 prev = history_rng(7, RngStream::tracking, 3, 1000, 41);
  EXPECT_EQ(Lcg63::skip(prev.state, Lcg63::stride), history_rng(7, RngStream::tracking, 3, 1000, 42).state);
  EXPECT_NE(history_rng(7, RngStream::source, 3, 1000, 42).state, history_rng(7, RngStream::tracking, 3, 1000, 42).state);
  EXPECT_NE(history_rng(8, RngStream::tracking, 3, 1000, 42).state, history_rng(7, RngStream::tracking, 3, 1000, 42).state);
}

TEST(Rng, UniformMoments) {
  Lcg63 r = history_rng(1, RngStream::tracking, 1, 1, 0);
  const int n = 200000;
  double sum = 0, sq = 0;
  for (int i = 0; i < n; ++i) {
    const double x = r.next();
    ASSERT_GE(x, 0.0);
    ASSERT_LT(x, 1.0);
    sum += x;
    sq += x * x;
  }
  // Mean 1/2 and variance 1/12, each within 5 standard errors.
  EXPECT_NEAR(sum / n, 0.5, 5 * std::sqrt(1.0 / 12.0 / n));
  EXPECT_NEAR(sq / n - (sum / n) * (sum / n), 1.0 / 12.0, 5 * std::sqrt(1.0 / 180.0 / n));
}

// Pearson's chi-square of counts against equal expectations.
template <std::size_t N>
double chi_square_uniform(const std::array<double, N>& counts, double total) {
  const double expected = total / static_cast<double>(N);
  double chi2 = 0;
  for (const double c : counts) chi2 += (c - expected) * (c - expected) / expected;
  return chi2;
}

// Why the urr stream has a seed of its own: streams 2^58 draws apart repeat each other's numbers plus
// one of at most eight constants, so draw n of the source stream minus draw n of the tracking stream
// takes at most eight values over every history.
TEST(Rng, StreamsSpacedOnOneCycleRepeatEachOtherShifted) {
  std::set<std::uint64_t> differences;
  for (std::uint64_t i = 0; i < 2000; ++i) {
    Lcg63 tracking = history_rng(5, RngStream::tracking, 0, 2000, i);
    Lcg63 source = history_rng(5, RngStream::source, 0, 2000, i);
    for (int n = 0; n < 8; ++n) {
      tracking.next();
      source.next();
      differences.insert((source.state - tracking.state) & Lcg63::mask);
    }
  }
  EXPECT_LE(differences.size(), 8u);
}

// A history's probability-table numbers (urr_draw of nuclide n, kernels/neutron/xs/nuclide_lookup.hpp)
// against its tracking numbers at the same places: their difference mod 1 and their pairs on an 8 x 8
// grid are uniform. 20000 histories x 8 draws; the bound is the chi-square's 1e-6 upper tail (63 degrees
// of freedom: 131.4). With the urr stream 5 x 2^58 draws on, the difference took 8 values (chi-square
// about 10^6).
TEST(Rng, UrrDrawsAreIndependentOfTrackingDraws) {
  constexpr int histories = 20000, draws = 8;
  std::array<double, 64> difference{}, pairs{};
  for (std::int64_t i = 0; i < histories; ++i) {
    const BatchCoordinates c{3, 7, histories, {0, histories}};
    Lcg63 tracking = history_rng(c, RngStream::tracking, i);
    const std::uint64_t urr_seed = independent_rng(c, RngStream::urr, i).state;
    for (int n = 0; n < draws; ++n) {
      const double t = tracking.next();
      const double u = neutron::urr_draw(urr_seed, n);
      const double d = u - t < 0 ? u - t + 1 : u - t;
      difference[static_cast<std::size_t>(d * 64)] += 1;
      pairs[static_cast<std::size_t>(t * 8) * 8 + static_cast<std::size_t>(u * 8)] += 1;
    }
  }
  EXPECT_LT(chi_square_uniform(difference, histories * draws), 131.4);
  EXPECT_LT(chi_square_uniform(pairs, histories * draws), 131.4);
}

}  // namespace
}  // namespace keff
