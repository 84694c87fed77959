#include "mpi/bank_exchange.hpp"

#include "kernels/source_select.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace keff {

namespace {

// One message per ordered pair of ranks per batch, and at most one exchange in flight: one tag suffices.
constexpr int bank_tag = 4242;

int as_count(std::int64_t n) {
  if (n > std::numeric_limits<int>::max()) throw MpiError("bank exchange: a slice of over 2^31 sites");
  return static_cast<int>(n);
}

}  // namespace

std::int64_t first_combed_from(std::int64_t bank_index, const Comb& comb) {
  // Comb::index is monotone in i (each floating-point step is), so bisection finds the exact boundary
  // the comb kernel will use, with no separate closed form that could round differently.
  std::int64_t lo = 0, hi = comb.n();
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (comb.index(mid) >= bank_index) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

BankExchange::BankExchange(const Communicator& comm)
    : comm_(comm), selected_("keff::bank_exchange::selected"), next_("keff::bank_exchange::next") {
  const auto ranks = static_cast<std::size_t>(comm.size());
  positions_.resize(ranks + 1);
  // At most one receive and one send per peer; reserved once so a batch allocates nothing here.
  messages_.reserve(2 * ranks);
  requests_.reserve(2 * ranks);
  done_indices_.resize(2 * ranks);
  statuses_.resize(2 * ranks);
}

BankExchange::~BankExchange() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  // An exception between post and finish leaves requests behind; cancel them so nothing writes into
  // freed buffers.
  for (std::size_t k = 0; k < requests_.size(); ++k) {
    if (requests_[k] == MPI_REQUEST_NULL) continue;
    if (messages_[k].is_receive) MPI_Cancel(&requests_[k]);
    MPI_Request_free(&requests_[k]);
  }
}

void BankExchange::post(const Exec& exec, Kokkos::View<const Site*, Mem> bank, std::int64_t local_sites,
                        Kokkos::View<Site*, Mem> next, const EvenSplit& split, const Comb& comb) {
  Kokkos::Profiling::ScopedRegion region("keff::bank_exchange::post");
  if (posted_) throw MpiError("bank exchange: post() called before the previous exchange finished");
  exec_ = exec;
  messages_.clear();
  requests_.clear();
  kept_ = {};
  kept_reported_ = true;

  const std::int64_t n_global = split.total();
  if (comb.n() != n_global) throw MpiError("bank exchange: the comb's new source and the split of histories differ");
  const IndexRange target = split.part(comm_.rank());
  if (comb.m() == 0) return;
  // Where this rank's sites sit in the global bank.
  const std::int64_t bank_first = comm_.exclusive_sum(local_sites);

  // Comb the sites this rank's bank contributes: new-source indices [i_lo, i_hi), contiguous because
  // Comb::index is monotone, and the same sites a single rank would pick.
  const std::int64_t i_lo = first_combed_from(bank_first, comb);
  const std::int64_t i_hi = first_combed_from(bank_first + local_sites, comb);
  selected_.reserve(i_hi - i_lo);
  const auto selected = Kokkos::subview(selected_.device(), Kokkos::make_pair(std::int64_t(0), i_hi - i_lo));
  comb_source<Exec, Mem>(exec, bank, bank_first, comb, selected, IndexRange{i_lo, i_hi - i_lo});

  // Every rank learns where every other rank's combed range starts (OpenMC's bank_position).
  check_mpi(MPI_Allgather(&i_lo, 1, MPI_INT64_T, positions_.data(), 1, MPI_INT64_T, comm_.get()), "MPI_Allgather");
  positions_[static_cast<std::size_t>(comm_.size())] = n_global;

  // What moves is contiguous by construction: this rank's combed sites are in new-source order, and
  // each rank's target is one slice of it, so every message is a range of `selected` or of `next` and
  // needs no communication plan (no per-site destination, no permutation).
  const std::int64_t t_lo = target.first, t_hi = target.end();
  next_.attach(next);
  // Receives first, so a send never arrives before its buffer is known.
  for (int s = 0; s < comm_.size(); ++s) {
    const auto us = static_cast<std::size_t>(s);
    const std::int64_t lo = std::max(t_lo, positions_[us]), hi = std::min(t_hi, positions_[us + 1]);
    if (s == comm_.rank() || lo >= hi) continue;
    messages_.push_back({s, lo - t_lo, hi - lo, true, false, false});
    requests_.push_back(MPI_REQUEST_NULL);
    check_mpi(MPI_Irecv(next_.data_for_mpi() + (lo - t_lo), as_count(hi - lo), site_type_.get(), s, bank_tag,
                        comm_.get(), &requests_.back()),
              "MPI_Irecv");
    ++counters_.irecv;
  }

  // The pieces for other ranks, staged if MPI needs them in host memory.
  IndexRange kept{};
  for (int r = 0; r < comm_.size(); ++r) {
    const IndexRange theirs = split.part(r);
    const std::int64_t lo = std::max(i_lo, theirs.first), hi = std::min(i_hi, theirs.end());
    if (lo >= hi) continue;
    if (r == comm_.rank()) {
      kept = {lo, hi - lo};
      continue;
    }
    messages_.push_back({r, lo - i_lo, hi - lo, false, false, true});
    requests_.push_back(MPI_REQUEST_NULL);
    selected_.stage_out(exec, {lo - i_lo, hi - lo});
  }
  exec.fence();  // the comb (and the staging) are complete before MPI reads `selected`
  for (std::size_t k = 0; k < messages_.size(); ++k) {
    const Message& msg = messages_[k];
    if (msg.is_receive) continue;
    check_mpi(MPI_Isend(selected_.data_for_mpi() + msg.offset, as_count(msg.count), site_type_.get(), msg.peer,
                        bank_tag, comm_.get(), &requests_[k]),
              "MPI_Isend");
    ++counters_.isend;
    counters_.sites_sent += msg.count;
  }
  if (kept.count > 0) {  // the part this rank keeps moves without MPI
    const auto from = kept.first - i_lo, to = kept.first - t_lo;
    Kokkos::deep_copy(exec, Kokkos::subview(next, Kokkos::make_pair(to, to + kept.count)),
                      Kokkos::subview(selected, Kokkos::make_pair(from, from + kept.count)));
    kept_ = {to, kept.count};
    kept_reported_ = false;
  }
  outstanding_ = static_cast<int>(requests_.size());
  posted_ = true;
  receives_ = std::any_of(messages_.begin(), messages_.end(), [](const Message& msg) { return msg.is_receive; });
  ++counters_.exchanges;
}

void BankExchange::unpack(const Message& msg) { next_.stage_in(exec_, {msg.offset, msg.count}); }

bool BankExchange::progress() {
  if (!posted_ || outstanding_ == 0) return true;
  int completed = 0;
  check_mpi(MPI_Testsome(static_cast<int>(requests_.size()), requests_.data(), &completed, done_indices_.data(),
                         statuses_.data()),
            "MPI_Testsome");
  ++counters_.testsome;
  if (completed == MPI_UNDEFINED) return true;
  for (int k = 0; k < completed; ++k) {
    Message& msg = messages_[static_cast<std::size_t>(done_indices_[static_cast<std::size_t>(k)])];
    if (msg.is_receive) {
      unpack(msg);
      msg.unpacked = true;
    }
  }
  outstanding_ -= completed;
  counters_.arrived_early += completed;
  return outstanding_ == 0;
}

void BankExchange::take_ready(std::vector<IndexRange>& ready) {
  if (!kept_reported_) {
    ready.push_back(kept_);
    kept_reported_ = true;
  }
  progress();
  for (auto& msg : messages_) {
    if (msg.is_receive && msg.unpacked && !msg.reported) {
      ready.push_back({msg.offset, msg.count});
      msg.reported = true;
    }
  }
}

void BankExchange::finish() {
  Kokkos::Profiling::ScopedRegion region("keff::bank_exchange::finish");
  if (!posted_) return;
  if (outstanding_ > 0) {
    check_mpi(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    ++counters_.waitall;
    outstanding_ = 0;
  }
  for (auto& msg : messages_) {
    if (msg.is_receive && !msg.unpacked) {
      unpack(msg);
      msg.unpacked = true;
    }
  }
  exec_.fence();
  posted_ = false;
  next_.release();
  // Requests are done; receives not yet handed out by take_ready stay reportable until the next post.
}

}  // namespace keff
