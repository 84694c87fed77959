#include "src/domain_decomposition.hpp"

#include "io/input.hpp"
#include "kernels/domain_routing.hpp"
#include "kernels/grow_only.hpp"

#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace keff {

namespace {

DomainMesh make_mesh(const model::Domains& d, const Communicator& comm) {
  const int n = d.count();
  if (comm.size() % n != 0) {
    const std::string who = d.where.line > 0 ? d.where.str() + ": domains.mesh" : std::string("--domains");
    throw InputError(who + ": [" + std::to_string(d.mesh[0]) + ", " + std::to_string(d.mesh[1]) +
                     ", " + std::to_string(d.mesh[2]) + "] makes " + std::to_string(n) + " domains, which " +
                     std::to_string(comm.size()) + " rank(s) cannot share evenly (allowed: a rank count that is a "
                     "multiple of " + std::to_string(n) + ")");
  }
  DomainMesh m;
  for (int a = 0; a < 3; ++a) {
    m.lower[a] = d.box.lower[static_cast<std::size_t>(a)];
    m.shape[a] = d.mesh[static_cast<std::size_t>(a)];
    m.inv_width[a] = m.shape[a] / (d.box.upper[static_cast<std::size_t>(a)] - d.box.lower[static_cast<std::size_t>(a)]);
  }
  m.replicas = comm.size() / n;
  m.mine = comm.rank() / m.replicas;
  return m;
}

}  // namespace

DomainDecomposition::DomainDecomposition(const model::Domains& domains, const Communicator& comm, int slots,
                                         ParticleExchange::Mode mode)
    : replicas_(comm, comm.rank() / std::max(1, comm.size() / domains.count())),
      mesh_(make_mesh(domains, comm)),
      router_(comm),
      particles_(comm, mesh_, slots, mode) {
  for (int a = 0; a < 3; ++a) upper_[a] = domains.box.upper[static_cast<std::size_t>(a)];
}

MeshWindow DomainDecomposition::tally_window(const MeshSpec& tally) const {
  MeshWindow w;
  int at[3];
  at[0] = mesh_.mine % mesh_.shape[0];
  at[1] = (mesh_.mine / mesh_.shape[0]) % mesh_.shape[1];
  at[2] = mesh_.mine / (mesh_.shape[0] * mesh_.shape[1]);
  for (int a = 0; a < 3; ++a) {
    const double width = 1.0 / mesh_.inv_width[a];
    // The domain's extent on this axis; edge domains own everything beyond the box too.
    const double lo = at[a] == 0 ? -std::numeric_limits<double>::infinity() : mesh_.lower[a] + at[a] * width;
    const double hi = at[a] == mesh_.shape[a] - 1 ? std::numeric_limits<double>::infinity()
                                                   : mesh_.lower[a] + (at[a] + 1) * width;
    const auto bin = [&](double x) {
      const double f = std::floor((x - tally.lower[a]) * tally.inv_width[a]);
      return static_cast<int>(std::clamp(f, -1.0, static_cast<double>(tally.shape[a])));
    };
    const int first = std::max(0, bin(lo) - 1);
    const int last = std::min(tally.shape[a] - 1, bin(hi) + 1);
    w.lower[a] = first;
    w.shape[a] = std::max(0, last - first + 1);
  }
  return w;
}

void DomainDecomposition::reserve(std::int64_t n) {
  reserve_grow_only(dest_, n, "keff::domains::dest");
  reserve_grow_only(index_, n, "keff::domains::index");
}

void DomainDecomposition::route_source(const DeviceExec& exec, Kokkos::View<const Site*, DeviceMem> sites,
                                       IndexRange range) {
  Kokkos::Profiling::ScopedRegion region("keff::domains::route_source");
  reserve(range.count);
  source_destinations(exec, sites, range, mesh_, dest_, index_);
  source_count_ = router_.route(exec, sites, index_, dest_, range.count, source_, source_index_);
}

std::int64_t DomainDecomposition::route_bank(const DeviceExec& exec, Kokkos::View<const Site*, DeviceMem> sites,
                                             std::int64_t n, std::int64_t n_histories) {
  Kokkos::Profiling::ScopedRegion region("keff::domains::route_bank");
  reserve(n);
  bank_destinations(exec, sites, n, n_histories, particles_.domains().replicas * particles_.domains().n_domains(), dest_,
                    index_);
  return router_.route(exec, sites, index_, dest_, n, bank_, bank_index_);
}

std::size_t DomainDecomposition::bytes() const {
  return dest_.span() * sizeof(int) + (index_.span() + source_index_.span() + bank_index_.span()) * sizeof(std::int64_t) +
         (source_.span() + bank_.span()) * sizeof(Site);
}

}  // namespace keff
