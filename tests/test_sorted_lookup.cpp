// The sorted-key lookup finds exactly what a std::map finds, for present and absent keys.
#include <gtest/gtest.h>

#include "kernels/sorted_lookup.hpp"
#include "src/device.hpp"

#include <map>
#include <random>

namespace keff {
namespace {

TEST(SortedLookup, MatchesStdMap) {
  const int n = 5000;
  std::mt19937_64 gen(7);
  std::map<std::int64_t, std::int32_t> reference;
  Kokkos::View<std::int64_t*, Kokkos::HostSpace> ids_host("ids", n);
  for (int i = 0; i < n; ++i) {
    std::int64_t id;
    do { id = static_cast<std::int64_t>(gen() % 1000000); } while (reference.count(id));
    reference[id] = i;
    ids_host(i) = id;
  }
  auto ids = Kokkos::create_mirror_view_and_copy(DeviceMem{}, ids_host);
  const DeviceExec exec;
  const auto lookup = make_sorted_lookup(exec, Kokkos::View<const std::int64_t*, DeviceMem>(ids), "test");

  const int n_queries = 20000;
  Kokkos::View<std::int64_t*, Kokkos::HostSpace> queries_host("queries", n_queries);
  for (int q = 0; q < n_queries; ++q) {
    queries_host(q) = (q % 2 == 0) ? ids_host(static_cast<int>(gen() % n)) : static_cast<std::int64_t>(gen() % 1000100);
  }
  auto queries = Kokkos::create_mirror_view_and_copy(DeviceMem{}, queries_host);
  Kokkos::View<std::int32_t*, DeviceMem> found("found", n_queries);
  Kokkos::parallel_for("test::lookup", Kokkos::RangePolicy<DeviceExec>(exec, 0, n_queries),
                       KOKKOS_LAMBDA(int q) { found(q) = lookup.find(queries(q)); });
  auto found_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, found);
  for (int q = 0; q < n_queries; ++q) {
    const auto it = reference.find(queries_host(q));
    EXPECT_EQ(found_host(q), it == reference.end() ? -1 : it->second) << "key " << queries_host(q);
  }
}

TEST(SortedLookup, EmptyAndSingle) {
  const DeviceExec exec;
  Kokkos::View<std::int64_t*, DeviceMem> one("one", 1);
  Kokkos::deep_copy(one, 42);
  const auto lookup = make_sorted_lookup(exec, Kokkos::View<const std::int64_t*, DeviceMem>(one), "test");
  Kokkos::View<std::int32_t[3], DeviceMem> out("out");
  Kokkos::parallel_for("test::lookup_single", Kokkos::RangePolicy<DeviceExec>(exec, 0, 1), KOKKOS_LAMBDA(int) {
    out(0) = lookup.find(42);
    out(1) = lookup.find(41);
    out(2) = lookup.find(43);
  });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, out);
  EXPECT_EQ(h(0), 0);
  EXPECT_EQ(h(1), -1);
  EXPECT_EQ(h(2), -1);
}

}  // namespace
}  // namespace keff
