// Profiling annotations: every kernel keff launches, and every phase of a batch, is a named Kokkos Tools
// event under "keff::", so kokkos-tools (space-time stack, kernel timer) attributes time without edits.
#include <gtest/gtest.h>

#include "io/input/input.hpp"
#include "mpi/communicator.hpp"
#include "run_problem.hpp"
#include "src/driver/simulation.hpp"

#include <Kokkos_Core.hpp>

#include <mutex>
#include <set>
#include <string>

namespace keff {
namespace {

std::mutex names_mutex;
std::set<std::string> kernels, regions;

void on_kernel(const char* name, const std::uint32_t, std::uint64_t*) {
  const std::lock_guard<std::mutex> lock(names_mutex);
  kernels.insert(name);
}
void on_region(const char* name) {
  const std::lock_guard<std::mutex> lock(names_mutex);
  regions.insert(name);
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// Kernels and regions from Kokkos Kernels (CMFD's solve: src/cmfd/README.md), which keep their own names
// inside keff's keff::cmfd::* regions.
bool kokkos_kernels_name(const std::string& s) {
  for (const char* prefix : {"KokkosBlas", "KokkosSparse", "KokkosKernels", "KokkosBatched", "GMRES"}) {
    if (starts_with(s, prefix)) return true;
  }
  return false;
}

void expect_named_kernels_and_phases(model::Problem problem, const std::set<std::string>& expected_kernels,
                                     const std::set<std::string>& expected_regions) {
  kernels.clear();
  regions.clear();
  problem.settings.particles = 1000;
  model::choose_populations(problem);
  problem.settings.batches = 3;
  problem.settings.inactive = 1;
  problem.settings.inactive_automatic = false;
  problem.settings.statepoint.clear();
  const Communicator comm;
  Simulation sim(DeviceExec(), problem, comm, nullptr);

  namespace exp = Kokkos::Tools::Experimental;
  exp::set_begin_parallel_for_callback(on_kernel);
  exp::set_begin_parallel_reduce_callback(on_kernel);
  exp::set_begin_parallel_scan_callback(on_kernel);
  exp::set_push_region_callback(on_region);
  sim.run();
  exp::set_begin_parallel_for_callback(nullptr);
  exp::set_begin_parallel_reduce_callback(nullptr);
  exp::set_begin_parallel_scan_callback(nullptr);
  exp::set_push_region_callback(nullptr);

  // Kernels are keff's own or Kokkos' internals (deep_copy fills, sort_by_key's permutation).
  for (const auto& k : kernels) {
    EXPECT_TRUE(starts_with(k, "keff::") || starts_with(k, "Kokkos::") || (problem.cmfd_on() && kokkos_kernels_name(k)))
        << "unnamed or foreign kernel '" << k << "'";
  }
  for (const auto& k : expected_kernels) EXPECT_TRUE(kernels.count(k)) << "kernel '" << k << "' never ran";
  for (const auto& r : regions) {
    EXPECT_TRUE(starts_with(r, "keff::") || (problem.cmfd_on() && kokkos_kernels_name(r))) << "region '" << r << "'";
  }
  for (const auto& r : expected_regions) EXPECT_TRUE(regions.count(r)) << "region '" << r << "' never pushed";
}

TEST(ToolsAnnotations, KernelsAndPhasesAreNamed) {
  expect_named_kernels_and_phases(default_problem(),
                                  {"keff::transport::histories", "keff::source::initial", "keff::bank::scatter",
                                   "keff::entropy::count", "keff::source::comb"},
                                  {"keff::transport::histories", "keff::source::initial", "keff::bank::sort",
                                   "keff::entropy::compute", "keff::source::select", "keff::tally::accumulate"});
}

// The default benchmark event-based, its lookups sorted by material and energy with `sorter`, the
// particles moved.
model::Problem sorted_event_problem(EventSorter sorter) {
  model::Problem problem = default_problem();
  problem.settings.transport = TransportMode::event;
  problem.settings.event_slots = 200;
  problem.settings.event_sort = EventSort::material_energy;
  problem.settings.event_sorter = sorter;
  problem.settings.event_reorder = EventReorder::particles;
  return problem;
}

TEST(ToolsAnnotations, EventKernelsAreNamed) {
  expect_named_kernels_and_phases(sorted_event_problem(EventSorter::counting),
                                  {"keff::event::start", "keff::event::lookup", "keff::event::advance",
                                   "keff::event::cross", "keff::event::collide", "keff::event::build_queue",
                                   "keff::event::sort_keys", "keff::event::sort_scatter",
                                   "keff::event::order_other_slots", "keff::event::permute_slots",
                                   "keff::event::sum_counters"},
                                  {"keff::transport::events", "keff::event::sort", "keff::event::permute"});
}

TEST(ToolsAnnotations, EventKernelsWithKokkosSorterAreNamed) {
  expect_named_kernels_and_phases(sorted_event_problem(EventSorter::kokkos),
                                  {"keff::event::lookup", "keff::event::sort_continuous_keys",
                                   "keff::event::permute_slots"},
                                  {"keff::event::sort", "keff::event::sort_by_key", "keff::event::permute"});
}

#if KEFF_HAVE_CMFD
// CMFD: its tallies, window, solve and reweighting under keff::cmfd::*, Kokkos Kernels' own names inside.
TEST(ToolsAnnotations, CmfdKernelsAndPhasesAreNamed) {
  expect_named_kernels_and_phases(test::example("cmfd_slab_2g.toml"),
                                  {"keff::cmfd::coefficients", "keff::cmfd::score_source", "keff::cmfd::weight_factors",
                                   "keff::cmfd::reweight"},
                                  {"keff::cmfd::batch", "keff::cmfd::add_batch", "keff::cmfd::reweight",
                                   "keff::cmfd::gmres"});
}
#endif

}  // namespace
}  // namespace keff
