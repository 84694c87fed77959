// The CMFD tallies' flat layout (kernels/vocabulary/cmfd_layout.hpp), which the restart check reads on
// the host, against the device arrays it describes: each array of CmfdTallies, in for_each_cmfd_array's
// order, starts where the layout says and is as long, on a mesh whose three axes all differ.
#include <gtest/gtest.h>

#include "kernels/cmfd_data.hpp"
#include "kernels/vocabulary/cmfd_layout.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <vector>

namespace keff {
namespace {

TEST(CmfdLayout, OffsetsAreThoseOfTheDeviceArrays) {
  const Real lower[3] = {0, 0, 0}, upper[3] = {4, 3, 2}, albedo[6] = {};
  const int shape[3] = {4, 3, 2};
  const CmfdMesh mesh = make_cmfd_mesh(lower, upper, shape, albedo);
  const int groups = 3;
  const auto tallies = allocate_cmfd_tallies(Kokkos::DefaultHostExecutionSpace(), mesh, groups);
  const CmfdLayout layout = cmfd_layout(groups, {shape[0], shape[1], shape[2]});
  EXPECT_EQ(layout.cells, static_cast<std::size_t>(mesh.n_cells()));
  EXPECT_EQ(layout.faces, static_cast<std::size_t>(mesh.n_faces()));
  std::vector<std::size_t> sizes;
  for_each_cmfd_array([&](const auto& v) { sizes.push_back(v.size()); }, tallies);
  ASSERT_EQ(sizes.size(), static_cast<std::size_t>(cmfd_array_count));
  std::size_t at = 0;
  for (int i = 0; i < cmfd_array_count; ++i) {
    const auto a = static_cast<CmfdArray>(i);
    EXPECT_EQ(layout.offset(a), at) << "array " << i;
    EXPECT_EQ(layout.size(a), sizes[static_cast<std::size_t>(i)]) << "array " << i;
    at += sizes[static_cast<std::size_t>(i)];
  }
  EXPECT_EQ(layout.values(), at);
  EXPECT_EQ(layout.values(), tallies.size());
  EXPECT_EQ(static_cast<double>(layout.values()), cmfd_tally_values(mesh, groups));
}

}  // namespace
}  // namespace keff
