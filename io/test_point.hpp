#pragma once
// Test points: places where a test holds the program to signal it there, so that a test of signals
// reaches the phase it means on a fast machine and a slow one alike (never a signal after a guessed
// delay). Host only; no Kokkos.
//
// KEFF_TEST_POINT names points, separated by commas, each "<point>" or "<point>@<rank>" (rank 0 when
// none is given). The named rank, the first time it reaches a named point, prints
//     keff: test point <point> on rank <rank> (pid <pid>): waiting for a signal
// on standard error and waits there until the process receives a signal (note_signal), or is killed.
// Without the variable a point costs a flag test. The points (their names hold a number where one
// place is reached more than once):
//   transport:<b>   inside the transport of batch b, after its first kernel launch
//   cmfd:<b>        inside the CMFD solve of batch b, before its first outer iteration
//   batch:<b>       after batch b's row, before the ranks agree on a signal
//   outputs         keff run after its last batch, before rank 0 writes the JSON summary
//   write:<n>       the n-th file this process writes atomically, when its temporary file is complete
//                   and not yet renamed over the target
//   geometry-check  inside the geometry check (keff check-geometry and the one before a run)
//   data-generate   while a synthetic library is generated
//   ncrystal-open   as the input reader opens an NCrystal material (keff run, check-geometry, plot)
//   ncrystal-table:<t>  before NCrystal's table t (1-based) is tabulated
// tests/signal_at.sh runs a command and signals it at the points it announces.
//
// Armed in test executables only: the variable is read only after arm_test_points(), which `keff`
// never calls and the test build's `keff_test_points` (the same main, KEFF_ARM_TEST_POINTS) calls
// first of all. A KEFF_TEST_POINT left in a user's environment therefore cannot hold a production run.
#include <string>

namespace keff {

// Lets KEFF_TEST_POINT name points; before it (and in `keff`, always) every point is a no-op.
void arm_test_points();

// Which rank this process is (for the "@<rank>" of a point); 0 until set.
void set_test_point_rank(int rank);

// Holds the process at `point` when KEFF_TEST_POINT names it for this rank (see above).
void test_point(const std::string& point);

// True when armed and KEFF_TEST_POINT is set: callers that build a point's name skip that work otherwise.
bool test_points_enabled();

// Counts a signal, for a test point waiting for one. Async-signal-safe: the signal handler calls it.
void note_signal() noexcept;

}  // namespace keff
