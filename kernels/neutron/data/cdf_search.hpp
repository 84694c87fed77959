#pragma once
// Where a uniform number falls in a tabulated CDF: the search of every tabular cosine and outgoing-energy
// draw. Bisection, narrowed first by a guide where the CDF is long: the guide holds the bin of each
// multiple j / B of the number (its last entry the bin of 1), so a number in [j, j + 1) / B lies between
// the bins of j and of j + 1. The bin is a nondecreasing function of the number, so bisecting between
// them finds the bin bisecting the whole CDF finds, in log2 of the points per guide bin steps instead of
// log2 of the points: each step is a dependent load, and the fission spectra's CDFs hold hundreds of
// points (U235's 647, its fast elastic cosines 100 to 300). B grows with the CDF, about one point per
// bin, so what is left is mostly one step; a guide is at most a sixth of its CDF's bytes. Guides are
// built with the tables (src/params/flatten_secondaries.cpp) by the same search. The same bisection
// places an energy in a TAB1's abscissae or an incident-energy grid, there narrowed by energy_guide.hpp's
// guide. No Kokkos.
#include "kernels/vocabulary/macros.hpp"
#include "kernels/vocabulary/types.hpp"

namespace keff::neutron {

// Guide bins of a CDF: powers of two, so j / B and floor(xi B) are exact; the most that hold a point
// each, from cdf_guide_min_bins to cdf_guide_max_bins. CDFs of fewer points than the least are bisected
// whole.
inline constexpr int cdf_guide_min_bins = 64;
inline constexpr int cdf_guide_max_bins = 1024;
inline constexpr int cdf_guide_min_points = cdf_guide_min_bins;

// B for a CDF of n >= cdf_guide_min_points points.
KEFF_INLINE_FUNCTION int cdf_guide_bins(int n) {
  int bins = cdf_guide_min_bins;
  while (bins < cdf_guide_max_bins && 2 * bins <= n) bins *= 2;
  return bins;
}

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

// The same with the CDF's guide (cdf_guide_bins(n) + 1 entries), or without one (guide null).
KEFF_INLINE_FUNCTION int cdf_bin(const Real* cdf, int n, Real xi, const int* guide) {
  if (guide == nullptr) return cdf_bin(cdf, n, xi);
  const int j = static_cast<int>(xi * cdf_guide_bins(n));
  return cdf_bin_between(cdf, guide[j], guide[j + 1] + 1, xi);
}

// The guide's entry j: the bin of j / cdf_guide_bins(n).
KEFF_INLINE_FUNCTION int cdf_guide_entry(const Real* cdf, int n, int j) {
  return cdf_bin(cdf, n, static_cast<Real>(j) / cdf_guide_bins(n));
}

}  // namespace keff::neutron
