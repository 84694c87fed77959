#pragma once
// Domain decomposition's particle exchange, the router of event-based transport
// (kernels/transport/transport_event.hpp). Particles whose flight ends outside this rank's domain are packed by
// destination and sent while tracking goes on; receives from every other rank are pre-posted and polled
// (MPI_Testsome) once per round, between kernel launches, and arrivals wait in an inbox until slots are
// free. The batch ends when no particle is left anywhere and none is in flight: each rank reports the
// particles it sent, received and still has to do in a non-blocking all-reduce, one after another, and
// when one says "all done" a blocking all-reduce confirms it (every rank then stands in it, so nothing
// can be in flight unnoticed). mpi/README.md explains the protocol.
//
// Overlapped (default): sends leave the round they are packed. Blocking (the benchmark's baseline): a
// bulk-synchronous round trip, every round, of MPI_Alltoall (counts), MPI_Alltoallv (particles) and
// MPI_Allreduce (work left).
#include "kernels/device.hpp"
#include "kernels/domain_mesh.hpp"
#include "kernels/transport/event_leave.hpp"
#include "kernels/transport/particle_slots.hpp"
#include "mpi/communication_plan.hpp"
#include "mpi/communicator.hpp"
#include "mpi/mpi_type.hpp"
#include "mpi/staged_buffer.hpp"

#include <Kokkos_Core.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace keff {

struct ParticleExchangeCounters {
  std::int64_t particles_sent = 0, particles_received = 0;
  std::int64_t messages_sent = 0, messages_received = 0;
  std::int64_t bytes_sent = 0;
  std::int64_t termination_checks = 0, confirmations = 0;
  double pack_seconds = 0;  // packing departures and unpacking arrivals (device work)
  double mpi_seconds = 0;   // inside MPI calls: posting, polling, collectives
  double idle_seconds = 0;  // nothing to do on this rank while the batch goes on elsewhere
};

class ParticleExchange {
 public:
  using Exec = DeviceExec;
  using Mem = DeviceMem;
  enum class Mode { overlapped, blocking };

  // `slots`: the event-based slot count (the most particles that can leave in one round).
  ParticleExchange(const Communicator& comm, const DomainMesh& domains, int slots, Mode mode);
  ~ParticleExchange();
  ParticleExchange(const ParticleExchange&) = delete;
  ParticleExchange& operator=(const ParticleExchange&) = delete;

  // The router calls of transport_events.
  DomainMesh domains() const { return domains_; }
  int arrive(const Exec& exec, const ParticleSlots<Exec>& slots, Kokkos::View<int*, Mem> empty, int n_empty);
  void leave(const Exec& exec, const ParticleSlots<Exec>& slots, Kokkos::View<int*, Mem> queue, int n);
  std::int64_t waiting() const { return inbox_count_; }
  // True once no rank has work left and nothing is in flight, or once some rank asked to `stop` (the batch
  // is then abandoned on every rank, in the same round of the termination protocol).
  bool finished(std::int64_t local_work, bool stop);
  void idle();

  const ParticleExchangeCounters& counters() const { return counters_; }

 private:
  void post_receive(int source);
  void progress();
  void drain(int source);
  void append_to_inbox(std::int64_t first, int count);
  void wait_sends(int buffer);
  void exchange_blocking();
  void reserve_inbox(std::int64_t n);

  Communicator comm_;  // its own duplicate: particle messages never match the bank's
  DomainMesh domains_;
  Mode mode_;
  int chunk_ = 1;      // particles per message
  Exec exec_;
  MpiType<ParticleMessage> message_type_;

  // Departures: where each goes, grouped by destination with the plan, into one of two send buffers,
  // so that one is packed while the other's sends may still be in flight.
  Kokkos::View<int*, Mem> dest_;
  CommunicationPlan plan_;
  std::array<StagedBuffer<ParticleMessage>, 2> send_;
  std::array<std::vector<MPI_Request>, 2> send_requests_;
  int current_ = 0;

  // Arrivals land where MPI writes (one pre-posted receive of up to chunk_ particles per other rank;
  // blocking mode: the round's arrivals) and are copied from there to the end of the device inbox.
  Kokkos::View<ParticleMessage*, MpiMem> recv_;
  std::vector<MPI_Request> recv_requests_;
  std::vector<int> recv_ready_;  // per source: particles received and not yet moved to the inbox (-1: none)
  std::vector<int> done_indices_;
  std::vector<MPI_Status> statuses_;
  Kokkos::View<ParticleMessage*, Mem> inbox_, inbox_spare_;
  std::int64_t inbox_count_ = 0;

  // Termination.
  std::int64_t sent_ = 0, received_ = 0;
  std::array<std::int64_t, 4> snapshot_{}, reduced_{};  // sent, received, work left, ranks asking to stop
  MPI_Request termination_ = MPI_REQUEST_NULL;

  ParticleExchangeCounters counters_;
};

}  // namespace keff
