#pragma once
// Lost particles on the device: how many were lost for each reason, the first of the run on this rank
// (for the message that stops a run past settings.max_lost), and this batch's first few, each with its
// history, place and reason (for the warnings and the JSON summary of a run that goes on). Written only
// when a particle is lost, with atomics; nothing here allocates.
#include "kernels/particle.hpp"
#include "kernels/vocabulary/geometry_faults.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace keff {

// Lost particles a rank describes per batch; more are counted, not described. The host sorts the
// descriptions by history, so the list does not depend on the thread count while a batch loses no more
// than this on a rank.
inline constexpr int lost_list_capacity = 16;

template <class Mem>
struct LostRecord {
  Kokkos::View<int, Mem> recorded;
  Kokkos::View<LostParticle, Mem> first;
  Kokkos::View<std::int64_t[lost_reason_count], Mem> per_reason;
  Kokkos::View<int, Mem> listed;  // this batch's lost particles, described or not (reset every batch)
  Kokkos::View<LostParticle[lost_list_capacity], Mem> list;

  KOKKOS_INLINE_FUNCTION void record(const Particle& p, LostReason reason) const {
    Kokkos::atomic_add(&per_reason(static_cast<int>(reason)), std::int64_t(1));
    const LostParticle l = describe(p, reason);
    if (const int slot = Kokkos::atomic_fetch_add(&listed(), 1); slot < lost_list_capacity) list(slot) = l;
    if (Kokkos::atomic_exchange(&recorded(), 1) == 0) first() = l;
  }

  KOKKOS_INLINE_FUNCTION static LostParticle describe(const Particle& p, LostReason reason) {
    LostParticle l;
    l.history = p.index;
    l.reason = reason;
    l.r = p.r;
    l.u = p.u;
    const GeometryState& g = p.geo;
    const bool located = reason == LostReason::max_events || reason == LostReason::infinite_flight;
    // locate() leaves the level that failed at level[n_levels] (kernels/geometry.hpp).
    const bool failed_level = !located && g.n_levels < max_geometry_levels;
    l.surface = reason == LostReason::after_crossing ? p.hit.surface : -1;
    l.cell = located && g.n_levels > 0 ? g.level[g.n_levels - 1].cell : -1;
    l.universe = failed_level ? g.level[g.n_levels].universe : -1;
    l.lattice = failed_level ? g.level[g.n_levels].lattice : -1;
    return l;
  }
};

template <class Exec>
LostRecord<typename Exec::memory_space> allocate_lost_record(const Exec& exec) {
  using Mem = typename Exec::memory_space;
  const auto alloc = [&](const char* what) { return Kokkos::view_alloc(exec, std::string("keff::state::") + what); };
  return {Kokkos::View<int, Mem>(alloc("lost_flag")), Kokkos::View<LostParticle, Mem>(alloc("lost_first")),
          Kokkos::View<std::int64_t[lost_reason_count], Mem>(alloc("lost_per_reason")),
          Kokkos::View<int, Mem>(alloc("lost_listed")),
          Kokkos::View<LostParticle[lost_list_capacity], Mem>(alloc("lost_list"))};
}

// This rank's record, read back to the host (between batches, for the lost-particle message and
// warnings): the first of the run, the counts per reason and this batch's descriptions.
template <class Exec>
LostParticles read_lost_record(const Exec& exec, const LostRecord<typename Exec::memory_space>& lost) {
  const auto to_host = [&](const auto& v) {
    auto h = Kokkos::create_mirror_view(v);
    Kokkos::deep_copy(exec, h, v);
    return h;
  };
  const auto recorded = to_host(lost.recorded);
  const auto first = to_host(lost.first);
  const auto per_reason = to_host(lost.per_reason);
  const auto listed = to_host(lost.listed);
  const auto list = to_host(lost.list);
  exec.fence("keff::state::read_lost_record");
  LostParticles out;
  out.recorded = recorded() != 0;
  out.first = first();
  for (int i = 0; i < lost_reason_count; ++i) out.per_reason[static_cast<std::size_t>(i)] = per_reason(i);
  for (int i = 0; i < listed() && i < lost_list_capacity; ++i) out.batch.push_back(list(i));
  return out;
}

}  // namespace keff
