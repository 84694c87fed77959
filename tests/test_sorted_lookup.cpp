// The sorted-key lookup finds exactly what a std::map finds, for present and absent keys.
#include <gtest/gtest.h>

#include "kernels/sorted_lookup.hpp"
#include "kernels/device.hpp"

#include <map>
#include <random>

namespace keff {
namespace {

using Lookup = SortedLookup<DeviceMem>;

// Kernels live in free functions: CUDA forbids extended lambdas inside a TEST body (a private member).
Kokkos::View<std::int32_t*, DeviceMem> find_all(const Lookup& lookup, Kokkos::View<const std::int64_t*, DeviceMem> queries) {
  Kokkos::View<std::int32_t*, DeviceMem> found("keff::test::found", queries.extent(0));
  Kokkos::parallel_for("keff::test::lookup", Kokkos::RangePolicy<DeviceExec>(0, queries.extent_int(0)),
                       KOKKOS_LAMBDA(int q) { found(q) = lookup.find(queries(q)); });
  return found;
}

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
  auto found_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, find_all(lookup, queries));
  for (int q = 0; q < n_queries; ++q) {
    const auto it = reference.find(queries_host(q));
    EXPECT_EQ(found_host(q), it == reference.end() ? -1 : it->second) << "key " << queries_host(q);
  }
}

TEST(SortedLookup, SingleKey) {
  const DeviceExec exec;
  Kokkos::View<std::int64_t*, DeviceMem> one("one", 1);
  Kokkos::deep_copy(one, 42);
  const auto lookup = make_sorted_lookup(exec, Kokkos::View<const std::int64_t*, DeviceMem>(one), "test");
  Kokkos::View<std::int64_t*, Kokkos::HostSpace> keys("keff::test::keys", 3);
  keys(0) = 42;
  keys(1) = 41;
  keys(2) = 43;
  const auto out = find_all(lookup, Kokkos::create_mirror_view_and_copy(DeviceMem{}, keys));
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, out);
  EXPECT_EQ(h(0), 0);
  EXPECT_EQ(h(1), -1);
  EXPECT_EQ(h(2), -1);
}

TEST(SortedLookup, NoKeys) {
  Kokkos::View<std::int64_t*, DeviceMem> none("none", 0);
  const auto lookup = make_sorted_lookup(DeviceExec(), Kokkos::View<const std::int64_t*, DeviceMem>(none), "test");
  Kokkos::View<std::int64_t*, DeviceMem> keys("keff::test::keys", 2);
  Kokkos::deep_copy(keys, 7);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, find_all(lookup, keys));
  EXPECT_EQ(h(0), -1);
  EXPECT_EQ(h(1), -1);
}

}  // namespace
}  // namespace keff
