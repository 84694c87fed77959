#pragma once
// Where a uniform number falls in a tabulated CDF: the search of every tabular cosine and outgoing-energy
// draw. Bisection, narrowed first by a guide where the CDF is long: the guide holds the bin of each
// multiple j / cdf_guide_bins of the number (its last entry the bin of 1), so a number in [j, j + 1) /
// cdf_guide_bins lies between the bins of j and of j + 1. The bin is a nondecreasing function of the
// number, so bisecting between them finds the bin bisecting the whole CDF finds, in log2 of the points
// per guide bin steps instead of log2 of the points: each step is a dependent load, and the fission
// spectra's CDFs hold hundreds of points. Guides are built with the tables
// (src/params/flatten_secondaries.cpp) by the same search. The same bisection places an energy in a TAB1's
// abscissae or an incident-energy grid, there narrowed by energy_guide.hpp's guide. No Kokkos.
#include "kernels/vocabulary/macros.hpp"
#include "kernels/vocabulary/types.hpp"

namespace keff::neutron {

// Guide bins per CDF: a power of two, so j / cdf_guide_bins and floor(xi cdf_guide_bins) are exact.
inline constexpr int cdf_guide_bins = 64;
// CDFs of fewer points are bisected whole: a guide bin would hold less than one point.
inline constexpr int cdf_guide_min_points = cdf_guide_bins;

// The index k of the CDF bin holding xi, cdf[k] <= xi < cdf[k + 1], in [lo, hi - 1], where the caller
// knows cdf[lo] <= xi < cdf[hi] (the CDF's ends stand for 0 and 1).
KEFF_INLINE_FUNCTION int cdf_bin_between(const Real* cdf, int lo, int hi, Real xi) {
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (cdf[mid] <= xi) lo = mid; else hi = mid;
  }
  return lo;
}

// The index k of the CDF bin holding xi: cdf[k] <= xi < cdf[k + 1], in [0, n - 2].
KEFF_INLINE_FUNCTION int cdf_bin(const Real* cdf, int n, Real xi) { return cdf_bin_between(cdf, 0, n - 1, xi); }

// The same with the CDF's guide (cdf_guide_bins + 1 bins), or without one (guide null).
KEFF_INLINE_FUNCTION int cdf_bin(const Real* cdf, int n, Real xi, const int* guide) {
  if (guide == nullptr) return cdf_bin(cdf, n, xi);
  const int j = static_cast<int>(xi * cdf_guide_bins);
  return cdf_bin_between(cdf, guide[j], guide[j + 1] + 1, xi);
}

// The guide's entry j: the bin of j / cdf_guide_bins.
KEFF_INLINE_FUNCTION int cdf_guide_entry(const Real* cdf, int n, int j) {
  return cdf_bin(cdf, n, static_cast<Real>(j) / cdf_guide_bins);
}

}  // namespace keff::neutron
