#pragma once
// Domain decomposition for one run ([domains] in the input): the domain mesh and this rank's place in
// it, and the particle exchange that moves particles between domains during transport. The ranks' even
// split of the batch's histories stays what it is without decomposition (it orders the bank and the
// comb); only where histories are tracked changes. Sites move between batches in the source cycle
// (src/driver/source_cycle.hpp):
//
//   next source (even split) --route--> the ranks of the domains that contain the sites
//   transport: particles leaving a domain go to the rank that owns their position (ParticleExchange)
//   fission sites --route--> the ranks that own their parents' histories (even split), then ordered
#include "io/input/model.hpp"
#include "io/output/run_results.hpp"
#include "kernels/device.hpp"
#include "kernels/domain_mesh.hpp"
#include "mpi/communicator.hpp"
#include "mpi/particle_exchange.hpp"
#include "src/driver/run.hpp"

#include <cstdint>
#include <memory>

namespace keff {

class DomainDecomposition {
 public:
  // Throws InputError when the ranks cannot share the domains evenly.
  DomainDecomposition(const model::Domains& domains, const Communicator& comm, int slots, ParticleExchange::Mode mode);

  const DomainMesh& mesh() const { return mesh_; }
  // The router of event-based transport.
  ParticleExchange& particles() { return particles_; }
  const ParticleExchange& particles() const { return particles_; }

  // Collective: the mesh, and what crossed domain borders and the time it took, over ranks.
  DomainReport report(const Communicator& comm) const;

 private:
  DomainMesh mesh_;
  ParticleExchange particles_;
};

// The problem's domains with `slots` event slots per rank, their particles moved as `mode` says; null
// without [domains]. Collective.
std::unique_ptr<DomainDecomposition> decompose_domains(const model::Problem& problem, const Communicator& comm,
                                                       std::int64_t slots, ExchangeMode mode);

}  // namespace keff
