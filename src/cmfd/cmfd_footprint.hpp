#pragma once
// What CMFD holds on every rank (each holds the whole coarse problem), known before it is allocated
// (cmfd_footprint in cmfd_accelerator.hpp): for the memory check and the run's header. Plain data, no
// Kokkos, so that the CLI can print it.

namespace keff {

struct CmfdFootprint {
  double unknowns = 0;      // groups x cells: the rows of M and F
  double entries = 0;       // the nonzeros of M (F shares its graph): G^2 C in-cell couplings, and neighbours
  double host_bytes = 0;    // the window: one batch's sums over ranks, the window's sum, its kept batches
  double device_bytes = 0;  // the solver: its tallies, M, F, the shifted matrix, the ILU factors, vectors
};

}  // namespace keff
