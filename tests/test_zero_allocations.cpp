// No allocation in a batch: a Kokkos Tools allocation callback, installed around a batch's transport and
// around a whole batch (transport, bank ordering, exchange, entropy, tallies), must see nothing once the
// first batch has sized the bank exchange's grow-only buffers. The one exception is chosen in the input:
// the event queue's Kokkos sorter (sort_by_key allocates temporaries every call), whose allocations must
// all fall inside its own profiling region. Everything else is allocated once per run
// (kernels/transport/transport_state.hpp), the unique token of the scratch included. With domain decomposition
// the particle exchange, the site router and their communication plans grow only as well.
#include <gtest/gtest.h>

#include "io/input/geometry_bounds.hpp"
#include "io/input/input.hpp"
#include "kernels/source_state.hpp"
#include "kernels/transport/transport_state.hpp"
#include "run_problem.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace keff {
namespace {

std::mutex labels_mutex;
std::vector<std::string> allocation_labels;
std::vector<std::string> open_regions;  // the profiling regions pushed and not yet popped, innermost last

// The allocation's label, and where it happened: "label" outside every region listed in
// `allocation_regions`, else "label in region".
std::vector<std::string> allocation_regions;

void on_allocate(const Kokkos::Tools::SpaceHandle, const char* label, const void*, const std::uint64_t) {
  const std::lock_guard<std::mutex> lock(labels_mutex);
  std::string seen = label;
  for (const auto& r : open_regions) {
    if (std::find(allocation_regions.begin(), allocation_regions.end(), r) != allocation_regions.end()) {
      seen += " in " + r;
      break;
    }
  }
  allocation_labels.push_back(seen);
}
void on_push_region(const char* name) {
  const std::lock_guard<std::mutex> lock(labels_mutex);
  open_regions.emplace_back(name);
}
void on_pop_region() {
  const std::lock_guard<std::mutex> lock(labels_mutex);
  if (!open_regions.empty()) open_regions.pop_back();
}

// Allocations seen while `step` runs.
template <class Step>
std::vector<std::string> allocations_during(Step&& step) {
  namespace tools = Kokkos::Tools::Experimental;
  allocation_labels.clear();
  open_regions.clear();
  tools::set_allocate_data_callback(on_allocate);
  tools::set_push_region_callback(on_push_region);
  tools::set_pop_region_callback(on_pop_region);
  step();
  tools::set_allocate_data_callback(nullptr);
  tools::set_push_region_callback(nullptr);
  tools::set_pop_region_callback(nullptr);
  return allocation_labels;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += "'" + x + "' ";
  return s;
}

TEST(ZeroAllocations, CallbackSeesAllocations) {
  // The probe works: a View allocated while it is installed is seen.
  const auto seen = allocations_during([] { Kokkos::View<double*> v("keff::test::probe", 10); });
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0], "keff::test::probe");
}

// The Kokkos sorter's region (kernels/transport/event_queue.hpp).
constexpr const char* kokkos_sort_region = "keff::event::sort_by_key";

bool in_kokkos_sort(const std::string& seen) {
  const std::string suffix = std::string(" in ") + kokkos_sort_region;
  return seen.size() > suffix.size() && seen.compare(seen.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Returns how many allocations the Kokkos sorter made (none are allowed anywhere else).
std::size_t expect_no_allocation_in_transport(model::Problem problem) {
  problem.settings.particles = 2000;
  model::choose_populations(problem);
  problem.settings.statepoint.clear();
  allocation_regions = {kokkos_sort_region};
  const Communicator comm;
  Simulation sim(DeviceExec(), problem, comm, nullptr);
  sim.sample_initial_source();
  sim.run_batch(1);  // first use of every buffer
  std::size_t in_sorter = 0;
  for (int batch = 2; batch <= 3; ++batch) {
    auto seen = allocations_during([&] { sim.transport(batch); });
    in_sorter += static_cast<std::size_t>(std::erase_if(seen, in_kokkos_sort));
    EXPECT_TRUE(seen.empty()) << seen.size() << " allocations in the transport of batch " << batch << ": " << join(seen);
    auto whole = allocations_during([&] { sim.run_batch(batch); });
    std::erase_if(whole, in_kokkos_sort);
    EXPECT_TRUE(whole.empty()) << whole.size() << " allocations in batch " << batch << ": " << join(whole);
  }
  return in_sorter;
}

TEST(ZeroAllocations, ContinuousEnergyLattice) { expect_no_allocation_in_transport(default_problem()); }

TEST(ZeroAllocations, Multigroup) { expect_no_allocation_in_transport(test::example("la13511_pua_slab.toml")); }

model::Problem event_based(model::Problem p, EventSort sort, EventSorter sorter = EventSorter::counting,
                           EventReorder reorder = EventReorder::particles) {
  p.settings.transport = TransportMode::event;
  p.settings.event_slots = 300;  // fewer than the histories: slots are refilled during the batch
  p.settings.event_sort = sort;
  p.settings.event_sorter = sorter;
  p.settings.event_reorder = reorder;
  return p;
}

TEST(ZeroAllocations, EventBasedSortedByMaterialAndEnergy) {
  for (const EventReorder reorder : {EventReorder::particles, EventReorder::index}) {
    EXPECT_EQ(expect_no_allocation_in_transport(
                  event_based(default_problem(), EventSort::material_energy, EventSorter::counting, reorder)),
              0u);
  }
}

// Kokkos' sort_by_key allocates inside its region only. On a host backend it allocates every call (a
// permutation, host mirrors, the copies it permutes through): the probe sees them. Thrust, on CUDA,
// allocates its own temporaries, which Kokkos Tools do not see.
TEST(ZeroAllocations, EventBasedKokkosSorterAllocatesInItsSortOnly) {
  const std::size_t in_sorter =
      expect_no_allocation_in_transport(event_based(default_problem(), EventSort::material_energy, EventSorter::kokkos));
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, DeviceMem>::accessible) {
    EXPECT_GT(in_sorter, 0u);
  }
}

TEST(ZeroAllocations, EventBasedMultigroupUnsorted) {
  expect_no_allocation_in_transport(event_based(test::example("la13511_pua_slab.toml"), EventSort::none));
}

// One domain per rank along x (at one rank: a single domain, which still runs every exchange step).
TEST(ZeroAllocations, DomainDecomposition) {
  model::Problem p = default_problem();
  const auto box = geometry_bounding_box(p);
  ASSERT_TRUE(box.has_value());
  p.domains = model::Domains{};
  p.domains->mesh = {Communicator().size(), 1, 1};
  p.domains->box = *box;
  expect_no_allocation_in_transport(p);
}

// The memory check before allocating (src/host/memory_check.hpp) uses transport_state_bytes: it must be what
// allocate_transport_state then allocates, history- and event-based.
TEST(ZeroAllocations, StateEstimateIsWhatIsAllocated) {
  using Exec = Kokkos::DefaultExecutionSpace;
  const Exec exec;
  for (const int slots : {0, 500}) {
    TransportStateSizes n;
    n.bank_capacity = 3000;
    n.tally_values = 9 * 9 * 2 * 2;
    n.max_nuclides = 40;
    n.event_slots = slots;
    n.n_materials = 3;
    for (const EventSort sort : {EventSort::none, EventSort::material_energy}) {
      for (const EventSorter sorter : {EventSorter::counting, EventSorter::kokkos}) {
        for (const EventReorder reorder : {EventReorder::particles, EventReorder::index}) {
          n.event_order = {sort, sorter, reorder};
          const auto one_slot = event_slot_bytes(exec, n.max_nuclides, n.event_order);
          const auto state = allocate_transport_state(exec, n);
          const double estimate = transport_state_bytes(exec, n, static_cast<double>(one_slot));
          const auto allocated = static_cast<double>(state.bytes());
          EXPECT_NEAR(estimate, allocated, 0.02 * allocated + 4096) << slots << " slots, sort " << name_of(sort)
                                                                    << ", sorter " << name_of(sorter)
                                                                    << ", reorder " << name_of(reorder);
          const bool spare = slots > 0 && n.event_order.moves_particles();  // allocated, and counted
          EXPECT_EQ(state.spare_slots.size(), spare ? slots : 0);
          if (spare) {
            EXPECT_GT(allocated, 1.9 * static_cast<double>(state.slots.bytes()));
          }
        }
      }
    }
  }
}

// With CMFD's scores, which a host backend keeps once more per thread (kernels/scatter_sums.hpp).
TEST(ZeroAllocations, StateEstimateCountsCmfdScoreCopies) {
  using Exec = Kokkos::DefaultExecutionSpace;
  const Exec exec;
  TransportStateSizes n;
  n.bank_capacity = 3000;
  const Real lower[3] = {0, 0, 0}, upper[3] = {10, 10, 10}, albedo[6] = {0, 0, 0, 0, 0, 0};
  const int shape[3] = {20, 20, 20};
  n.cmfd_mesh = make_cmfd_mesh(lower, upper, shape, albedo);
  n.cmfd_groups = 2;
  std::optional<TransportState<Exec>> allocated_state;
  const std::vector<std::string> labels = allocations_during([&] { allocated_state.emplace(allocate_transport_state(exec, n)); });
  const auto& state = *allocated_state;
  const double scores = cmfd_tally_values(n.cmfd_mesh, n.cmfd_groups) * sizeof(Fixed);
  // The copies carry keff's names (kernels/scatter_sums.hpp), not ScatterView's "duplicated_...".
  for (const auto& label : labels) EXPECT_EQ(label.rfind("keff::", 0), 0u) << label;
  const bool named = std::find(labels.begin(), labels.end(), "keff::cmfd::score_flux_per_thread") != labels.end();
  EXPECT_EQ(named, sums_per_thread<Exec::memory_space>);
  const double copies = sums_per_thread<Exec::memory_space> ? exec.concurrency() : 0;
  EXPECT_EQ(state.sum_copies, copies);
  const auto allocated = static_cast<double>(state.bytes());
  EXPECT_GE(allocated, (1 + copies) * scores);
  EXPECT_NEAR(transport_state_bytes(exec, n, 0.0), allocated, 0.02 * allocated + 4096);
}

// With tallies: a copy of their sums per thread on the host (kernels/tally/tally_score.hpp), counted in the
// estimate and labelled keff::, unless the copies together would pass tally_copies_max_bytes.
TEST(ZeroAllocations, StateEstimateCountsTallyCopies) {
  using Exec = Kokkos::DefaultExecutionSpace;
  const Exec exec;
  const double copies = scatter_copies(exec);
  const auto too_many = static_cast<std::int64_t>(tally_copies_max_bytes / sizeof(Fixed) / std::max(copies, 1.0)) + 1;
  for (const std::int64_t values : {std::int64_t{60}, too_many}) {
    TransportStateSizes n;
    n.bank_capacity = 3000;
    n.tally_values = values;
    std::optional<TransportState<Exec>> allocated_state;
    const std::vector<std::string> labels =
        allocations_during([&] { allocated_state.emplace(allocate_transport_state(exec, n)); });
    const auto& state = *allocated_state;
    for (const auto& label : labels) EXPECT_EQ(label.rfind("keff::", 0), 0u) << label;
    const bool per_thread = sums_per_thread<Exec::memory_space> && values < too_many;
    EXPECT_EQ(state.tally_per_thread, per_thread) << values << " values";
    const bool named = std::find(labels.begin(), labels.end(), "keff::state::tally_sums_per_thread") != labels.end();
    EXPECT_EQ(named, per_thread) << values << " values";
    const auto allocated = static_cast<double>(state.bytes());
    EXPECT_GE(allocated, (1 + (per_thread ? copies : 0)) * static_cast<double>(values) * sizeof(Fixed));
    EXPECT_NEAR(transport_state_bytes(exec, n, 0.0), allocated, 0.02 * allocated + 4096) << values << " values";
  }
}

// The same for the source cycle's State (kernels/source_state.hpp).
TEST(ZeroAllocations, SourceStateEstimateIsWhatIsAllocated) {
  SourceStateSizes n;
  n.histories = 1000;
  n.bank_capacity = 3000;
  n.entropy_bins = 81;
  const auto state = allocate_source_state(Kokkos::DefaultExecutionSpace(), n);
  EXPECT_EQ(source_state_bytes(n), static_cast<double>(state.bytes()));
}

#if KEFF_HAVE_CMFD
// CMFD scoring in transport and its window, solve and reweighting between transports, history- and
// event-based.
TEST(ZeroAllocations, Cmfd) {
  for (const bool event : {false, true}) {
    model::Problem p = test::example("cmfd_slab_2g.toml");
    if (event) p = event_based(p, EventSort::none);
    expect_no_allocation_in_transport(p);
  }
}
#endif

}  // namespace
}  // namespace keff
