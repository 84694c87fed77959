// CmfdAccelerator in a build without Kokkos Kernels: the interface links, and constructing one says why
// it cannot be (src/cmfd/cmfd_support.hpp). The CLI refuses [cmfd] before this; here a caller that builds
// a Simulation itself gets the same message.
#include "src/cmfd/cmfd_accelerator.hpp"

#include "src/cmfd/cmfd_support.hpp"

namespace keff {

struct CmfdAccelerator::Impl {};

CmfdFootprint cmfd_footprint(const model::Cmfd&, const CmfdMesh&, int) { return {}; }

CmfdAccelerator::CmfdAccelerator(const DeviceExec&, const model::Cmfd&, const CmfdMesh&, int, const Communicator&, int,
                                 bool) {
  require_cmfd();
}

CmfdAccelerator::~CmfdAccelerator() = default;

// Never reached: no CmfdAccelerator exists in this build.
CmfdResult CmfdAccelerator::add_batch(const DeviceExec&, int, const CmfdTally<DeviceMem>&) { return {}; }
Kokkos::View<const Real*, DeviceMem> CmfdAccelerator::source() const { return {}; }
CmfdWindowData CmfdAccelerator::window() const { return {}; }
void CmfdAccelerator::restore(const CmfdWindowData&) {}

}  // namespace keff
