#pragma once
// Small synthetic libraries written to a scratch directory, shared by the nuclear-data library tests.
#include "io/library/nuclear_data.hpp"
#include "io/library/packed_library.hpp"
#include "src/host/synthetic_data.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>

namespace keff::test {

// 14 nuclides (the ten named ones and four fission products) x 700 points: every code path, small files.
inline SyntheticDataSpec small_spec() {
  SyntheticDataSpec spec;
  spec.nuclides = 14;
  spec.gridpoints = 700;
  spec.seed = 4242;
  return spec;
}

// A fresh directory under the build tree for one test executable at one rank count.
inline std::filesystem::path scratch_dir(const std::string& name) {
  const auto dir = std::filesystem::path(KEFF_TEST_SCRATCH) / name;
  return dir;
}

// Equal names, ids, flags and the bits of every double.
inline void expect_identical(const NuclideLibrary& a, const NuclideLibrary& b) {
  ASSERT_EQ(a.nuclides.size(), b.nuclides.size());
  for (std::size_t i = 0; i < a.nuclides.size(); ++i) {
    const NuclideData& x = a.nuclides[i];
    const NuclideData& y = b.nuclides[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.id, y.id);
    EXPECT_EQ(x.fissile, y.fissile);
    for (auto [p, q] : {std::pair{x.awr, y.awr}, std::pair{x.nu0, y.nu0}, std::pair{x.nu1, y.nu1},
                        std::pair{x.watt_a, y.watt_a}, std::pair{x.watt_b, y.watt_b}}) {
      EXPECT_EQ(std::memcmp(&p, &q, sizeof p), 0) << x.name;
    }
    for (auto [u, v] : {std::pair{&x.energy, &y.energy}, std::pair{&x.elastic, &y.elastic},
                        std::pair{&x.capture, &y.capture}, std::pair{&x.fission, &y.fission}}) {
      ASSERT_EQ(u->size(), v->size()) << x.name;
      EXPECT_EQ(std::memcmp(u->data(), v->data(), u->size() * sizeof(double)), 0) << x.name;
    }
  }
  EXPECT_EQ(library_checksum(a), library_checksum(b));
}

}  // namespace keff::test
