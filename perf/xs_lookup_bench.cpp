// Macroscopic cross-section lookup throughput of keff's lookup kernels (kernels/neutron/xs/nuclide_lookup.hpp).
//
//   xs_lookup_bench [--grid hash|unionized|nuclide|all] [--hash-bins B] [--gridpoints G] [--lookups L]
//                   [--problem keff|hm-small|hm-large] ...
//
// --problem keff (the default): keff's own synthetic library (--nuclides N, first --fuel F of them in a
//   fuel material, H1 + O16 water), random log-uniform energy, either material; one line per grid kind
//   with lookups/s and the sum of Sigma_t, which must agree across grid kinds.
//
// --problem hm-small | hm-large: XSBench's Hoogenboom-Martin problem (perf/hm_problem.hpp), so keff's
//   lookup can be set beside XSBench's openmp-threading build on the same machine.
//     --mode history|event|queue|sorted|sorted-kokkos|sorted-index|all (comma lists allowed; default event)
//       history: XSBench -m history: a thread per particle, --lookups-per-particle (34) chained lookups
//                for --particles (500000) particles
//       event:   XSBench -m event: a thread per lookup, sampling its energy and material inline
//       queue:   all lookups sampled into a queue first; only the lookup kernel over it is timed
//       sorted:  as queue, then the queue sorted by material and energy with keff's event-queue sort
//                (kernels/transport/event_queue.hpp) and the samples moved into that order, as sorted
//                transport moves its particles (kernels/transport/slot_permute.hpp), both timed apart;
//                XSBench -m event -k 1 does the same
//       sorted-kokkos: as sorted, with the event queue's Kokkos sorter (sort_by_key, continuous key)
//       sorted-index:  as sorted, but the samples stay where they are and the lookup reads them
//                through the sorted index (keff's sorted transport before it moved its particles)
//     --lookups L (17000000), --energy lethargy|linear (how XSBench's unit energy becomes eV),
//     --schedule static|dynamic (queue and sorted; dynamic, the default, is how keff's event transport
//       launches its lookups),
//     --verify 0|1 (1: also run the reference pass that gives XSBench's verification number)
//   Per mode, one line "result key=value ..." with the lookup kernel's time, lookups/s and
//   nuclide-lookups/s, keff's checksum (the bit patterns of every lookup's Sigma_t summed: equal across
//   grid kinds, and across event, queue and sorted, which look up the same stream) and XSBench's
//   verification number for the same lookups, from a reference pass (keff's grid search, XSBench's own
//   points and interpolation), which must equal the number XSBench prints.
#include <mpi.h>

#include <Kokkos_Core.hpp>

#include "io/input/model.hpp"
#include "kernels/rng.hpp"
#include "kernels/transport/event_queue.hpp"
#include "kernels/transport/particle_slots.hpp"
#include "kernels/workspace.hpp"
#include "kernels/neutron/xs/nuclide_lookup.hpp"
#include "perf/hm_problem.hpp"
#include "src/host/synthetic_data.hpp"
#include "src/params/build_nuclide_tables.hpp"
#include "src/params/build_nuclear_data.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace keff;
using Exec = DeviceExec;
using Mem = DeviceMem;
using Clock = std::chrono::steady_clock;

struct Options {
  std::string problem = "keff";
  int nuclides = 355, fuel = 321, gridpoints = perf::hm_default_gridpoints, hash_bins = -1;
  std::int64_t lookups = -1;
  std::int64_t particles = perf::hm_default_particles;
  int lookups_per_particle = perf::hm_default_lookups_per_particle;
  std::string grid = "hash";
  std::string modes = "event";
  std::string energy = "lethargy";
  std::string schedule = "dynamic";
  bool verify = true;
};

[[noreturn]] void usage_error(const std::string& what) {
  std::fprintf(stderr, "xs_lookup_bench: %s\n", what.c_str());
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i += 2) {
    const std::string a = argv[i];
    if (i + 1 >= argc) usage_error("option " + a + " needs a value");
    const char* v = argv[i + 1];
    if (a == "--problem") o.problem = v;
    else if (a == "--nuclides") o.nuclides = std::atoi(v);
    else if (a == "--fuel") o.fuel = std::atoi(v);
    else if (a == "--gridpoints") o.gridpoints = std::atoi(v);
    else if (a == "--lookups") o.lookups = std::atoll(v);
    else if (a == "--particles") o.particles = std::atoll(v);
    else if (a == "--lookups-per-particle") o.lookups_per_particle = std::atoi(v);
    else if (a == "--grid") o.grid = v;
    else if (a == "--hash-bins") o.hash_bins = std::atoi(v);
    else if (a == "--mode") o.modes = v;
    else if (a == "--energy") o.energy = v;
    else if (a == "--schedule") o.schedule = v;
    else if (a == "--verify") o.verify = std::atoi(v) != 0;
    else usage_error("unknown option " + a);
  }
  if (o.problem != "keff" && o.problem != "hm-small" && o.problem != "hm-large") usage_error("unknown problem " + o.problem);
  if (o.energy != "lethargy" && o.energy != "linear") usage_error("--energy is lethargy or linear");
  if (o.schedule != "static" && o.schedule != "dynamic") usage_error("--schedule is static or dynamic");
  return o;
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');) out.push_back(item);
  return out;
}

std::vector<EnergyGridKind> grid_kinds(const std::string& grid) {
  if (grid == "hash") return {EnergyGridKind::hash};
  if (grid == "unionized") return {EnergyGridKind::unionized};
  if (grid == "nuclide") return {EnergyGridKind::nuclide};
  if (grid == "all") return {EnergyGridKind::hash, EnergyGridKind::unionized, EnergyGridKind::nuclide};
  usage_error("unknown grid " + grid);
}

const char* grid_name(EnergyGridKind kind) {
  return kind == EnergyGridKind::hash ? "hash" : kind == EnergyGridKind::unionized ? "unionized" : "nuclide";
}

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// ---- keff's own synthetic problem ----------------------------------------------------------------

// Two materials: fuel (the first `fuel` nuclides) and water (H1, O16).
model::Problem two_materials(const Options& o) {
  model::Problem p;
  p.settings.thermal = model::ThermalModel::none;  // XSBench looks up 0 K tables: no free-gas factor
  p.materials.resize(2);
  auto& fuel = p.materials[0];
  fuel.name = "fuel";
  for (int i = 0; i < o.fuel; ++i) fuel.nuclides.push_back({synthetic_nuclide_name(i), 1e-3 / (1 + i)});
  auto& water = p.materials[1];
  water.name = "water";
  water.nuclides = {{"H1", 6.7e-2}, {"O16", 3.3e-2}};
  return p;
}

void run_synthetic(const Exec& exec, const Options& o, const NuclideLibrary& lib, EnergyGridKind kind) {
  const auto t0 = Clock::now();
  const auto nuclides = build_synthetic_params(exec, lib, kind, o.hash_bins > 0 ? o.hash_bins : 8000);
  const auto mats = build_material_params(exec, two_materials(o), lib);
  const double build_s = seconds_since(t0);
  const Workspace<Exec> ws(exec, mats.max_nuclides);
  const std::int64_t n = o.lookups > 0 ? o.lookups : 10'000'000;

  const auto lookup = KOKKOS_LAMBDA(std::int64_t i, double& sum) {
    Kokkos::Experimental::AcquireUniqueToken<Exec> token(ws.token);
    const auto cache = Kokkos::subview(ws.micro_xs, token.value(), Kokkos::ALL);
    Lcg63 rng = history_rng(42, RngStream::tracking, 1, 1, static_cast<std::uint64_t>(i));
    const Real e = constants::energy_min_ev *
                   Kokkos::exp(rng.next() * Kokkos::log(constants::energy_max_ev / constants::energy_min_ev));
    const int material = rng.next() < 0.5 ? 0 : 1;
    sum += neutron::material_macro_xs(nuclides, mats, false, material, e, 0, cache).total;
  };
  using Policy = Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>;
  double checksum = 0;
  Kokkos::parallel_reduce("keff::perf::xs_warmup", Policy(exec, 0, n / 10), lookup, checksum);
  exec.fence();
  const auto t1 = Clock::now();
  Kokkos::parallel_reduce("keff::perf::xs_lookup", Policy(exec, 0, n), lookup, checksum);
  exec.fence();
  const double s = seconds_since(t1);
  std::printf("%-10s %12.4g lookups/s  %8.3f s for %lld lookups  (build %.2f s)  checksum %.10e\n", grid_name(kind),
              static_cast<double>(n) / s, s, static_cast<long long>(n), build_s, checksum);
}

// ---- XSBench's H-M problem -----------------------------------------------------------------------

struct HmDevice {
  neutron::NuclideParams<Mem> nuclides;
  MaterialParams<Mem> materials;
  perf::HmSampler sampler;
  Kokkos::View<const perf::HmPoint*, Mem> table;  // XSBench's points, for the reference pass
  int n_gridpoints = 0;
};

KOKKOS_INLINE_FUNCTION std::uint64_t material_size(const MaterialParams<Mem>& m, int material) {
  return static_cast<std::uint64_t>(m.offsets(material + 1) - m.offsets(material));
}

// One lookup's share of a checksum, and how many of its five channels exceed 1: XSBench's stand-in
// for the physics between two lookups of a history skips one draw per such channel, so that the next
// lookup waits for this one.
struct LookupOutcome {
  std::uint64_t checksum = 0;
  int channels_above_one = 0;
};

// keff's lookup (kernels/neutron/xs/nuclide_lookup.hpp, material_macro_xs), the one transport makes;
// its checksum share is Sigma_t's bit pattern, and its
// five channels are total, elastic (total - absorption), absorption, fission and nu-fission.
struct KeffLookup {
  neutron::NuclideParams<Mem> nuclides;
  MaterialParams<Mem> materials;
  perf::HmSampler sampler;
  Workspace<Exec> ws;

  KOKKOS_INLINE_FUNCTION MacroXs macro(int m, Real e) const {
    Kokkos::Experimental::AcquireUniqueToken<Exec> token(ws.token);
    return neutron::material_macro_xs(nuclides, materials, false, m, e, 0,
                                       Kokkos::subview(ws.micro_xs, token.value(), Kokkos::ALL));
  }
  KOKKOS_INLINE_FUNCTION LookupOutcome operator()(int m, double u) const {
    const MacroXs x = macro(m, sampler.energy_ev(u));
    return {Kokkos::bit_cast<std::uint64_t>(x.total), (x.total > 1) + (x.total - x.absorption > 1) +
                                                          (x.absorption > 1) + (x.fission > 1) + (x.nu_fission > 1)};
  }
};

// XSBench's macroscopic lookup on XSBench's own points: keff's grid search finds each nuclide's interval
// (the one XSBench's search finds), and the five channels are interpolated from the upper point as
// XSBench does, so the sums, and the verification number, come out bit for bit as XSBench's. Its
// checksum share is 1 + the index of the largest channel, the first on ties.
struct ReferenceLookup {
  HmDevice d;

  KOKKOS_INLINE_FUNCTION LookupOutcome operator()(int m, double u) const {
    double xs[5] = {0, 0, 0, 0, 0};
    const Real e = d.sampler.energy_ev(u);
    const int search = d.nuclides.grid_search(e);
    for (int k = d.materials.offsets(m); k < d.materials.offsets(m + 1); ++k) {
      const int n = d.materials.nuclide(k);
      const double conc = d.materials.density(k);
      const std::int64_t j =
          static_cast<std::int64_t>(n) * d.n_gridpoints + nuclide_grid_index(d.nuclides.grid, n, e, search);
      const perf::HmPoint& lo = d.table(j);
      const perf::HmPoint& hi = d.table(j + 1);
      const double f = (hi.u - u) / (hi.u - lo.u);
      xs[0] += (hi.total - f * (hi.total - lo.total)) * conc;
      xs[1] += (hi.elastic - f * (hi.elastic - lo.elastic)) * conc;
      xs[2] += (hi.absorption - f * (hi.absorption - lo.absorption)) * conc;
      xs[3] += (hi.fission - f * (hi.fission - lo.fission)) * conc;
      xs[4] += (hi.nu_fission - f * (hi.nu_fission - lo.nu_fission)) * conc;
    }
    LookupOutcome out;
    double largest = -1.0;
    for (int c = 0; c < 5; ++c) {
      if (xs[c] > largest) {
        largest = xs[c];
        out.checksum = static_cast<std::uint64_t>(c + 1);
      }
      out.channels_above_one += xs[c] > 1.0 ? 1 : 0;
    }
    return out;
  }
};

// What a timed lookup kernel reports.
struct LookupRun {
  double seconds = 0;
  std::uint64_t lookups = 0;
  std::uint64_t nuclide_lookups = 0;  // sum over lookups of the material's nuclide count
  std::uint64_t checksum = 0;         // the lookups' shares summed (wrapping)
};

using DynamicPolicy = Kokkos::RangePolicy<Exec, Kokkos::Schedule<Kokkos::Dynamic>, Kokkos::IndexType<std::int64_t>>;

// A thread per lookup, sampling inline (XSBench -m event). Dynamic, as keff's history transport runs and
// XSBench's loops are scheduled.
template <class Lookup>
LookupRun lookup_event(const Exec& exec, const char* label, const Lookup& lookup, const HmDevice& d,
                       std::int64_t n) {
  const auto materials = d.materials;
  const auto sampler = d.sampler;
  LookupRun run;
  run.lookups = static_cast<std::uint64_t>(n);
  const auto t0 = Clock::now();
  Kokkos::parallel_reduce(
      label, DynamicPolicy(exec, 0, n),
      KOKKOS_LAMBDA(std::int64_t i, std::uint64_t& sum, std::uint64_t& count) {
        Lcg63 rng = perf::hm_lookup_rng(i);
        const double u = rng.next();
        const int m = sampler.material(rng);
        sum += lookup(m, u).checksum;
        count += material_size(materials, m);
      },
      run.checksum, run.nuclide_lookups);
  exec.fence(label);
  run.seconds = seconds_since(t0);
  return run;
}

// A thread per particle, its lookups chained (XSBench -m history).
template <class Lookup>
LookupRun lookup_history(const Exec& exec, const char* label, const Lookup& lookup, const HmDevice& d,
                         std::int64_t particles, int per_particle) {
  const auto materials = d.materials;
  const auto sampler = d.sampler;
  LookupRun run;
  run.lookups = static_cast<std::uint64_t>(particles) * static_cast<std::uint64_t>(per_particle);
  const auto t0 = Clock::now();
  Kokkos::parallel_reduce(
      label, DynamicPolicy(exec, 0, particles),
      KOKKOS_LAMBDA(std::int64_t p, std::uint64_t& sum, std::uint64_t& count) {
        Lcg63 rng = perf::hm_particle_rng(p, per_particle);
        double u = rng.next();
        int m = sampler.material(rng);
        for (int k = 0; k < per_particle; ++k) {
          const LookupOutcome out = lookup(m, u);
          sum += out.checksum;
          count += material_size(materials, m);
          if (out.channels_above_one > 0) {
            rng.state = Lcg63::skip(rng.state, static_cast<std::uint64_t>(out.channels_above_one));
          }
          u = rng.next();
          m = sampler.material(rng);
        }
      },
      run.checksum, run.nuclide_lookups);
  exec.fence(label);
  run.seconds = seconds_since(t0);
  return run;
}

// Fills slots.state.energy, slots.material and the identity queue with the event stream's lookups, as an
// event step leaves them for the lookup event.
void sample_queue(const Exec& exec, const HmDevice& d, const ParticleSlots<Exec>& slots,
                  const EventQueues<Exec>& q, int n) {
  const auto sampler = d.sampler;
  const auto energy = slots.state.energy;
  const auto material = slots.material;
  const auto queue = q.queue;
  Kokkos::parallel_for(
      "keff::perf::hm_sample_queue", Kokkos::RangePolicy<Exec>(exec, 0, n), KOKKOS_LAMBDA(int i) {
        Lcg63 rng = perf::hm_lookup_rng(i);
        const double u = rng.next();
        material(i) = sampler.material(rng);
        energy(i) = sampler.energy_ev(u);
        queue(i) = i;
      });
  exec.fence("keff::perf::hm_sample_queue");
}

// Slots with only the two fields the sort and the lookup read; the rest of a slot plays no part here.
ParticleSlots<Exec> sample_slots(const Exec& exec, int n) {
  ParticleSlots<Exec> slots;
  slots.state.energy =
      Kokkos::View<Real*, Mem>(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "keff::perf::hm_energy"), n);
  slots.material =
      Kokkos::View<int*, Mem>(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "keff::perf::hm_material"), n);
  return slots;
}

// Moves the samples into the order q.sorted gives and points the queue at them, as permute_slots does
// with a particle's every field in transport (here there are two), then swaps the two sets.
void move_samples(const Exec& exec, ParticleSlots<Exec>& slots, ParticleSlots<Exec>& spare, const EventQueues<Exec>& q,
                  int n) {
  const auto order = q.sorted, queue = q.queue;
  const auto energy = slots.state.energy, to_energy = spare.state.energy;
  const auto material = slots.material, to_material = spare.material;
  Kokkos::parallel_for(
      "keff::perf::hm_move_samples", Kokkos::RangePolicy<Exec>(exec, 0, n), KOKKOS_LAMBDA(int j) {
        const int s = order(j);
        to_energy(j) = energy(s);
        to_material(j) = material(s);
        queue(j) = j;
      });
  std::swap(slots, spare);
}

// The lookup event's work over a queue of slots. `dynamic` launches it as keff's event transport launches
// its lookups (kernels/transport/transport_event.hpp); static hands each CPU thread one contiguous part of
// a sorted queue, and so all of one material's lookups.
LookupRun lookup_queue(const Exec& exec, const KeffLookup& keff_lookup, const ParticleSlots<Exec>& slots,
                       Kokkos::View<const int*, Mem> queue, int n, bool dynamic) {
  const auto materials = keff_lookup.materials;
  const auto energy = slots.state.energy;
  const auto material = slots.material;
  const auto lookup = KOKKOS_LAMBDA(int i, std::uint64_t& sum, std::uint64_t& count) {
    const int s = queue(i);
    const int m = material(s);
    sum += Kokkos::bit_cast<std::uint64_t>(keff_lookup.macro(m, energy(s)).total);
    count += material_size(materials, m);
  };
  LookupRun run;
  run.lookups = static_cast<std::uint64_t>(n);
  const auto t0 = Clock::now();
  if (dynamic) {
    Kokkos::parallel_reduce("keff::perf::hm_lookup_queue",
                            Kokkos::RangePolicy<Exec, Kokkos::Schedule<Kokkos::Dynamic>>(exec, 0, n), lookup,
                            run.checksum, run.nuclide_lookups);
  } else {
    Kokkos::parallel_reduce("keff::perf::hm_lookup_queue", Kokkos::RangePolicy<Exec>(exec, 0, n), lookup,
                            run.checksum, run.nuclide_lookups);
  }
  exec.fence("keff::perf::hm_lookup_queue");
  run.seconds = seconds_since(t0);
  return run;
}

void print_result(const std::string& problem, const char* grid, const std::string& mode, const char* schedule,
                  const LookupRun& run, double sort_s, const LookupRun& ref) {
  const auto lookups = static_cast<double>(run.lookups);
  std::printf(
      "result problem=%s grid=%s mode=%s schedule=%s threads=%d lookups=%llu nuclide_lookups=%llu seconds=%.4f "
      "lookups_per_s=%.6g nuclide_lookups_per_s=%.6g sort_seconds=%.4f keff_checksum=%016llx xsbench_verification=%llu "
      "xsbench_nuclide_lookups=%llu reference_seconds=%.4f reference_lookups_per_s=%.6g\n",
      problem.c_str(), grid, mode.c_str(), schedule, Exec().concurrency(), static_cast<unsigned long long>(run.lookups),
      static_cast<unsigned long long>(run.nuclide_lookups), run.seconds, lookups / run.seconds, static_cast<double>(run.nuclide_lookups) / run.seconds, sort_s,
      static_cast<unsigned long long>(run.checksum), static_cast<unsigned long long>(ref.checksum % perf::hm_verification_modulus),
      static_cast<unsigned long long>(ref.nuclide_lookups), ref.seconds,
      ref.seconds > 0 ? lookups / ref.seconds : 0.0);
  std::fflush(stdout);
}

void run_hm(const Exec& exec, const Options& o) {
  const auto t0 = Clock::now();
  const perf::HmProblem hm =
      perf::make_hm_problem(o.problem == "hm-small" ? perf::HmSize::small : perf::HmSize::large,
                            o.energy == "linear" ? perf::HmEnergyMap::linear : perf::HmEnergyMap::lethargy,
                            o.gridpoints);
  const double generate_s = seconds_since(t0);
  const std::int64_t n_event = o.lookups > 0 ? o.lookups : perf::hm_default_lookups;
  const int hash_bins = o.hash_bins > 0 ? o.hash_bins : perf::hm_default_hash_bins;
  std::printf("keff XS lookup benchmark, XSBench's %s: %d nuclides x %d points, 12 materials, %.2f nuclides per "
              "lookup expected, energy map %s, %s with %d threads (data generated in %.2f s)\n",
              hm.name.c_str(), hm.n_nuclides, hm.n_gridpoints, hm.mean_nuclides, o.energy.c_str(), Exec::name(),
              exec.concurrency(), generate_s);

  const auto table_h = Kokkos::View<const perf::HmPoint*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
      hm.table.data(), hm.table.size());
  Kokkos::View<perf::HmPoint*, Mem> table(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "keff::perf::hm_table"),
                                          hm.table.size());
  Kokkos::deep_copy(exec, table, table_h);

  for (const EnergyGridKind kind : grid_kinds(o.grid)) {
    const auto t1 = Clock::now();
    HmDevice d;
    d.nuclides = build_synthetic_params(exec, hm.library, kind, hash_bins);
    d.materials = build_material_params(exec, hm.problem, hm.library);
    d.sampler = hm.sampler;
    d.table = table;
    d.n_gridpoints = hm.n_gridpoints;
    std::printf("grid %s built in %.2f s\n", grid_name(kind), seconds_since(t1));
    const KeffLookup keff_lookup{d.nuclides, d.materials, d.sampler, Workspace<Exec>(exec, d.materials.max_nuclides)};
    const ReferenceLookup reference{d};

    std::vector<std::string> modes = split(o.modes);
    if (o.modes == "all") modes = {"history", "event", "queue", "sorted", "sorted-kokkos", "sorted-index"};
    // The event stream's reference pass serves event, queue and sorted alike; all zero without --verify.
    bool have_event_reference = !o.verify;
    LookupRun event_ref;
    const auto event_reference = [&]() {
      if (!have_event_reference) event_ref = lookup_event(exec, "keff::perf::hm_reference_event", reference, d, n_event);
      have_event_reference = true;
      return event_ref;
    };
    for (const std::string& mode : modes) {
      if (mode == "history") {
        const LookupRun run = lookup_history(exec, "keff::perf::hm_lookup_history", keff_lookup, d, o.particles,
                                             o.lookups_per_particle);
        const LookupRun ref = o.verify ? lookup_history(exec, "keff::perf::hm_reference_history", reference, d,
                                                        o.particles, o.lookups_per_particle)
                                       : LookupRun{};
        print_result(hm.name, grid_name(kind), mode, "dynamic", run, 0.0, ref);
      } else if (mode == "event") {
        const LookupRun run = lookup_event(exec, "keff::perf::hm_lookup_event", keff_lookup, d, n_event);
        print_result(hm.name, grid_name(kind), mode, "dynamic", run, 0.0, event_reference());
      } else if (mode == "queue" || mode == "sorted" || mode == "sorted-kokkos" || mode == "sorted-index") {
        if (n_event > 2'000'000'000) usage_error("queue modes take at most 2e9 lookups");
        const int n = static_cast<int>(n_event);
        const bool sorted = mode != "queue";
        const bool moved = sorted && mode != "sorted-index";
        ParticleSlots<Exec> slots = sample_slots(exec, n), spare = sample_slots(exec, moved ? n : 0);
        const EventOrder order{sorted ? EventSort::material_energy : EventSort::none,
                               mode == "sorted-kokkos" ? EventSorter::kokkos : EventSorter::counting,
                               moved ? EventReorder::particles : EventReorder::index};
        const EventQueues<Exec> q = allocate_event_queues(exec, n, order, perf::hm_material_count, 0);
        sample_queue(exec, d, slots, q, n);
        double sort_s = 0;
        if (sorted) {
          const auto t2 = Clock::now();
          sort_queue(exec, slots, q, n);
          if (moved) move_samples(exec, slots, spare, q, n);
          exec.fence("keff::perf::hm_sort");
          sort_s = seconds_since(t2);
        }
        const LookupRun run = lookup_queue(exec, keff_lookup, slots, sorted && !moved ? q.sorted : q.queue, n,
                                           o.schedule == "dynamic");
        print_result(hm.name, grid_name(kind), mode, o.schedule.c_str(), run, sort_s, event_reference());
      } else {
        usage_error("unknown mode " + mode);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  {
    Kokkos::ScopeGuard guard(argc, argv);
    const Options o = parse(argc, argv);
    const Exec exec;
    if (o.problem == "keff") {
      SyntheticDataSpec spec;
      spec.nuclides = o.nuclides;
      spec.gridpoints = o.gridpoints;
      const NuclideLibrary lib = generate_synthetic_library(spec);
      std::printf("keff XS lookup benchmark: %d nuclides x %d points, fuel %d nuclides, %s with %d threads\n",
                  o.nuclides, o.gridpoints, o.fuel, Exec::name(), exec.concurrency());
      for (const EnergyGridKind kind : grid_kinds(o.grid)) run_synthetic(exec, o, lib, kind);
    } else {
      run_hm(exec, o);
    }
  }
  MPI_Finalize();
  return 0;
}
