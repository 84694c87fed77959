#pragma once
// The largest sizes keff accepts, in one place, each with the reason for it, and overflow-safe
// arithmetic on sizes. The TOML reader, the command-line flags, the nuclear-data readers and the
// generators check against these before anything is allocated or indexed, and their messages state the
// range ("an integer in [1, 2^40]"). Kokkos-free: host-only code and the fuzz targets include it.
#include "kernels/vocabulary/populations.hpp"
#include "kernels/vocabulary/site.hpp"

#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>

namespace keff::limits {

inline constexpr std::int64_t int_max = std::numeric_limits<int>::max();
inline constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();

// Histories per batch, over all ranks. A site's sort key is parent * 2^20 + progeny in an int64
// (kernels/vocabulary/site.hpp), which holds parents below 2^43; 2^40 keeps a margin and is far beyond
// any machine's memory (each history needs about 700 bytes of State).
inline constexpr std::int64_t max_particles = std::int64_t{1} << 40;
// Histories per rank: the bank exchange and the statepoint gather count sites in an MPI int.
inline constexpr std::int64_t max_particles_per_rank = int_max;
// A statepoint gathers the whole source bank on rank 0 in one MPI message of at most 2^31 - 1 bytes.
inline constexpr std::int64_t max_statepoint_sites = int_max / static_cast<std::int64_t>(sizeof(Site));
// Batches: a run keeps k, entropy and the estimators of every batch (and writes them to statepoints).
inline constexpr std::int64_t max_batches = 1000000;
// Generations per batch; a run's generations (batches x generations per batch, or max_batches x that)
// are held to max_batches too, since every generation keeps its record.
inline constexpr std::int64_t max_generations_per_batch = 10000;
// Independent populations: the comb carries each one's range of the bank (kernels/vocabulary/populations.hpp).
inline constexpr std::int64_t max_populations = keff::max_populations;
// Histories per population: fewer die out (a population banks no site) within a run often enough, and
// the population's k is biased by its small size (a bias of order 1 / histories).
inline constexpr std::int64_t min_population_histories = 100;
// settings.populations = "auto" (an input's default): this many populations where settings.particles
// divides into them with at least min_automatic_population_histories each, so that a population's bias
// stays well below the std it quotes (perf/RESULTS.md, "Independent populations").
inline constexpr int automatic_populations = 8;
inline constexpr std::int64_t min_automatic_population_histories = 2000;
// settings.inactive = "auto": the run decides from this batch on whether its source is stationary
// (src/host/stationarity.hpp), so that the test has 10 batches in the last half it compares against.
inline constexpr int min_automatic_inactive = 20;
// Bins of one mesh (nx * ny * nz): RegularMesh indexes bins with an int, kernels count them with int64
// atomics, and every bin is reduced over ranks and written to the statepoint and the JSON summary.
inline constexpr std::int64_t max_mesh_bins = std::int64_t{1} << 24;
// A geometry slice's pixels (`keff plot`): 4 bytes each on the device and 7 on the host (the values and
// the image's rows), so 10^8 pixels need about 1.1 GB; 2^16 a side keeps a row's bytes far inside int.
inline constexpr std::int64_t max_plot_pixels = 100000000;
inline constexpr std::int64_t max_plot_side = std::int64_t{1} << 16;
inline bool plot_pixels_fit(std::int64_t nx, std::int64_t ny) {
  return nx >= 1 && ny >= 1 && nx <= max_plot_side && ny <= max_plot_side && nx * ny <= max_plot_pixels;
}

// Values of every tally together (filter bins x scores): reduced over ranks with an int MPI count, and
// written as four arrays of doubles to the statepoint and two to the JSON summary.
inline constexpr std::int64_t max_tally_values = std::int64_t{1} << 27;
// Values of CMFD's tallies (5 G C + 2 G^2 C + 2 G F for G coarse groups on C cells with F faces): each
// batch's are reduced over ranks with an int MPI count and kept while in the tally window, and its
// operators hold G C rows of up to G + 6 entries, indexed with ints.
inline constexpr std::int64_t max_cmfd_tally_values = std::int64_t{1} << 27;
// Entries of a bounds filter's bounds (an energy filter's, [settings.tally_mesh] energy_bounds): bins + 1.
inline constexpr std::int64_t max_filter_bounds = 100000;
// Fission-bank sites per source particle before the bank overflows (and grows): more than 100 sites per
// history is no physical problem's need, and the bank is allocated up front.
inline constexpr double max_bank_capacity_factor = 100.0;
// The first batch's k normalises its fission-site production (weight * nu sigma_f / sigma_t / k): a k
// far below the truth multiplies the first bank's size.
inline constexpr double min_initial_k = 0.01;
inline constexpr double max_initial_k = 100.0;
// Hash-grid bins: the table is (bins + 1) x nuclides ints.
inline constexpr std::int64_t max_hash_bins = std::int64_t{1} << 24;
// Entries of a two-dimensional cross-section index table: the hash grid's (hash_bins + 1) x nuclides and
// the unionized grid's union points x nuclides. Kernels index them with int, and Kokkos computes a View's
// offset in its index arguments' type: hash_bins = 2^24 with 129 nuclides ((2^24 + 1) x 129 > 2^31)
// overflowed into a crash.
inline constexpr std::int64_t max_xs_table_entries = int_max;
// Nuclides in a library (generated or read): real evaluated libraries have about 560.
inline constexpr std::int64_t max_nuclides = std::int64_t{1} << 16;
// Energy points of one nuclide (real libraries: up to a few hundred thousand).
inline constexpr std::int64_t max_gridpoints = std::int64_t{1} << 24;
// Energy points of all nuclides together: the grid offsets of NuclideParams are ints.
inline constexpr std::int64_t max_total_gridpoints = int_max;
// Multigroup energy groups (sigma_s is groups x groups per material).
inline constexpr std::int64_t max_groups = 10000;
// Material temperatures (K): above 0, and below the melting point of anything a reactor holds by far
// (kT = 8.6 eV at the top, where the free-gas cutoff of 400 kT passes the resonances).
inline constexpr double max_temperature = 1.0e5;
// NCrystal tables (settings.thermal_table_*): energies x samples outcomes of 24 bytes per material, each
// kept from `draws` of NCrystal's scatters (10^7 x 64 x 2 parts at the top: minutes of NCrystal).
inline constexpr int max_thermal_table_energies = 100000;
inline constexpr int max_thermal_table_samples = 10000;
inline constexpr int max_thermal_table_draws = 64;
inline constexpr std::int64_t max_thermal_table_outcomes = 10000000;
// The largest k a batch can report, per event a history may take (settings.max_events), for the checks
// of a restart: every source neutron has weight 1; a collision scores nu Sigma_f / Sigma_t <= max_nu (10:
// physical_limits in io/library/nuclear_data.hpp; the multigroup input keeps nu_sigma_f <= 10 sigma_a), an
// absorption at most max_nu, a flight at most max_nu times its optical length, which -log(1 - xi) keeps
// below 40 for a double xi < 1. A batch k past max_events x this no run reports: an edited statepoint
// (k = 1e308 overflowed the running statistics).
inline constexpr double max_k_per_event = 400.0;
// How far a restarted source site's weight may be from 1, the weight the comb gives every site
// (kernels/source_select.hpp): none, but for the rounding of a weight another writer of the format stored.
inline constexpr double site_weight_tolerance = 1e-12;
// With CMFD feedback sites carry weights other than 1 (src/cmfd/README.md): the bank's total is kept and
// the comb samples `particles` of its sites, so the source weighs `particles` on average, within a few
// sites' weights. A restarted source must weigh within this factor of `particles`.
inline constexpr double max_cmfd_source_weight_ratio = 2.0;
// Bytes of a TOML input file. The parsed document takes about ten times its text; the largest real
// inputs (full cores pin by pin, with lattices) are far below 1 MiB.
inline constexpr std::int64_t max_input_bytes = std::int64_t{1} << 26;
// A lattice's reach: where its box reaches |x| = X cm, a double resolves X to X * 2^-52, and
// `x - lower_left`, the element index and the coordinate within the element round to about that. Tracking
// decides the side of a wall within coincident_tolerance (1e-9 cm), so the lattice's coordinates must be
// resolved well below it: X * 2^-52 <= coincident_tolerance / 8 gives X <= 5.6e5 cm. A lattice whose
// lower_left and pitch were 1e17 put every point "on" a wall, and the flight direction chose the material.
inline constexpr double max_lattice_reach = 5.0e5;
// The smallest pitch: a point counts as inside an element only where it is more than 1e-6 cm from its
// walls (kernels/geometry.hpp, lattice_element_after), so elements must be much wider than that.
inline constexpr double min_lattice_pitch = 1.0e-5;
// Bytes of an NCrystal data file (`ncrystal` of a material), which keff reads before NCrystal parses
// it (io/thermal/ncrystal.hpp): NCrystal's standard files are at most a few MB, and one with a
// tabulated scattering kernel tens of MB.
inline constexpr std::int64_t max_ncrystal_data_bytes = std::int64_t{1} << 28;
// Bytes of an ACE file keff reads (io/library/ace): a type-1 table of U-235 at one temperature is 17 MB,
// the largest evaluations at one temperature a few hundred MB; files holding many tables are read whole.
inline constexpr std::int64_t max_ace_file_bytes = std::int64_t{1} << 31;
// Values in one table's XSS array: NXS(1) is read before the array, so it is bounded before anything is
// allocated for it (8 bytes each: 2 GiB at the limit).
inline constexpr std::int64_t max_ace_xss_values = std::int64_t{1} << 28;
// Bytes of an xsdir: MCNP's full xsdir is about 2 MB.
inline constexpr std::int64_t max_xsdir_bytes = std::int64_t{1} << 28;
// Bytes of a text library's index.txt: max_nuclides lines of up to 1 KiB (a name, an id, a count and a
// relative path; keff writes about 40 bytes a line).
inline constexpr std::int64_t max_text_index_bytes = max_nuclides * 1024;
// Bytes of one text nuclide file, whose point count the index announces: its header and comments, and
// per point a data line (four doubles at 17 digits: about 100 bytes as keff writes them) with room for
// wider spacing and a comment line beside each.
inline constexpr std::int64_t max_text_header_bytes = 65536;
inline constexpr std::int64_t max_text_bytes_per_point = 256;
inline constexpr std::int64_t max_text_nuclide_bytes(std::int64_t points) {
  return max_text_header_bytes + max_text_bytes_per_point * points;
}
// Kokkos threads per rank (--kokkos-num-threads, KOKKOS_NUM_THREADS, OMP_NUM_THREADS): Kokkos' OpenMP
// backend keeps its thread pool in a fixed array of 512 (OpenMPTraits::MAX_THREAD_COUNT; 513 threads
// hung Kokkos::initialize, more crashed it; src/cli/main.cpp checks the two agree). And per hardware thread
// of the machine at most 4: more only time-slice the same cores, each with its own scratch.
inline constexpr std::int64_t max_threads = 512;
inline constexpr std::int64_t max_threads_per_hardware_thread = 4;
// Kokkos device ids (--kokkos-device-id).
inline constexpr std::int64_t max_device_id = 1023;
// Sample points of the geometry check (settings.geometry_check_points, keff check-geometry --points):
// 2^40 points take days on any machine (point i takes numbers 3i to 3i + 2 of the check's random
// stream, which is 2^58 numbers long, so the stream would allow far more).
inline constexpr std::int64_t max_geometry_check_points = std::int64_t{1} << 40;

// a * b of non-negative sizes, or nothing when the result does not fit an int64.
inline std::optional<std::int64_t> checked_mul(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}
// The product of sizes, or nothing when any partial product leaves [0, limit].
template <class... T>
std::optional<std::int64_t> checked_product(std::int64_t limit, std::int64_t first, T... rest) {
  std::optional<std::int64_t> p = first;
  if (*p < 0 || *p > limit) return std::nullopt;
  for (const std::int64_t v : {static_cast<std::int64_t>(rest)...}) {
    p = checked_mul(*p, v);
    if (!p || *p > limit) return std::nullopt;
  }
  return p;
}

// "1099511627776" as "2^40" and "2147483647" as "2^31 - 1" (from 2^16 up); other numbers in decimal.
inline std::string number_text(std::int64_t v) {
  for (int k = 16; k < 63; ++k) {
    const std::int64_t p = std::int64_t{1} << k;
    if (v == p) return "2^" + std::to_string(k);
    if (v == p - 1) return "2^" + std::to_string(k) + " - 1";
  }
  if (v == int64_max) return "2^63 - 1";
  return std::to_string(v);
}

// "an integer in [1, 2^40]"
inline std::string integer_range(std::int64_t min, std::int64_t max) {
  return "an integer in [" + number_text(min) + ", " + number_text(max) + "]";
}

// "20000 x 20000 pixels (about 4.4 GB)": a slice's size and the memory it would need on device and host.
inline std::string plot_size_text(std::int64_t nx, std::int64_t ny) {
  const double gb = static_cast<double>(nx) * static_cast<double>(ny) * 11.0 / 1e9;
  char memory[32];
  std::snprintf(memory, sizeof memory, gb >= 0.1 ? "%.1f GB" : "%.0f MB", gb >= 0.1 ? gb : gb * 1e3);
  return std::to_string(nx) + " x " + std::to_string(ny) + " pixels (about " + memory + ")";
}

// What plot_pixels_fit allows, in words.
inline std::string plot_pixels_allowed() {
  return "[nx, ny], integers in [1, " + number_text(max_plot_side) + "] with nx * ny <= " +
         number_text(max_plot_pixels) + " (about 11 bytes a pixel: 1.1 GB at the limit)";
}

}  // namespace keff::limits
