#pragma once
// The sites of a batch's source as they become ready to transport. After an overlapped bank exchange,
// the sites this rank combed itself are ready at once and each slice from another rank once it has
// arrived, so transport starts on what is here while the rest is in flight; histories are keyed by
// their global index, so the order they run in changes nothing.
#include "kernels/device.hpp"
#include "kernels/vocabulary/batch.hpp"
#include "mpi/bank_exchange.hpp"

#include <cstdint>
#include <vector>

namespace keff {

class SourceFeed {
 public:
  explicit SourceFeed(BankExchange& exchange);

  // A batch of `count` sites begins: with the exchange in flight they arrive through it, otherwise all
  // are ready now. Counters restart.
  void reset(std::int64_t count);

  // The next ready sites, at most `max`, as a range of source indices; empty when none is ready (or all
  // were handed out). With `wait`, finishes the exchange first if nothing is ready (the caller has
  // nothing else to do).
  IndexRange take(std::int64_t max, bool wait);
  bool exhausted() const { return handed_out_ == count_; }
  // Sites handed out before the exchange finished on a rank that receives slices of other ranks, over
  // the run: what the overlap gained (none at 1 rank, where nothing is sent).
  std::int64_t taken_early() const { return taken_early_; }
  // Seconds spent in take() waiting for the exchange to finish since reset().
  double wait_seconds() const { return wait_seconds_; }

 private:
  void finish_exchange();

  BankExchange& exchange_;
  std::int64_t count_ = 0;
  std::int64_t handed_out_ = 0;
  std::int64_t taken_early_ = 0;
  double wait_seconds_ = 0;
  std::vector<IndexRange> ready_;
  std::size_t next_ready_ = 0;
};

// The source of one batch as transport sees it: this rank's sites, handed out by `feed` as they land.
struct BatchSource {
  Kokkos::View<const Site*, DeviceMem> sites;
  Kokkos::View<const std::int64_t*, DeviceMem> index;  // each site's global history index; empty: site i
                                                       // is history i of the rank's share of the even split
  std::int64_t count = 0;
  SourceFeed* feed = nullptr;
};

}  // namespace keff
