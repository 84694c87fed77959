#pragma once
// Secondary distributions on the device (Params: built once by src/params/flatten_secondaries, read-only
// in kernels): the records of secondary_records.hpp and the two arrays they index. A reaction or delayed
// group names its laws as a range [first, first + count) of `laws`.
#include "kernels/neutron/data/energy_guide.hpp"
#include "kernels/neutron/data/secondary_records.hpp"

#include <Kokkos_Core.hpp>

namespace keff::neutron {

template <class Mem>
struct SecondaryParams {
  Kokkos::View<const Real*, Mem> reals;
  Kokkos::View<const int*, Mem> ints;
  Kokkos::View<const LawRecord*, Mem> laws;
  Kokkos::View<const OutgoingRecord*, Mem> outgoing;
  Kokkos::View<const AngleRecord*, Mem> angles;
  Kokkos::View<const AngleDistributionRecord*, Mem> angle_distributions;

  // The guide at ints[offset], or null (offset -1: none).
  KOKKOS_INLINE_FUNCTION const int* guide(int offset) const { return offset < 0 ? nullptr : &ints(offset); }

  // f(x) of a TAB1 (ENDF interpolation laws 1 to 5), held at its end values outside its range.
  KOKKOS_INLINE_FUNCTION Real evaluate(const Tab1Record& f, Real x) const {
    const int n = f.points;
    const Real* xs = &reals(f.offset);
    const Real* ys = xs + n;
    if (n == 1 || x <= xs[0]) return ys[0];
    if (x >= xs[n - 1]) return ys[n - 1];
    const int lo = energy_interval(xs, n, x, guide(f.guide)), hi = lo + 1;  // xs[lo] <= x < xs[hi]
    int law = 2;
    for (int r = 0; r < f.regions; ++r) {
      if (hi < ints(f.regions_offset + 2 * r)) { law = ints(f.regions_offset + 2 * r + 1); break; }
    }
    const Real x0 = xs[lo], x1 = xs[hi], y0 = ys[lo], y1 = ys[hi];
    if (x1 == x0 || law == 1) return y0;
    if ((law == 4 || law == 5) && !(y0 > 0 && y1 > 0)) law = law == 4 ? 2 : 3;  // ln y of 0: linear in y
    switch (law) {
      case 3: return y0 + (y1 - y0) * Kokkos::log(x / x0) / Kokkos::log(x1 / x0);      // y linear in ln x
      case 4: return y0 * Kokkos::exp(Kokkos::log(y1 / y0) * (x - x0) / (x1 - x0));   // ln y linear in x
      case 5: return y0 * Kokkos::exp(Kokkos::log(y1 / y0) * Kokkos::log(x / x0) / Kokkos::log(x1 / x0));
      default: return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
    }
  }
};

}  // namespace keff::neutron
