#pragma once
// Batch statistics: mean and standard deviation of the mean over active batches, and the minimum-variance
// combination of the collision, absorption and track-length k estimators.
#include "io/run_results.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace keff {

MeanStd mean_std(const std::vector<double>& samples);

// Combines correlated estimators x[e][batch] into the unbiased linear combination of least variance,
// weights w = C^-1 1 / (1' C^-1 1) with C the sample covariance of the batch means. With fewer than four
// batches, or a singular covariance (an estimator with zero variance, as the absorption estimator has in
// a one-group infinite medium), falls back to the estimator whose mean has the smallest variance.
MeanStd combine_estimators(const std::array<std::vector<double>, 3>& x);

// Shannon entropy in bits of a histogram.
double shannon_entropy(std::span<const std::int64_t> counts);

}  // namespace keff
