#pragma once
// Fission-bank redistribution, OpenMC's algorithm as a post / progress / finish object: the next
// batch's N source sites are combed from the M sorted bank sites with one shared random number, and
// contiguous slices move between neighbouring ranks with MPI_Irecv (posted first) and MPI_Isend, so
// the batch's reductions and the next batch's transport of the sites already here run while the
// slices are in flight. mpi/README.md explains the steps.
#include "kernels/vocabulary/site.hpp"
#include "kernels/device.hpp"
#include "kernels/source_select.hpp"
#include "mpi/communicator.hpp"
#include "mpi/mpi_type.hpp"
#include "mpi/staged_buffer.hpp"

#include <Kokkos_Core.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <cstdint>
#include <vector>

namespace keff {

// MPI calls made by the exchange, summed over a run (for the communication benchmark).
struct ExchangeCounters {
  std::int64_t exchanges = 0;
  std::int64_t irecv = 0, isend = 0;
  std::int64_t testsome = 0;         // progress() calls that reached MPI
  std::int64_t arrived_early = 0;    // requests completed by progress(), before finish()
  std::int64_t waitall = 0;
  std::int64_t sites_sent = 0;       // to other ranks
};

class BankExchange {
 public:
  using Exec = DeviceExec;
  using Mem = DeviceMem;

  explicit BankExchange(const Communicator& comm);
  ~BankExchange();
  BankExchange(const BankExchange&) = delete;
  BankExchange& operator=(const BankExchange&) = delete;

  // Starts the exchange of one batch. `bank` holds this rank's `local_sites` sites, sorted; ranks hold
  // consecutive parts of the global bank in rank order, which `comb` (the same on every rank) combs into
  // split.total() new sites. The next source's histories are split over ranks by `split` (the driver's
  // own split of the batch); this rank's part lands in `next`, which must stay alive and untouched until
  // finish(). Blocks only in two small collectives. With an empty global bank (comb.m() == 0) nothing is
  // posted (there is nothing to comb from).
  void post(const Exec& exec, Kokkos::View<const Site*, Mem> bank, std::int64_t local_sites,
            Kokkos::View<Site*, Mem> next, const EvenSplit& split, const Comb& comb);
  // Polls the outstanding requests (MPI_Testsome) and unpacks the slices that have arrived. Never
  // blocks. True once nothing is outstanding.
  bool progress();
  // Appends to `ready` the ranges of `next` (indices into it) that have landed since the last call: the
  // part this rank keeps as soon as post() returns, each received slice once it has arrived (this calls
  // progress()), and after finish() whatever is left. Never blocks. Unpacking runs on the exchange's
  // execution space instance, so kernels launched on it afterwards see the sites.
  void take_ready(std::vector<IndexRange>& ready);
  // Waits for the rest, unpacks it and fences: `next` then holds this rank's new source.
  void finish();

  bool in_flight() const { return posted_; }
  // Whether this batch's exchange sends this rank slices of other ranks (never at 1 rank).
  bool receives() const { return receives_; }
  const ExchangeCounters& counters() const { return counters_; }

 private:
  struct Message {
    int peer = 0;
    std::int64_t offset = 0;  // into the send buffer (sends) or the target slice (receives)
    std::int64_t count = 0;
    bool is_receive = false;
    bool unpacked = false;
    bool reported = false;  // handed out by take_ready
  };
  void unpack(const Message& m);

  const Communicator& comm_;
  MpiType<Site> site_type_;
  Exec exec_;
  StagedBuffer<Site> selected_;  // the sites this rank combs, sent from here (grow-only)
  StagedBuffer<Site> next_;      // the caller's `next`, attached from post() to finish()
  IndexRange kept_;            // the part of `next` this rank combed itself
  bool kept_reported_ = true;
  std::vector<std::int64_t> positions_;  // first new-source index each rank produces, then N
  std::vector<Message> messages_;
  std::vector<MPI_Request> requests_;
  std::vector<int> done_indices_;
  std::vector<MPI_Status> statuses_;
  int outstanding_ = 0;
  bool posted_ = false;
  bool receives_ = false;
  ExchangeCounters counters_;
};

// The smallest new-source index i in [0, comb.n()] whose comb.index(i) >= bank_index: where the sites
// combed from bank sites [bank_index, ...) begin. Exact (a bisection over Comb::index itself).
std::int64_t first_combed_from(std::int64_t bank_index, const Comb& comb);

}  // namespace keff
