#pragma once
// Batch statistics: the mean and standard deviation of the mean over active batches; k from the
// collision, absorption and track-length estimators (their minimum-variance combination where it is
// defined and stable, otherwise a stated fallback with the reason); Shannon entropy of the fission
// source and a warning when its mesh misses the sites. Host only; no Kokkos.
#include "io/output/run_results.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace keff {

// Active batches from which combine_estimators combines. Its weights are C^-1 1 / (1' C^-1 1) with C
// the sample covariance of the three estimators over n batches (n - 1 degrees of freedom). C is
// singular below n = 4; the mean of its inverse, which sets the weights, exists only from n = 6 and
// overstates the true inverse by (n - 1) / (n - 5) (inverse Wishart): 2 at n = 9, 1.8 at n = 10, 1.27
// at n = 20. Below 10 the weights are mostly noise (at 5 batches a combination fell below all three
// estimators, with a deviation a third of theirs); OpenMC combines from 4 with a small-sample
// correction of the deviation, MCNP prints its combination from about 30 cycles.
inline constexpr int min_batches_to_combine = 10;

// Mean and standard deviation of the mean of `samples`: the std is NaN (undefined) with fewer than two
// samples, the mean NaN with none.
MeanStd mean_std(const std::vector<double>& samples);
// The same from the running sums of n samples (a tally's bin): sum x_i and sum x_i^2.
MeanStd mean_std_of_sums(double sum, double sum_sq, int n);

// k over the active batches so far from the estimators x[e][batch], e = collision, absorption,
// track-length, in this order of rules (KEstimate::reason says which applied and why):
//  1. no batch: kind none, mean and std NaN.
//  2. An estimator that is 0 in every batch (no absorption in fissionable material, no fission on any
//     track) while another is not is left out of everything below: it estimates nothing.
//  3. From 2 batches, an estimator left whose value is the same in every batch has zero variance: it is
//     the minimum-variance estimate (the absorption estimator of a one-group infinite medium is exact),
//     taken alone with std 0.
//  4. With fewer than min_batches_to_combine batches, or one estimator left: the mean of the estimators
//     left, per batch, then over batches, with the standard deviation of that mean (so their
//     correlation is accounted for); std NaN with one batch. Kind mean_of_estimators, or the one
//     estimator's kind.
//  5. Otherwise the minimum-variance combination w = L^-1 1 / (1' L^-1 1) of the estimators left, with
//     std sqrt(w' C w / n) (kind combined, reason ""), unless C is not positive definite (two estimators
//     move together exactly): the mean of rule 4. L is C corrected for the correlation of successive
//     batches, L[a][b] = C[a][b] sqrt(f_a f_b), f_a = max(1, tau_a) from estimator a's own series
//     (batch_correlation), so the weights minimise the corrected variance, not the naive one: the
//     estimator with the smallest naive std can be the most correlated (the absorption estimator on
//     LA-13511's UD2O sphere: lag-1 autocorrelation 0.29 against 0.03). L = C (the naive weights) below
//     min_batches_for_correlation batches.
//     A combination may lie outside the range of the estimators' means: strongly correlated estimators
//     give one a negative weight, and the minimum-variance combination then extrapolates by design
//     (Halperin's estimator, used by MCNP and OpenMC alike, is not confined to the range either). An
//     earlier rule fell back to the mean there, and a converged run flipped between the two from batch
//     to batch (20 times in a C5G7 run).
// The correlation of successive batches is not part of k.std (it assumes independent batches):
// estimate_correlation adds it.
KEstimate combine_estimators(const std::array<std::vector<double>, 3>& x);

// Active batches from which batch_correlation estimates anything (the batches per autocorrelation time
// from which its estimate is firm, reliable_correlation_batches, are the reports', run_results.hpp).
inline constexpr int min_batches_for_correlation = 20;
// The window: the first M lags with M >= correlation_window_factor x tau(M) (Sokal's self-consistent
// window, c = 5), at most max_correlation_window lags (the estimate is then marked unreliable).
inline constexpr double correlation_window_factor = 5;
inline constexpr int max_correlation_window = 4096;

// The integrated autocorrelation time tau of a series (batch values, in order), by Sokal's window above;
// tau = 1 for a series without variance (closed), 1 and not closed for an empty one.
struct AutocorrelationTime {
  double tau = 1;
  int window = 0;       // lags summed
  bool closed = false;  // the window closed (M >= c tau(M)) before it reached half the series
};
AutocorrelationTime autocorrelation_time(std::span<const double> series);

// The integrated autocorrelation time of `series` (batch values, in order) and the std of its mean
// corrected for it: naive std x sqrt(max(1, tau)). Not estimated (NaN) below min_batches_for_correlation
// values, and tau = 1 for a series without variance. Subtracting the series' own mean biases the
// autocorrelations low by about tau / n each, so a short series understates tau: with 120 batches of a
// problem whose true correction is x2.6, the estimate gave x1.6 on average (perf/RESULTS.md).
BatchCorrelation batch_correlation(const std::vector<double>& series);

// Sets k.correlation from the series of k's batch values (k.weights of the estimators x[e][batch]).
void estimate_correlation(KEstimate& k, const std::array<std::vector<double>, 3>& x);

// Shannon entropy in bits of a histogram; 0 for an empty one.
double shannon_entropy(std::span<const std::int64_t> counts);

// A warning for the batch's fission sites counted per entropy-mesh bin (`counts`, of `sites` sites in
// all): "" when the mesh holds every site; otherwise one line saying how many lie outside
// settings.entropy_mesh, that the entropy (0 when none is inside) then says nothing about the source's
// convergence, and how to fix it. For the driver to print once per run, at the first batch it happens.
std::string entropy_mesh_warning(std::span<const std::int64_t> counts, std::int64_t sites);

}  // namespace keff
