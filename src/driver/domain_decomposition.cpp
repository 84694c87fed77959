#include "src/driver/domain_decomposition.hpp"

#include "io/input/input.hpp"
#include "src/params/build_problem.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace keff {

namespace {

DomainMesh domain_mesh(const model::Domains& d, const Communicator& comm) {
  const int n = d.count();
  if (comm.size() % n != 0) {
    const std::string who = d.where.line > 0 ? d.where.str() + ": domains.mesh" : std::string("--domains");
    throw InputError(who + ": [" + std::to_string(d.mesh[0]) + ", " + std::to_string(d.mesh[1]) +
                     ", " + std::to_string(d.mesh[2]) + "] makes " + std::to_string(n) + " domains, which " +
                     std::to_string(comm.size()) + " rank(s) cannot share evenly (allowed: a rank count that is a "
                     "multiple of " + std::to_string(n) + ")");
  }
  DomainMesh m{make_mesh(model::Mesh{d.box, d.mesh})};
  m.replicas = comm.size() / n;
  m.mine = comm.rank() / m.replicas;
  return m;
}

}  // namespace

DomainDecomposition::DomainDecomposition(const model::Domains& domains, const Communicator& comm, int slots,
                                         ParticleExchange::Mode mode)
    : mesh_(domain_mesh(domains, comm)),
      particles_(comm, mesh_, slots, mode) {}

DomainReport DomainDecomposition::report(const Communicator& comm) const {
  DomainReport d;
  d.mesh = {mesh_.shape[0], mesh_.shape[1], mesh_.shape[2]};
  d.replicas = mesh_.replicas;
  const auto& c = particles_.counters();
  std::int64_t counts[] = {c.particles_sent, c.messages_sent, c.bytes_sent, c.termination_checks, c.confirmations};
  comm.sum(counts, static_cast<int>(std::size(counts)));
  d.particles_sent = counts[0];
  d.messages_sent = counts[1];
  d.bytes_sent = counts[2];
  d.termination_checks = counts[3] / comm.size();
  d.confirmations = counts[4] / comm.size();
  const double local[] = {c.pack_seconds, c.mpi_seconds, c.idle_seconds};
  double lo[3], hi[3], sum[3];
  comm.reduce_min_max_sum(local, 3, lo, hi, sum);
  d.pack = {"pack", lo[0], sum[0] / comm.size(), hi[0]};
  d.mpi = {"mpi", lo[1], sum[1] / comm.size(), hi[1]};
  d.idle = {"idle", lo[2], sum[2] / comm.size(), hi[2]};
  return d;
}

std::unique_ptr<DomainDecomposition> decompose_domains(const model::Problem& problem, const Communicator& comm,
                                                       std::int64_t slots, ExchangeMode mode) {
  if (!problem.domains) return nullptr;
  return std::make_unique<DomainDecomposition>(
      *problem.domains, comm, static_cast<int>(slots),
      mode == ExchangeMode::blocking ? ParticleExchange::Mode::blocking : ParticleExchange::Mode::overlapped);
}

}  // namespace keff
