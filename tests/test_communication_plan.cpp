// The communication plan at any rank count: items with random destinations, grouped by destination,
// reach their rank exactly once, with the counts and offsets the plan reports, in the documented order
// (by source rank, then in the order the source held them). Also the stable counting sort under it for
// any number of blocks, the staged buffer on the host backend (with and without staging), and the MPI
// datatype of one item.
#include <gtest/gtest.h>

#include "kernels/counting_sort.hpp"
#include "kernels/vocabulary/site.hpp"
#include "mpi/communication_plan.hpp"
#include "mpi/mpi_type.hpp"
#include "mpi/staged_buffer.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace keff {
namespace {

using Exec = DeviceExec;
using Mem = DeviceMem;

enum class Spread { uniform, all_to_first, all_to_self };

// The destinations of rank `source`'s items in one case: every rank can recompute every other rank's.
std::vector<int> destinations(int source, int ranks, std::int64_t n, Spread spread, unsigned seed) {
  std::mt19937_64 rng(seed * 7919u + static_cast<unsigned>(source));
  std::uniform_int_distribution<int> pick(0, ranks - 1);
  std::vector<int> dest(static_cast<std::size_t>(n));
  for (auto& d : dest) d = spread == Spread::uniform ? pick(rng) : spread == Spread::all_to_first ? 0 : source;
  return dest;
}

// Items per rank: uneven, and none at all on rank 1.
std::int64_t items_on(int rank, std::int64_t n) { return rank == 1 ? 0 : n + 17 * rank; }

template <class T>
Kokkos::View<T*, Mem> to_device(const std::vector<T>& v, const std::string& label) {
  Kokkos::View<T*, Mem> d(label, v.size());
  Kokkos::deep_copy(d, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size()));
  return d;
}

template <class View>
auto to_host(const View& v, std::int64_t n) {
  using T = typename View::non_const_value_type;
  std::vector<T> h(static_cast<std::size_t>(n));
  Kokkos::deep_copy(Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(h.data(), h.size()),
                    Kokkos::subview(v, Kokkos::make_pair(std::int64_t(0), n)));
  return h;
}

// v(i) = i: device lambdas live in free functions (nvcc refuses them in a test's private TestBody).
void fill_with_index(const Kokkos::View<int*, Mem>& v, int n) {
  Kokkos::parallel_for("keff::test::fill", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(int i) { v(i) = i; });
  Exec().fence();
}

std::int64_t item_id(int rank, std::int64_t i) { return (static_cast<std::int64_t>(rank) << 32) + i; }

TEST(CommunicationPlan, EveryItemReachesItsRankOnceInOrder) {
  const Communicator comm;
  const int me = comm.rank(), ranks = comm.size();
  CommunicationPlan plan(comm, "keff::test");
  const MpiType<Site> site_type;
  unsigned seed = 1;
  for (const std::int64_t n : {std::int64_t(0), std::int64_t(1), std::int64_t(31), std::int64_t(33),
                               std::int64_t(1000), std::int64_t(40000)}) {
    for (const Spread spread : {Spread::uniform, Spread::all_to_first, Spread::all_to_self}) {
      ++seed;
      const std::string what = "n = " + std::to_string(n) + ", spread " + std::to_string(static_cast<int>(spread));
      const std::int64_t mine = items_on(me, n);
      const auto dest = destinations(me, ranks, mine, spread, seed);
      std::vector<std::int64_t> ids(static_cast<std::size_t>(mine));
      std::vector<Site> sites(static_cast<std::size_t>(mine));
      for (std::int64_t i = 0; i < mine; ++i) {
        ids[static_cast<std::size_t>(i)] = item_id(me, i);
        sites[static_cast<std::size_t>(i)].parent = item_id(me, i);
      }
      plan.build(Exec(), to_device(dest, "keff::test::dest"), mine);

      // Counts and offsets: the histogram of the destinations and its exclusive scan.
      ASSERT_EQ(plan.size(), mine) << what;
      std::vector<int> histogram(static_cast<std::size_t>(ranks), 0);
      for (const int d : dest) ++histogram[static_cast<std::size_t>(d)];
      EXPECT_EQ(plan.counts(), histogram) << what;
      std::vector<int> first(static_cast<std::size_t>(ranks) + 1, 0);
      std::partial_sum(histogram.begin(), histogram.end(), first.begin() + 1);
      EXPECT_EQ(plan.offsets(), first) << what;

      // The steering: each destination's items fill its range in their own order.
      const auto steering = to_host(plan.steering(), mine);
      auto cursor = first;
      for (std::int64_t i = 0; i < mine; ++i) {
        const auto d = static_cast<std::size_t>(dest[static_cast<std::size_t>(i)]);
        ASSERT_EQ(steering[static_cast<std::size_t>(i)], cursor[d]++) << what << ", item " << i;
      }

      // Two payloads scattered by the plan and moved by it.
      Kokkos::View<std::int64_t*, Mem> send_ids("keff::test::send_ids", static_cast<std::size_t>(mine));
      Kokkos::View<Site*, Mem> send_sites("keff::test::send_sites", static_cast<std::size_t>(mine));
      plan.scatter(Exec(), to_device(ids, "keff::test::ids"), send_ids);
      plan.scatter(Exec(), to_device(sites, "keff::test::sites"), send_sites);
      Exec().fence();
      plan.exchange_counts();
      const int total = plan.received();
      Kokkos::View<std::int64_t*, Mem> recv_ids("keff::test::recv_ids", static_cast<std::size_t>(total));
      Kokkos::View<Site*, Mem> recv_sites("keff::test::recv_sites", static_cast<std::size_t>(total));
      const auto host_send_ids = to_host(send_ids, mine);
      const auto host_send_sites = to_host(send_sites, mine);
      std::vector<std::int64_t> got_ids(static_cast<std::size_t>(total));
      std::vector<Site> got_sites(static_cast<std::size_t>(total));
      plan.alltoallv(host_send_ids.data(), got_ids.data(), MPI_INT64_T);
      plan.alltoallv(host_send_sites.data(), got_sites.data(), site_type.get());

      // What this rank must receive: every rank's items bound here, by source rank, in the source's order.
      std::vector<std::int64_t> expected;
      std::vector<int> expected_counts(static_cast<std::size_t>(ranks), 0);
      for (int source = 0; source < ranks; ++source) {
        const auto theirs = destinations(source, ranks, items_on(source, n), spread, seed);
        for (std::size_t i = 0; i < theirs.size(); ++i) {
          if (theirs[i] != me) continue;
          expected.push_back(item_id(source, static_cast<std::int64_t>(i)));
          ++expected_counts[static_cast<std::size_t>(source)];
        }
      }
      EXPECT_EQ(plan.receive_counts(), expected_counts) << what;
      EXPECT_EQ(got_ids, expected) << what;
      for (std::size_t j = 0; j < got_sites.size(); ++j) ASSERT_EQ(got_sites[j].parent, expected[j]) << what;
    }
  }
  plan.clear();
  EXPECT_EQ(plan.size(), 0);
  EXPECT_EQ(plan.counts(), std::vector<int>(static_cast<std::size_t>(ranks), 0));
}

std::mutex allocations_mutex;
std::vector<std::string> allocations;

void on_allocate(const Kokkos::Tools::SpaceHandle, const char* label, const void*, const std::uint64_t) {
  const std::lock_guard<std::mutex> lock(allocations_mutex);
  allocations.emplace_back(label);
}

TEST(CommunicationPlan, AllocatesNothingWithinWhatItReserved) {
  const Communicator comm;
  CommunicationPlan plan(comm, "keff::test");
  const std::int64_t n = 5000;
  plan.reserve(Exec(), n);
  const auto dest = to_device(destinations(comm.rank(), comm.size(), n, Spread::uniform, 99), "keff::test::dest");
  allocations.clear();
  Kokkos::Tools::Experimental::set_allocate_data_callback(on_allocate);
  for (const std::int64_t size : {n, std::int64_t(1), n / 3, std::int64_t(0), n}) plan.build(Exec(), dest, size);
  Kokkos::Tools::Experimental::set_allocate_data_callback(nullptr);
  EXPECT_TRUE(allocations.empty()) << allocations.size() << " allocations, the first '" << allocations.front() << "'";
}

// The positions do not depend on how the items are cut into blocks (which follows the thread count).
TEST(CountingSort, StableForAnyBlockCount) {
  const int n = 1000, n_keys = 5;
  std::vector<int> keys(static_cast<std::size_t>(n));
  std::mt19937 rng(3);
  for (auto& k : keys) k = static_cast<int>(rng() % n_keys);
  const auto device_keys = to_device(keys, "keff::test::keys");
  // Key k starts after every smaller key; equal keys keep their order.
  std::vector<int> offsets(n_keys, 0);
  for (int k = 1; k < n_keys; ++k) {
    offsets[static_cast<std::size_t>(k)] =
        offsets[static_cast<std::size_t>(k) - 1] + static_cast<int>(std::count(keys.begin(), keys.end(), k - 1));
  }
  std::vector<int> expected(n);
  auto cursor = offsets;
  for (int i = 0; i < n; ++i) {
    expected[static_cast<std::size_t>(i)] = cursor[static_cast<std::size_t>(keys[static_cast<std::size_t>(i)])]++;
  }
  for (const int blocks : {1, 2, 3, 7, 32, 999, 1000, 1500}) {
    Kokkos::View<int*, Mem> scratch("keff::test::scratch", static_cast<std::size_t>(n_keys * blocks));
    Kokkos::View<int*, Mem> key_offsets("keff::test::key_offsets", n_keys), position("keff::test::position", n);
    stable_counting_sort(Exec(), Kokkos::View<const int*, Mem>(device_keys), n, n_keys, blocks, scratch, key_offsets,
                         position);
    EXPECT_EQ(to_host(position, n), expected) << blocks << " blocks";
    EXPECT_EQ(to_host(key_offsets, n_keys), offsets) << blocks << " blocks";
  }
  EXPECT_EQ(counting_sort_blocks(Exec(), 0), 1);
  EXPECT_LE(counting_sort_blocks(Exec(), 1 << 20), Exec().concurrency());
}

// Staging on the host backend: the host mirror is a second buffer, copied only in the ranges asked for.
TEST(StagedBuffer, StagesRangesThroughTheHostMirror) {
  StagedBuffer<int, true> b("keff::test::staged");
  b.reserve(10);
  const auto device = b.device();
  ASSERT_GE(device.extent(0), 10u);
  ASSERT_NE(b.data_for_mpi(), device.data());
  fill_with_index(device, 10);
  for (int i = 0; i < 10; ++i) b.data_for_mpi()[i] = -1;
  b.stage_out(Exec(), {2, 5});
  Exec().fence();
  for (int i = 0; i < 10; ++i) EXPECT_EQ(b.data_for_mpi()[i], i >= 2 && i < 7 ? i : -1) << i;
  for (int i = 0; i < 10; ++i) b.data_for_mpi()[i] = 100 + i;
  b.stage_in(Exec(), {6, 3});
  Exec().fence();
  const auto h = to_host(device, 10);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(h[static_cast<std::size_t>(i)], i >= 6 && i < 9 ? 100 + i : i) << i;

  // Grow-only: a smaller reserve keeps both buffers, a larger one grows them by the one rule.
  const int* mpi_side = b.data_for_mpi();
  b.reserve(4);
  EXPECT_EQ(b.device().data(), device.data());
  EXPECT_EQ(b.data_for_mpi(), mpi_side);
  b.reserve(1000);
  EXPECT_EQ(static_cast<std::int64_t>(b.device().extent(0)), grown_capacity(1000));
}

TEST(StagedBuffer, ReceivesIntoAnAttachedView) {
  Kokkos::View<int*, Mem> target("keff::test::target", 8);
  StagedBuffer<int, true> b("keff::test::staged");
  b.attach(target);
  EXPECT_EQ(b.device().data(), target.data());
  for (int i = 0; i < 8; ++i) b.data_for_mpi()[i] = 7 * i;  // as MPI_Recv would
  b.stage_in(Exec(), {0, 8});
  Exec().fence();
  const auto h = to_host(target, 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(h[static_cast<std::size_t>(i)], 7 * i);
  const int owners = target.use_count();
  b.release();
  EXPECT_EQ(target.use_count(), owners - 1);
}

TEST(StagedBuffer, WithoutStagingMpiUsesTheDeviceView) {
  StagedBuffer<int, false> b("keff::test::direct");
  b.reserve(6);
  EXPECT_EQ(b.data_for_mpi(), b.device().data());
  Kokkos::deep_copy(b.device(), 3);
  b.stage_out(Exec(), {0, 6});
  b.stage_in(Exec(), {0, 6});
  Exec().fence();
  for (const int v : to_host(b.device(), 6)) EXPECT_EQ(v, 3);
  // keff's exchanges stage exactly when MPI cannot read device memory.
  EXPECT_EQ(StagedBuffer<int>::staged, !mpi_reads_device);
}

TEST(MpiType, IsOneItem) {
  const MpiType<Site> type;
  int bytes = 0;
  ASSERT_EQ(MPI_Type_size(type.get(), &bytes), MPI_SUCCESS);
  EXPECT_EQ(bytes, static_cast<int>(sizeof(Site)));
}

}  // namespace
}  // namespace keff
