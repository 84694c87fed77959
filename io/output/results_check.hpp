#pragma once
// What every reader of a statepoint's results holds them to beyond its checksum, which proves the file
// unchanged but which anyone can recompute after an edit: a tally's description as a run writes it, each
// tally bin's sums as active batches can make them, CMFD's solves and warm start as a solve leaves them.
// `keff tally show`, a restart (which also checks the rest against its problem: restart_check.hpp) and the
// fuzz targets read these. Host only; no Kokkos, no HDF5.
#include "io/output/run_results.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace keff {

// A tally's description: a valid tally name, a known estimator, 1 to 7 known scores each with its own
// units, at most max_tally_filters filters of known kinds whose bins times the scores are its values, each
// filter holding what its kind carries (a mesh its shape and box, an energy filter ascending bounds, a
// valid name per bin of a cell, material, universe or cell_instance filter, a finite position per
// placement) and nothing else, a finite mean and a non-negative deviation (or none) per value. A forged
// description crashed `keff tally show` (a zero mesh shape, bins past the names). "" or the problem.
std::string tally_description_problem(const TallyResult& t);

// The most one batch adds to a tally bin: a bin's batch score is a fixed-point sum (int64 with
// tally_fraction_bits fractional bits) over the batch's source weight, which is `particles` (with CMFD
// feedback, at least particles / limits::max_cmfd_source_weight_ratio).
double max_tally_batch_value(std::int64_t particles, bool cmfd_weighted);

// A bin's running sums over `n` active batches, as n batch values x_i in [0, max_batch_value] make them:
// sum x_i and sum x_i^2 finite and non-negative, (sum x_i)^2 <= n sum x_i^2 (Cauchy-Schwarz) and
// sum x_i^2 <= (sum x_i)^2 (to rounding), sum x_i <= n max. "" or the problem.
std::string tally_sums_problem(double sum, double sum_sq, int n, double max_batch_value,
                               std::string_view why_max = "what a fixed-point batch score holds per unit of source weight");

// Record i (0-based) of a run's batch records as a run writes them: generation i % G + 1 of batch
// i / G + 1 (G generations per batch), active past the `inactive` batches. "" or the problem.
std::string batch_numbering_problem(const BatchResult& b, std::size_t i, int generations_per_batch, int inactive);

// A setting the statepoint records twice, as a field of the run (particles, seed, ...) and among the
// settings a restart matches (RunResults::settings): "" when the two agree, else the problem.
std::string settings_agree_problem(const RunResults& r);

// Active batches whose every generation is in r.batch: the batches the tallies and k's statistics hold.
int completed_active_batches(const RunResults& r);

// The results as a whole: particles in range, generations_per_batch in range, the batch records numbered as
// a run numbers them (batch_numbering_problem), each generation's populations' k's making up its k (their
// mean without CMFD feedback, around it with), every tally bin's sums (tally_sums_problem) and its mean
// (finite from the first active batch on) and deviation (finite from the second), CMFD's solves
// (a converged one with a finite k_cmfd > 0 and an entropy from 0 to log2(coarse cells); a failed one
// with those or none) and warm start (finite, non-negative, not all zero). "" or the problem.
std::string results_problem(const RunResults& r);

}  // namespace keff
