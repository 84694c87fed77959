#pragma once
// Domain decomposition for one run ([domains] in the input): the domain mesh and this rank's place in
// it, the particle exchange that moves particles between domains during transport, and the routing of
// sites between batches. The ranks' even split of the batch's histories stays what it is without
// decomposition (it orders the bank and the comb); only where histories are tracked changes:
//
//   next source (even split) --route_source--> the ranks of the domains that contain the sites
//   transport: particles leaving a domain go to the rank that owns their position (ParticleExchange)
//   fission sites --route_bank--> the ranks that own their parents' histories (even split), then ordered
#include "io/model.hpp"
#include "kernels/domain_mesh.hpp"
#include "kernels/tally_data.hpp"
#include "kernels/vocabulary/site.hpp"
#include "mpi/communicator.hpp"
#include "mpi/particle_exchange.hpp"
#include "mpi/site_router.hpp"
#include "kernels/device.hpp"

#include <cstddef>
#include <cstdint>

namespace keff {

class DomainDecomposition {
 public:
  // Throws InputError when the ranks cannot share the domains evenly.
  DomainDecomposition(const model::Domains& domains, const Communicator& comm, int slots, ParticleExchange::Mode mode);

  const DomainMesh& mesh() const { return mesh_; }
  ParticleExchange& particles() { return particles_; }
  // The ranks of this rank's domain (its replicas).
  MPI_Comm replicas() const { return replicas_.get(); }

  // The bins of `tally` overlapping this rank's domain (edge domains reach the mesh's edges), with a
  // bin of margin.
  MeshWindow tally_window(const MeshSpec& tally) const;

  // Sends sites[0, range.count), the histories range.first + i of the next batch, to the ranks of the
  // domains that contain them. Collective.
  void route_source(const DeviceExec& exec, Kokkos::View<const Site*, DeviceMem> sites, IndexRange range);
  Kokkos::View<const Site*, DeviceMem> source() const { return source_; }
  Kokkos::View<const std::int64_t*, DeviceMem> source_index() const { return source_index_; }
  std::int64_t source_count() const { return source_count_; }

  // Sends the bank's n sites to the ranks that ran their parents (n_histories split evenly over the
  // ranks); returns how many this rank now holds, in bank(). Collective.
  std::int64_t route_bank(const DeviceExec& exec, Kokkos::View<const Site*, DeviceMem> sites, std::int64_t n,
                          std::int64_t n_histories);
  Kokkos::View<const Site*, DeviceMem> bank() const { return bank_; }

  std::int64_t sites_routed() const { return router_.sites_sent(); }
  std::size_t bytes() const;

 private:
  void reserve(std::int64_t n);

  Communicator replicas_;
  DomainMesh mesh_;
  Real upper_[3] = {0, 0, 0};
  SiteRouter router_;
  ParticleExchange particles_;
  Kokkos::View<int*, DeviceMem> dest_;
  Kokkos::View<std::int64_t*, DeviceMem> index_;
  Kokkos::View<Site*, DeviceMem> source_;
  Kokkos::View<std::int64_t*, DeviceMem> source_index_;
  std::int64_t source_count_ = 0;
  Kokkos::View<Site*, DeviceMem> bank_;
  Kokkos::View<std::int64_t*, DeviceMem> bank_index_;
};

}  // namespace keff
