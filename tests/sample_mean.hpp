#pragma once
// The mean of a value over samples and its standard error, and EXPECT_MEAN: the mean within 4.5 standard
// errors of what it must be (a false alarm in about 1 of 150,000 checks). For the tests that hold a
// sampler to an exact mean.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace keff::test {

struct SampleMean {
  double mean = 0, error = 0;
};

template <class T, class F>
SampleMean sample_mean(const std::vector<T>& samples, F value) {
  double s = 0, s2 = 0;
  for (const T& sample : samples) {
    const double v = value(sample);
    s += v;
    s2 += v * v;
  }
  const double n = static_cast<double>(samples.size()), mean = s / n;
  return {mean, std::sqrt(std::fmax(0.0, s2 / n - mean * mean) / n)};
}

}  // namespace keff::test

#define EXPECT_MEAN(m, expected) EXPECT_NEAR((m).mean, (expected), 4.5 * (m).error) << "sample error " << (m).error
