#pragma once
// The problem as read from input: plain host data, validated and with every name resolved to an index.
// io/ fills it (TOML or the embedded default); src/ turns it into device Params. Each entity keeps where
// it was defined so later errors (e.g. a nuclide the library lacks) can still name file and line.
#include "io/library/load_strategy.hpp"
#include "io/limits.hpp"
#include "io/thermal/ncrystal.hpp"
#include "kernels/vocabulary/cmfd_options.hpp"
#include "kernels/vocabulary/plot.hpp"
#include "kernels/vocabulary/tally_kinds.hpp"
#include "kernels/vocabulary/types.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace keff::model {

struct SourceLoc {
  std::string file;  // "<default>" for the embedded benchmark
  int line = 0;
  std::string str() const { return file + ":" + std::to_string(line); }
};

enum class PhysicsMode { continuous_energy, multigroup };
inline constexpr EnumName<PhysicsMode> physics_mode_names[] = {{PhysicsMode::continuous_energy, "continuous-energy"},
                                                              {PhysicsMode::multigroup, "multigroup"}};
constexpr std::span<const EnumName<PhysicsMode>> enum_names(PhysicsMode) { return physics_mode_names; }

// How a continuous-energy neutron sees the target nucleus of an elastic scatter: moving, with the
// Maxwellian velocities of the material's temperature (the free-gas model with a constant cross section,
// below 400 kT and for nuclides lighter than a neutron), or at rest (the physics before temperatures,
// for comparisons with older numbers).
enum class ThermalModel { free_gas, none };
inline constexpr EnumName<ThermalModel> thermal_model_names[] = {{ThermalModel::free_gas, "free_gas"},
                                                                {ThermalModel::none, "none"}};
constexpr std::span<const EnumName<ThermalModel>> enum_names(ThermalModel) { return thermal_model_names; }

struct Surface {
  int user_id = 0;  // the id written in the input
  SurfaceKind kind = SurfaceKind::x_plane;
  std::array<double, surface_coeff_count> coeffs{};
  BoundaryKind boundary = BoundaryKind::transmission;
  SourceLoc where;
};

// The length of a general plane's normal (a, b, c): the reader refuses a plane whose length is not a
// positive finite number, the geometry builder divides by it. hypot scales before squaring, so a normal
// of 1e-300 (whose squares underflow to 0) is as good as any.
inline double plane_normal_length(const std::array<double, surface_coeff_count>& c) {
  return std::hypot(c[0], c[1], c[2]);
}

struct HalfSpace {
  int surface = 0;  // index into Problem::surfaces
  bool positive = false;
};

struct Cell {
  std::string name;
  int universe = 0;  // index into Problem::universes
  std::vector<HalfSpace> region;  // intersection; empty: all of space (the only cell of a non-root universe)
  FillKind fill_kind = FillKind::material;
  int fill = -1;  // material index (-1 = void), universe index or lattice index
  SourceLoc where;
};

struct Universe {
  std::string name;
  std::vector<int> cells;  // indices into Problem::cells, in input order
};

struct Lattice {
  std::string name;
  std::array<double, 3> lower_left{};
  std::array<double, 3> pitch{};
  std::array<int, 3> shape{1, 1, 1};
  // A 2-D lattice (input without z) has shape[2] = 1, lower_left[2] = -constants::infinity and
  // pitch[2] = 2 * constants::infinity: one layer spanning all z, centred on z = 0.
  // Universe indices, x fastest, then y upward from lower_left, then z.
  std::vector<int> universes;
  int outer = -1;  // universe index outside the elements, -1 = none (particles there are lost)
  SourceLoc where;
};

struct NuclideAmount {
  std::string name;
  double density = 0;  // atoms / barn-cm, > 0
};

struct Material {
  std::string name;
  SourceLoc where;
  // Continuous energy
  std::vector<NuclideAmount> nuclides;
  double temperature = 293.6;  // K: the target nuclei's Maxwellian (settings.thermal); settings.temperature by default
  // Bound-atom scattering below NCrystal's cutoff from NCrystal (io/thermal/ncrystal.hpp): the cfg string
  // as written, and the material NCrystal opened from it (the cfg it reads, with the temperature; the
  // composition; the file found and its data's digest).
  std::string ncrystal;
  NCrystalMaterial ncrystal_opened;
  // Multigroup (macroscopic, cm^-1), sized to Problem::groups; sigma_f, nu_sigma_f and chi are zeros
  // where the input leaves them out (a non-fissile material)
  std::vector<double> sigma_t, sigma_f, nu_sigma_f, chi;
  std::vector<std::vector<double>> sigma_s;  // [from][to]
};

// Where continuous-energy data comes from. An empty `library` means synthetic data generated in
// memory from (nuclides, gridpoints, seed, shape); otherwise `library` is the path of an HDF5 library
// file or a text library directory (resolved against the input file's directory), read by `load`.
struct NuclearDataSpec {
  // Evaluated data from an ACE library (ace = true): its xsdir (the input's `xsdir`, else the
  // environment's KEFF_ACE_LIBRARY), each material's nuclides taken at the table nearest the material's
  // temperature within temperature_tolerance (K).
  bool ace = false;
  std::string xsdir;
  double temperature_tolerance = 10.0;
  std::string library;
  LoadSpec load;
  int nuclides = 68;          // library size (Hoogenboom-Martin "small")
  int gridpoints = 11303;     // points per nuclide
  std::uint64_t seed = 20251;
  bool flat = false;          // energy-independent cross sections and nu (verification)
  SourceLoc where;
};

struct Box {
  std::array<double, 3> lower{};
  std::array<double, 3> upper{};
};

struct Mesh {
  Box box;
  std::array<int, 3> shape{1, 1, 1};
};

// [[mesh]]: a named regular mesh that tallies filter by. A mesh of fewer than three axes spans the others
// whole: one bin from -constants::infinity to +constants::infinity.
struct NamedMesh {
  std::string name;
  Mesh mesh;
  SourceLoc where;
};

// One filter of a [[tally]] (kernels/vocabulary/tally_kinds.hpp says what each kind bins by).
struct TallyFilter {
  TallyFilterKind kind = TallyFilterKind::mesh;
  int mesh = -1;                      // mesh: index into Problem::meshes
  std::vector<int> items;             // cell, cell_instance: cells; material: materials; universe: universes
  std::vector<double> bounds;         // energy and other bounds filters: ascending, in the kind's units
};

// [[tally]] trigger: the run goes on (to settings.max_batches) until the largest relative error of
// `score` over the tally's bins is at most rel_err.
struct TallyTrigger {
  TallyScore score = TallyScore::flux;
  double rel_err = 0;
};

struct Tally {
  std::string name;
  std::vector<TallyFilter> filters;  // in the order of the results' axes
  std::vector<TallyScore> scores;
  TallyEstimator estimator = TallyEstimator::tracklength;
  std::optional<TallyTrigger> trigger;
  SourceLoc where;
};

// The run's settings: each key's default, range and words are its row's (io/input/settings_rows.hpp),
// which the constructor applies; the members below that are no key of [settings] say theirs here.
struct Settings {
  Settings();

  std::int64_t particles;
  int batches;
  // Batches before the active ones. With inactive = "auto" (inactive_automatic), the most there may be:
  // max_inactive, or half the batches when that is 0 (choose_inactive_bound); the run ends them earlier,
  // from limits::min_automatic_inactive on, once the source is stationary (src/host/stationarity.hpp), and
  // then sets this to the batches it ran.
  int inactive;
  bool inactive_automatic;
  int max_inactive;
  // Each batch is this many generations (OpenMC's meaning): a generation's fission sites are the next
  // generation's source, and k, entropy and the source are per generation; k's statistics and the
  // tallies are over batches, each the mean of its generations, which makes successive batches less
  // correlated than successive generations (src/README.md, "Correlated batches").
  int generations_per_batch;
  // Independent populations: each batch's histories split into this many equal populations, each with
  // its own fission source (kernels/vocabulary/populations.hpp); with more than one, k's uncertainty is
  // also estimated from the spread of their k's, which covers the correlation between generations that
  // the batches' own series misses (src/README.md, "Correlated batches").
  int populations;
  // populations was chosen by model::choose_populations (settings.populations = "auto", an input's
  // default), so a --particles override or CMFD feedback chooses it again.
  bool populations_automatic;
  std::uint64_t seed;
  PhysicsMode mode;
  EnergyGridKind energy_grid;
  ThermalModel thermal;  // continuous energy: targets moving or at rest
  double temperature;    // K: every material's unless it gives its own
  bool ptables;          // evaluated data: unresolved-range probability tables (OpenMC's ptables)
  // NCrystal materials: tabulated before transport (every backend), or NCrystal asked in transport (host only)
  bool thermal_tables;
  bool ncrystal_fresh_cache_per_call = false;  // benchmarks only (perf/): not an input key
  int thermal_table_energies;  // NCrystal tables: incident energies up to the cutoff
  int thermal_table_samples;   // NCrystal tables: outcomes per incident energy and part
  int thermal_table_draws;     // NCrystal tables: NCrystal scatters per outcome kept
  std::optional<TransportMode> transport;  // unset: history-based, or event-based with domains
  std::int64_t event_slots;  // event-based: particles in flight per rank; 0 sizes them from memory
  // Lookup-queue order; unset: by material and energy on a GPU (coherent reads pay there), none on a
  // CPU (caches already serve scattered lookups and sorting costs more than it saves; perf/RESULTS.md).
  std::optional<EventSort> event_sort;
  EventSorter event_sorter;  // how a sorted queue is sorted
  // What a sort reorders; unset: the particles on a GPU (neighbouring threads then read neighbouring
  // slots), an index on a CPU (moving them costs more than it saves there; perf/RESULTS.md).
  std::optional<EventReorder> event_reorder;
  int hash_bins;
  double bank_capacity_factor;  // fission bank sites per source particle before overflow
  double initial_k;
  int max_events;           // per history; beyond it the particle counts as lost
  std::int64_t max_lost;    // more lost particles than this fails the run
  Box source;               // initial source: uniform in this box, in fissionable material
  Mesh entropy_mesh;        // Shannon entropy of the fission source
  std::string statepoint;   // empty: none written
  int statepoint_interval;  // > 0: also write it every this many batches
  // With tally triggers: the run goes on past `batches`, batch by batch, until every trigger holds or
  // this many batches have run (0: stop at `batches`, as without triggers).
  int max_batches;
  // `--batches` given: the run ends at `batches`, a failing trigger or not (a run split in two, README).
  bool batches_final = false;
  bool allow_oversubscribed_memory;  // run even when the memory estimate exceeds what is available
  // Points of the sampled overlap and gap check before a run (src/driver/geometry_check.hpp); 0 skips it.
  std::int64_t geometry_check_points;
};

// Generations are counted from 1 over the run, G = generations_per_batch of them a batch: generation g is
// generation (g - 1) % G + 1 of batch (g - 1) / G + 1. With G = 1 a generation is a batch.
inline int batch_of(int g, int generations_per_batch) { return (g - 1) / generations_per_batch + 1; }
inline int generation_in_batch(int g, int generations_per_batch) { return (g - 1) % generations_per_batch + 1; }
// Batch b's first generation.
inline int first_generation(const Settings& s, int batch) { return (batch - 1) * s.generations_per_batch + 1; }
// The last batch a run can reach (settings.max_batches with tally triggers), and its last generation;
// the input and the command line hold that to limits::max_batches.
inline int last_batch(const Settings& s) { return std::max(s.batches, s.max_batches); }
inline std::int64_t last_generation(const Settings& s) {
  return std::int64_t{last_batch(s)} * s.generations_per_batch;
}
// Generation g as messages name it: "batch 3", or with more than one generation per batch "batch 3
// generation 2"; "batch 0" before the first (a run stopped inside it).
inline std::string generation_name(int g, int generations_per_batch) {
  if (generations_per_batch == 1 || g < 1) return "batch " + std::to_string(g);
  std::string name = "batch " + std::to_string(batch_of(g, generations_per_batch));
  return name.append(" generation ").append(std::to_string(generation_in_batch(g, generations_per_batch)));
}
inline std::string generation_name(const Settings& s, int g) { return generation_name(g, s.generations_per_batch); }

inline std::string populations_allowed() {
  return "\"auto\", or 1 to " + std::to_string(limits::max_populations) +
         ", dividing settings.particles into populations of at least " +
         std::to_string(limits::min_population_histories) + " histories";
}
// CMFD feedback reweights every site by the CMFD source of all histories, which would couple the populations.
inline std::string cmfd_populations_problem(int populations) {
  return "CMFD feedback in active batches with " + std::to_string(populations) +
         " populations: it reweights each population's source by all of them, so they are not independent";
}
// Why settings.populations does not suit settings.particles ("" when it does): each population holds
// particles / populations histories, a whole number of at least limits::min_population_histories.
inline std::string populations_problem(const Settings& s) {
  if (s.populations == 1) return "";
  const std::string what = std::to_string(s.particles) + " particles in " + std::to_string(s.populations) + " populations";
  if (s.particles % s.populations != 0) return what + " is not a whole number of histories in each";
  if (s.particles / s.populations < limits::min_population_histories) return what + " is too few histories in each";
  return "";
}

// Domain decomposition: the geometry's bounding box (or the given box) cut into a mesh of domains.
// Each domain is tracked by ranks / domains ranks (its replicas, which share its particles); a particle
// leaving a domain continues on the ranks of the domain it enters.
struct Domains {
  std::array<int, 3> mesh{1, 1, 1};
  Box box;
  SourceLoc where;  // of the [domains] table
  int count() const { return mesh[0] * mesh[1] * mesh[2]; }
};

// Which batches CMFD's tallies sum, as OpenMC names them: `none` every batch since `begin`; `expanding`
// a window that grows with the run and leaves out at least the older half of it, whose source was
// furthest from converged (expanding_window); `rolling` the last `window_size`.
enum class CmfdWindow { none, expanding, rolling };

// The expanding window after the n-th batch since `begin` (counted from 1): batches split / 2 + 1 to n,
// split = bit_floor(n). It is kept as two sums, the batches up to split and those after, so that it
// costs the same memory after any number of batches. (OpenMC's expanding window, the last bit_floor(n)
// batches, drops its oldest batch one at a time and so keeps every batch it holds.)
struct ExpandingWindow {
  int first;  // the window's first batch since begin
  int split;  // the last batch of its older part
};
inline ExpandingWindow expanding_window(int n) {
  const int split = static_cast<int>(std::bit_floor(static_cast<unsigned>(n)));
  return {split / 2 + 1, split};
}
inline constexpr EnumName<CmfdWindow> cmfd_window_names[] = {
    {CmfdWindow::none, "none"}, {CmfdWindow::expanding, "expanding"}, {CmfdWindow::rolling, "rolling"}};
constexpr std::span<const EnumName<CmfdWindow>> enum_names(CmfdWindow) { return cmfd_window_names; }

// [cmfd]: coarse-mesh finite difference acceleration (src/cmfd/README.md, keys in examples/INPUT.md).
struct Cmfd {
  bool enabled = true;                // [cmfd] enabled; keff run --cmfd / --no-cmfd
  Mesh mesh;                          // the coarse mesh: a box and its shape, or a lattice's
  // Partial current in per partial current out on the mesh's outer faces (-x, +x, -y, +y, -z, +z):
  // 0 vacuum, 1 reflective, negative for the ratio the tallies measure (kernels/cmfd_data.hpp).
  std::array<double, 6> albedo{};
  std::vector<double> energy_bounds;  // continuous energy: coarse group edges, eV, ascending
  std::vector<int> collapse;          // multigroup: the coarse group of each of the problem's groups
  int begin = 1;                      // the first batch tallied (and solved)
  // The last batch tallied, solved and fed back; unset: the last inactive batch (cmfd_end below).
  std::optional<int> end;
  bool feedback = false;              // reweight the fission source to CMFD's, or only report k_cmfd
  CmfdWindow window = CmfdWindow::none;
  int window_size = 10;               // rolling
  // A (coarse group, cell) with less collision weight than this in the window is left out of the solve
  // (src/cmfd/cmfd_accelerator.cpp): too few events for its currents and outgoing-group shares.
  double min_collisions = 100;
  CmfdOptions solver;
  SourceLoc where;                    // of the [cmfd] table

  int n_groups() const {
    return energy_bounds.empty() ? (collapse.empty() ? 1 : collapse.back() + 1)
                                 : static_cast<int>(energy_bounds.size()) - 1;
  }
};

// A colour the input gives a material or a cell in a [[plot]] (by the plot's colour_by).
struct PlotColor {
  int index = 0;  // into Problem::materials or Problem::cells
  std::array<std::uint8_t, 3> rgb{};
};

// [[plot]]: a slice of the geometry that `keff plot` draws. What the input leaves out (origin, width,
// pixels) is worked out from the geometry's bounding box when the slice is drawn (src/host/plot_frame.hpp).
struct Plot {
  std::string name;
  PlotBasis basis = PlotBasis::xy;
  std::optional<std::array<double, 3>> origin;        // the slice's centre, cm
  std::optional<std::array<double, 2>> width;         // across and up, cm
  std::optional<std::array<std::int64_t, 2>> pixels;  // across and up
  PlotColorBy color_by = PlotColorBy::material;
  std::string file;  // the PNG, relative to the working directory
  std::vector<PlotColor> colors;
  SourceLoc where;
};

struct Problem {
  std::string source_name;  // input file path, or "<default>"
  Settings settings;
  NuclearDataSpec nuclear_data;
  int groups = 0;  // multigroup only
  std::vector<Surface> surfaces;
  std::vector<Cell> cells;
  std::vector<Universe> universes;
  std::vector<Lattice> lattices;
  std::vector<Material> materials;
  int root_universe = 0;
  std::optional<Domains> domains;  // absent: every rank tracks particles anywhere
  std::optional<Cmfd> cmfd;        // absent: no [cmfd] table
  std::vector<NamedMesh> meshes;   // [[mesh]], and [settings.tally_mesh]'s
  std::vector<Tally> tallies;      // [[tally]], and [settings.tally_mesh]'s
  std::vector<Plot> plots;         // [[plot]]: drawn by `keff plot`, not by a run
  // What the reader adjusted rather than refused (a published chi that sums to 1 only to its printed
  // digits), each a message "<file>:<line>: <key>: <what was done>": said once before a run.
  std::vector<std::string> notes;
  // What the input asks for that runs but cannot do what it says (a tally that can never score), each
  // "<file>:<line>: <key>: <why>": said on standard error before a run.
  std::vector<std::string> warnings;

  // CMFD runs: a [cmfd] table that is enabled (keff run --cmfd / --no-cmfd decide over its key).
  bool cmfd_on() const { return cmfd && cmfd->enabled; }
  // CMFD runs and reweights the source.
  bool cmfd_feedback() const { return cmfd_on() && cmfd->feedback; }
  // The last batch CMFD runs in: [cmfd] end, by default the last inactive batch. CMFD is there to
  // converge the source; in active batches its feedback leaves the quoted std short of k's spread
  // (src/cmfd/README.md, "Which batches").
  int cmfd_end() const;
  // CMFD feedback after an active batch (cmfd_couples_populations below).
  bool cmfd_couples_populations() const;
};

// The functions of a [cmfd] table as read, before it joins the problem (the input checks it), that
// Problem's members above apply to its own.
inline int cmfd_end(const Cmfd& c, const Settings& s) { return c.end.value_or(s.inactive); }
// CMFD reweights the source after an active batch: the populations' active batches would share its
// weights, which are every population's tallies' (before them, only their starts do).
inline bool cmfd_couples_populations(const Cmfd& c, const Settings& s) {
  return c.enabled && c.feedback && cmfd_end(c, s) > s.inactive;
}
inline int Problem::cmfd_end() const { return model::cmfd_end(*cmfd, settings); }
inline bool Problem::cmfd_couples_populations() const { return cmfd && model::cmfd_couples_populations(*cmfd, settings); }

// Why [cmfd] runs in no batch at all ("" when it runs in some): its end before its begin; or, with
// inactive = "auto", an end that could fall after the inactive batches the run chooses (which its
// default follows).
inline std::string cmfd_batches_problem(const Problem& p) {
  if (!p.cmfd_on()) return "";
  if (p.settings.inactive_automatic && p.cmfd->feedback && p.cmfd->end && *p.cmfd->end > limits::min_automatic_inactive) {
    return "[cmfd] at " + p.cmfd->where.str() + ": end = " + std::to_string(*p.cmfd->end) +
           " with inactive = \"auto\", which may end the inactive batches at batch " +
           std::to_string(limits::min_automatic_inactive) + " (allowed: no end, which follows the inactive batches the "
           "run chooses; end <= " + std::to_string(limits::min_automatic_inactive) + "; or feedback = false)";
  }
  if (p.cmfd_end() >= p.cmfd->begin) return "";
  const std::string end = p.cmfd->end ? "end = " + std::to_string(*p.cmfd->end)
                                      : "end, by default the last inactive batch, is " + std::to_string(p.cmfd_end());
  return "[cmfd] at " + p.cmfd->where.str() + " runs from batch begin = " + std::to_string(p.cmfd->begin) +
         " to batch " + end + ": no batch (allowed: [cmfd] end >= begin, or settings.inactive >= begin)";
}

// Why the problem cannot run settings.populations ("" when it can): its particles (populations_problem),
// or CMFD feedback in active batches, which couples populations (cmfd_populations_problem).
inline std::string populations_problem(const Problem& p) {
  if (std::string why = populations_problem(p.settings); !why.empty()) return why;
  if (p.cmfd_couples_populations() && p.settings.populations > 1) return cmfd_populations_problem(p.settings.populations);
  return "";
}

// settings.inactive = "auto": the most inactive batches the run may take (max_inactive, or half the
// batches when that is 0), which choose_inactive_bound makes settings.inactive.
inline int automatic_inactive_bound(const Settings& s) { return s.max_inactive > 0 ? s.max_inactive : s.batches / 2; }
inline void choose_inactive_bound(Settings& s) {
  if (s.inactive_automatic) s.inactive = automatic_inactive_bound(s);
}

// settings.populations = "auto": limits::automatic_populations where the particles divide into that many
// populations of at least limits::min_automatic_population_histories and no CMFD feedback couples them;
// else one, whose batches' corrected std and correlation warning are what the run quotes.
inline void choose_populations(Problem& p) {
  auto& s = p.settings;
  if (!s.populations_automatic) return;
  const std::int64_t n = limits::automatic_populations;
  const bool fits = s.particles % n == 0 && s.particles / n >= limits::min_automatic_population_histories;
  s.populations = fits && !p.cmfd_couples_populations() ? limits::automatic_populations : 1;
}

}  // namespace keff::model
