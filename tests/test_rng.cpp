// The LCG's skip-ahead lands exactly where stepping lands; streams are reproducible and distinct.
#include <gtest/gtest.h>

#include "kernels/rng.hpp"

#include <cmath>

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

}  // namespace
}  // namespace keff
