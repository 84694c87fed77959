// Whether CMFD was built, in every build: with Kokkos Kernels CMFD is there; without, asking for it
// stops with a message that names Kokkos Kernels and how to get it.
#include <gtest/gtest.h>

#include "src/cmfd/cmfd_support.hpp"

#include <stdexcept>
#include <string>

namespace keff {
namespace {

TEST(CmfdSupport, RequireCmfdMatchesTheBuild) {
  if (cmfd_available) {
    EXPECT_NO_THROW(require_cmfd());
    return;
  }
  try {
    require_cmfd();
    ADD_FAILURE() << "require_cmfd() returned in a build without CMFD";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("without Kokkos Kernels"), std::string::npos) << what;
    EXPECT_NE(what.find("KokkosKernels_ROOT"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace keff
