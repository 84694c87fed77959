#pragma once
// The mutable State of the fission source between batches, owned by the source cycle
// (src/driver/source_cycle.hpp): this rank's share of the batch's source, which the bank exchange fills, the
// bank in (parent, progeny) order with the offsets of each parent's sites, the entropy counts, CMFD
// feedback's source counts and weight factors, and under domain decomposition the sites routed between
// ranks. Made once per run by allocate_source_state();
// the ordered bank grows with the fission bank and the routed buffers grow only, between batches.
#include "kernels/fixed_point.hpp"
#include "kernels/grow_only.hpp"
#include "kernels/vocabulary/site.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace keff {

// What the source State is sized by.
struct SourceStateSizes {
  std::int64_t histories = 0;      // this rank's share of a batch's histories
  std::int64_t bank_capacity = 0;  // the fission bank's first capacity
  int entropy_bins = 1;
  int cmfd_bins = 0;               // CMFD feedback: coarse groups x cells (0 without)
  int populations = 1;             // settings.populations
};

template <class Exec>
struct SourceState {
  using Mem = typename Exec::memory_space;
  template <class T>
  using Buffer = Kokkos::View<T*, Mem>;

  Buffer<Site> source;                  // [histories]: the next batch's sites, as the bank exchange lands them
  Buffer<Site> bank_sorted;             // this rank's fission sites in (parent, progeny) order
  Buffer<std::int64_t> bank_offsets;    // [histories + 1]: first ordered site of each parent
  Buffer<std::int64_t> entropy_counts;  // [entropy bins]
  Buffer<Fixed> cmfd_counts;            // [CMFD bins]: the ordered bank's weight per coarse group and cell
  Buffer<Real> cmfd_factors;            // [CMFD bins]: CMFD feedback's weight factors
  Buffer<std::int64_t> population_starts;  // [populations + 1]: each population's first ordered site, then n
  // Domain decomposition (grow-only, empty otherwise): the source routed to the ranks that track its
  // sites, with their global history indices; the bank routed to the ranks that ran the parents; the
  // destination and index of each site being routed.
  Buffer<Site> domain_source;
  Buffer<std::int64_t> domain_source_index;
  Buffer<Site> routed_bank;
  Buffer<std::int64_t> routed_bank_index;
  Buffer<int> route_dest;
  Buffer<std::int64_t> route_index;

  std::size_t bytes() const {
    const auto b = [](const auto& v) { return v.span() * sizeof(typename std::decay_t<decltype(v)>::value_type); };
    return b(source) + b(bank_sorted) + b(bank_offsets) + b(entropy_counts) + b(cmfd_counts) + b(cmfd_factors) +
           b(population_starts) +
           b(domain_source) + b(domain_source_index) + b(routed_bank) + b(routed_bank_index) + b(route_dest) +
           b(route_index);
  }
};

// What allocate_source_state allocates, before it does (src/host/memory_check.hpp), in doubles.
inline double source_state_bytes(const SourceStateSizes& n) {
  return (static_cast<double>(n.histories) + static_cast<double>(n.bank_capacity)) * sizeof(Site) +
         (static_cast<double>(n.histories) + 1 + n.entropy_bins + n.populations + 1) * sizeof(std::int64_t) +
         static_cast<double>(n.cmfd_bins) * (sizeof(Fixed) + sizeof(Real));
}

template <class Exec>
SourceState<Exec> allocate_source_state(const Exec& exec, const SourceStateSizes& n) {
  using State = SourceState<Exec>;
  const auto make = [&](auto& view, const char* what, std::int64_t size) {
    using View = std::decay_t<decltype(view)>;
    view = View(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string("keff::source::") + what),
                static_cast<std::size_t>(size));
  };
  State s;
  make(s.source, "sites", n.histories);
  make(s.bank_sorted, "bank_sorted", n.bank_capacity);
  make(s.bank_offsets, "bank_offsets", n.histories + 1);
  make(s.entropy_counts, "entropy_counts", n.entropy_bins);
  make(s.cmfd_counts, "cmfd_counts", n.cmfd_bins);
  make(s.cmfd_factors, "cmfd_factors", n.cmfd_bins);
  make(s.population_starts, "population_starts", n.populations + 1);
  return s;
}

// Makes room for `n` ordered sites: the fission bank grew, or domain decomposition routed more sites of
// this rank's parents here than its own bank held. Between batches only.
template <class Exec>
void reserve_sorted_bank(SourceState<Exec>& state, std::int64_t n) {
  reserve_grow_only(state.bank_sorted, n, "keff::source::bank_sorted");
}

}  // namespace keff
