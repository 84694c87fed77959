#pragma once
// NCrystal, the thermal-neutron scattering library, as keff uses it: a material described by an NCrystal
// cfg string ("C_sg194_pyrolytic_graphite.ncmat;temp=296K"), read on the host, and its scattering
// tabulated before transport for the kernels (kernels/thermal_table.hpp). Host only; no NCrystal header
// leaks out of ncrystal.cpp, and a build without NCrystal (cmake/KeffNCrystal.cmake) gets the same
// functions from ncrystal_absent.cpp, which refuse with the install line.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace keff {

// NCrystal refused a cfg string (its own message), or this keff was built without NCrystal.
class ThermalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Whether this keff was built with NCrystal, and which one ("" without).
bool ncrystal_built();
std::string ncrystal_version();

// The chemical symbol of element z ("H", "C"), or "Z=<z>" where there is none (or no NCrystal to ask).
std::string element_symbol(int z);

// What a build without NCrystal says when an input asks for it.
inline constexpr const char* ncrystal_install_hint =
    "this keff was built without NCrystal: run scripts/setup-ncrystal.sh (or pip install ncrystal), then "
    "scripts/build.sh (or cmake -DKEFF_ENABLE_NCRYSTAL=ON -DNCrystal_DIR=$(ncrystal-config --show cmakedir))";

// One element of an NCrystal material: its atomic number and atom fraction.
struct ThermalElement {
  int z = 0;
  std::string symbol;
  double fraction = 0;
};

// An NCrystal material as keff runs it.
struct NCrystalMaterial {
  std::string cfg;                      // what NCrystal reads: the user's string, with keff's temperature
  double temperature_k = 0;             // the material's temperature (NCrystal's, if the cfg sets one)
  bool cfg_sets_temperature = false;    // whether the cfg set it (`temp=`)
  std::vector<ThermalElement> elements;  // the composition, atom fractions summing to 1
  std::string data_source;              // the file its data was read from, or "NCrystal's standard library"
  bool data_in_file = true;             // data_source is a file's path (else NCrystal holds or makes the data)
  std::uint64_t data_digest = 0;        // checksum64 of that data: a restart compares it
};

// Where the data file a cfg names is looked for (open_ncrystal), in this order:
//   - an absolute path ("~/" is the home directory, as NCrystal reads it): that file;
//   - a relative one: in `input_dir` (the input file's folder, as library paths are; "" is the working
//     directory; none: not looked for there), then in each folder of NCRYSTAL_DATA_PATH;
//   - then NCrystal's standard library, or a factory of NCrystal's that makes its data ("stdlib::",
//     "freegas::", "solid::", "gasmix::").
// A file is held to keff's rules for the files it reads (io/input_file.hpp: a regular file, links
// followed, of at most limits::max_ncrystal_data_bytes) and read by keff, before NCrystal sees it:
// NCrystal reads those bytes from memory, so a FIFO never blocks it, the data a run used is the data
// its digest names, and a file replaced during the run changes nothing.
struct NCrystalLookup {
  std::optional<std::string> input_dir;
};

// Opens `cfg` at `temperature_k`: the cfg's own `temp` wins where it sets one (the caller compares), else
// the material's temperature is given to NCrystal. The data file is found and read as NCrystalLookup says.
// Throws ThermalError naming the file and the problem (no such file anywhere looked, not a regular file,
// too large, no NCrystal data), for a parameter keff does not take (`density`: keff takes densities from
// the nuclides; several phases), or with NCrystal's message for data or a parameter it rejects, or a
// temperature outside the data's range.
NCrystalMaterial open_ncrystal(const std::string& cfg, double temperature_k, const NCrystalLookup& lookup = {});


// Where NCrystal's scattering applies: below the cutoff (the nuclides' elastic data above it), tabulated
// from the lowest energy of keff's grids.
inline constexpr double thermal_min_ev = 1.0e-5;
inline constexpr double thermal_cutoff_ev = 5.0;

// The tables' shape: `energies` incident energies, log-spaced over [min_ev, cutoff_ev], and at each
// `samples` equally likely outcomes of each of NCrystal's two kinds of scattering, each outcome chosen
// from draws_per_outcome of NCrystal's scatters (tabulate_ncrystal). The three counts are the run's
// settings (settings::thermal_table_spec, io/input/settings_rows.hpp): none of them has a default here.
struct ThermalTableSpec {
  int energies = 0;
  int samples = 0;
  int draws_per_outcome = 0;
  double min_ev = thermal_min_ev;
  double cutoff_ev = thermal_cutoff_ev;
};

// A material's scattering tabulated, its elastic part (energy unchanged: Bragg diffraction off a crystal's
// planes, incoherent elastic, small-angle) apart from its inelastic part (phonons, diffusion). Apart,
// because in a crystal the elastic part is most of the cross section below 0.1 eV: outcomes drawn from
// the whole would leave a few dozen per energy to the inelastic part, which alone thermalises.
// Per incident energy E_i: each part's cross section (barns per atom), and `samples` equally likely
// outcomes of each: the elastic cosine; the inelastic energy change E' - E_i and cosine.
struct ThermalTable {
  std::vector<double> energy;           // [energies], ascending
  std::vector<double> xs_elastic;       // [energies]
  std::vector<double> xs_inelastic;     // [energies]
  std::vector<double> elastic_mu;       // [energies][samples]
  std::vector<double> inelastic_shift;  // [energies][samples]
  std::vector<double> inelastic_mu;     // [energies][samples]
  int samples = 0;
};

// A tabulation that `stop` asked to end (a signal): how many of its energies were done.
class ThermalTableStopped : public std::runtime_error {
 public:
  ThermalTableStopped(long long done_energies, long long all_energies)
      : std::runtime_error("stopped after " + std::to_string(done_energies) + " of " + std::to_string(all_energies) +
                           " energies"),
        done(done_energies), energies(all_energies) {}
  long long done, energies;
};

// Deterministic in (material, spec, seed), whatever the number of `threads` (up to the host's cores) that
// share the work: every rank builds the same table. Throws ThermalError. `stop`, where given, is asked
// between energies (by every thread): when it says true, the tabulation ends with ThermalTableStopped.
ThermalTable tabulate_ncrystal(const NCrystalMaterial& material, const ThermalTableSpec& spec, std::uint64_t seed,
                               int threads = 1, const std::function<bool()>& stop = {});

// Where tabulate_ncrystal_into writes a table: ThermalTable's arrays, held by the caller (`energies` and
// `energies` x `samples` values each, as in ThermalTable), so that the table need not be copied.
struct ThermalTableOut {
  double *energy, *xs_elastic, *xs_inelastic, *elastic_mu, *inelastic_shift, *inelastic_mu;
};

// tabulate_ncrystal, into the caller's arrays (the device tables' host copy).
void tabulate_ncrystal_into(const NCrystalMaterial& material, const ThermalTableSpec& spec, std::uint64_t seed,
                            int threads, const std::function<bool()>& stop, const ThermalTableOut& out);

// NCrystal asked directly during transport (settings.thermal_tables = false, host backends): one NCrystal
// process per material and one NCrystal cache per (thread, material), all made here, before transport;
// a thread takes its row of caches on its first call. Random numbers come from the caller (the
// particle's stream), so what NCrystal samples does not depend on the thread that asks. With
// fresh_cache_per_call every call makes and drops its own cache instead, as NCrystal's uncached
// interfaces do: for the benchmark of what keeping them saves, not a user option.
class NCrystalDirect {
 public:
  NCrystalDirect(const std::vector<NCrystalMaterial>& materials, int threads, bool fresh_cache_per_call = false);
  ~NCrystalDirect();
  NCrystalDirect(const NCrystalDirect&) = delete;
  NCrystalDirect& operator=(const NCrystalDirect&) = delete;

  // Cross section (barns per atom) of material `table` at `energy`.
  double xs(int table, double energy) const;
  // One scatter at `energy`: E' and the lab cosine, with uniform numbers in [0, 1) from draw(rng).
  void scatter(int table, double energy, double (*draw)(void*), void* rng, double* energy_out, double* mu_out) const;
  // Threads that found no row of caches left (more threads than `threads`): they used a fresh cache per call.
  long long calls_without_a_row() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The two calls as plain functions of the object, for kernels (kernels/xs_data.hpp, ThermalHostCalls).
double ncrystal_direct_xs(const void* direct, int table, double energy);
void ncrystal_direct_scatter(const void* direct, int table, double energy, double (*draw)(void*), void* rng,
                             double* energy_out, double* mu_out);

// NCrystal itself, for checks of the tables: its scattering cross section (barns per atom) at each of
// `energies`, and `n` scatters at `energy` (E', mu) from a stream seeded with `seed`.
std::vector<double> ncrystal_cross_sections(const NCrystalMaterial& material, const std::vector<double>& energies);
std::vector<std::pair<double, double>> ncrystal_scatters(const NCrystalMaterial& material, double energy, int n,
                                                         std::uint64_t seed);

}  // namespace keff
