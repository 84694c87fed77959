#pragma once
// Device layout of materials and of what a lookup gives (Params: built once by src/, read-only in
// kernels); nuclides' data is kernels/neutron/data's.
#include "kernels/vocabulary/types.hpp"

#include <Kokkos_Core.hpp>

namespace keff {

// NCrystal asked directly, on the host (settings.thermal_tables = false): calls into io/thermal, which
// kernels reach only through these pointers and only on the host (kernels/thermal_table.hpp). `self` is
// the host object that holds NCrystal's processes and one cache per (thread, material); `draw` gives
// NCrystal the particle's own uniform numbers in [0, 1).
struct ThermalHostCalls {
  const void* self = nullptr;  // null: the tables are used
  double (*xs)(const void* self, int table, double energy) = nullptr;
  void (*scatter)(const void* self, int table, double energy, double (*draw)(void* rng), void* rng, double* energy_out,
                  double* mu_out) = nullptr;
};

// Bound-atom scattering of NCrystal materials below `cutoff` (kernels/thermal_table.hpp), tabulated on the
// host before transport (io/thermal/ncrystal.hpp), one table per such material, all on one grid of
// incident energies log-spaced from energy(0) to energy(last) = cutoff. At each, the elastic and the
// inelastic cross section and `samples` equally likely outcomes of each: the elastic cosine; the
// inelastic energy change E' - E_i and cosine. With `direct` set there are no tables: NCrystal answers
// each lookup and scatter itself (host backends only).
template <class Mem>
struct ThermalTables {
  Kokkos::View<const int*, Mem> table;                                    // [n_materials]: its table, or -1
  Kokkos::View<const Real*, Mem> energy;                                  // [energies] eV
  Kokkos::View<const Real**, Kokkos::LayoutRight, Mem> xs_elastic;        // [table][energy]: barns per atom
  Kokkos::View<const Real**, Kokkos::LayoutRight, Mem> xs_inelastic;      // [table][energy]: barns per atom
  Kokkos::View<const Real***, Kokkos::LayoutRight, Mem> elastic_mu;       // [table][energy][sample]
  Kokkos::View<const Real***, Kokkos::LayoutRight, Mem> inelastic_shift;  // [table][energy][sample] eV
  Kokkos::View<const Real***, Kokkos::LayoutRight, Mem> inelastic_mu;     // [table][energy][sample]
  ThermalHostCalls direct;
  Real cutoff = 0;        // eV; 0: no table anywhere
  Real log_min = 0;       // log(energy(0))
  Real inv_log_step = 0;  // (energies - 1) / log(cutoff / energy(0))

  KOKKOS_INLINE_FUNCTION int table_of(int material, Real E) const {
    return E < cutoff ? table(material) : -1;
  }
};

// Materials as lists of (nuclide, atom density in atoms/barn-cm).
template <class Mem>
struct MaterialParams {
  Kokkos::View<const int*, Mem> offsets;    // [n_materials + 1]
  Kokkos::View<const int*, Mem> nuclide;
  Kokkos::View<const Real*, Mem> density;
  Kokkos::View<const int*, Mem> fissionable;
  Kokkos::View<const Real*, Mem> kt;        // [n_materials]: k_B T in eV (0: targets at rest)
  ThermalTables<Mem> thermal;               // NCrystal materials' scattering below its cutoff
  int max_nuclides = 0;                     // longest material: size of the per-thread micro-XS cache
};

// Multigroup macroscopic data, group 0 the fastest. Scattering is isotropic.
template <class Mem>
struct MultigroupParams {
  int n_groups = 0;
  Kokkos::View<const Real**, Kokkos::LayoutRight, Mem> sigma_t;     // [material][g]
  Kokkos::View<const Real**, Kokkos::LayoutRight, Mem> sigma_a;
  Kokkos::View<const Real**, Kokkos::LayoutRight, Mem> sigma_f;
  Kokkos::View<const Real**, Kokkos::LayoutRight, Mem> nu_sigma_f;
  Kokkos::View<const Real**, Kokkos::LayoutRight, Mem> chi;
  Kokkos::View<const Real***, Kokkos::LayoutRight, Mem> sigma_s;    // [material][from][to]
  Kokkos::View<const Real**, Kokkos::LayoutRight, Mem> sigma_s_out; // sum over `to`
};

// Macroscopic cross sections of one material at one energy (cm^-1).
struct MacroXs {
  Real total = 0;
  Real absorption = 0;
  Real fission = 0;
  Real nu_fission = 0;
  // Continuous energy: the energy's place in the grid search (NuclideParams::grid_search), which the
  // collision at that energy reuses to look up its nuclide; 0 in multigroup.
  int energy_search = 0;
};

}  // namespace keff
