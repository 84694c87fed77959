#pragma once
// A fission (source) site: where a new neutron is born. Plain data, so a View of sites moves between
// ranks and into files as bytes, and host-only code (statepoints) reads and writes it without Kokkos.
#include "kernels/vocabulary/macros.hpp"
#include "kernels/vocabulary/types.hpp"
#include "kernels/vocabulary/vec3.hpp"

#include <concepts>
#include <cstdint>
#include <type_traits>

namespace keff {

struct Site {
  Vec3 r;
  Vec3 u;
  Real energy = 0;   // eV (continuous energy)
  int group = 0;     // multigroup
  int progeny = 0;   // which of its parent's sites this is
  Real weight = 1;
  std::int64_t parent = 0;  // global index of the parent history in its batch
};

// One list of a site's fields, as f(name, value) in the order a statepoint's /source_bank holds them: its
// writer, reader and checksum (io/output/statepoint.cpp) iterate it, so a new field is declared above
// and named here. S is Site (readers) or const Site (writers). Messages between ranks need no list: they
// move a Site as its bytes (mpi/mpi_type.hpp).
template <class S, class F>
  requires std::same_as<std::remove_const_t<S>, Site>
void for_each_field(S& s, F&& f) {
  f("r", s.r), f("u", s.u), f("energy", s.energy), f("weight", s.weight);
  f("group", s.group), f("parent", s.parent), f("progeny", s.progeny);
}

}  // namespace keff
