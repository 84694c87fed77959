#pragma once
// Test helpers for CMFD: coarse meshes, and tallies written on the host from cross sections, fluxes and
// currents, as the transport kernels would tally them.
#include "kernels/cmfd_data.hpp"
#include "kernels/device.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace keff::test {

// A mesh of nx x ny x nz cells of the given widths, lower corner at the origin.
inline CmfdMesh cmfd_mesh(int nx, int ny, int nz, Real hx, Real hy, Real hz, std::vector<Real> albedo) {
  const Real lower[3] = {0, 0, 0};
  const Real upper[3] = {nx * hx, ny * hy, nz * hz};
  const int shape[3] = {nx, ny, nz};
  return make_cmfd_mesh(lower, upper, shape, albedo.data());
}

// Macroscopic data of one cell: total, scattering [from][to] and production [from][to] (chi included).
struct CellXs {
  std::vector<Real> total;
  std::vector<std::vector<Real>> scatter;
  std::vector<std::vector<Real>> nu_fission;
};

// Device tallies and their host mirrors: fill the mirrors (set_cell, set_current or directly), then upload.
// The track-length rates are those a track through each cell's material would score: total, total
// minus the scattering out, and the production.
struct TallyBuilder {
  using Tallies = CmfdTallies<DeviceMem>;
  CmfdMesh mesh;
  int groups;
  Tallies device;
  Tallies::Rates::host_mirror_type flux, total;
  Tallies::Transfers::host_mirror_type scatter, nu_fission;
  Tallies::Currents::host_mirror_type current;

  TallyBuilder(const CmfdMesh& m, int g)
      : mesh(m), groups(g), device(allocate_cmfd_tallies(DeviceExec(), m, g)),
        flux(Kokkos::create_mirror_view(device.flux)), total(Kokkos::create_mirror_view(device.total)),
        scatter(Kokkos::create_mirror_view(device.scatter)), nu_fission(Kokkos::create_mirror_view(device.nu_fission)),
        current(Kokkos::create_mirror_view(device.current)) {}

  // Cell c with cell-average flux phi[g] (per unit volume): rates integrated over the cell.
  void set_cell(int c, const CellXs& xs, const std::vector<Real>& phi) {
    const Real v = mesh.volume();
    for (int g = 0; g < groups; ++g) {
      flux(g, c) = phi[g] * v;
      total(g, c) = xs.total[g] * phi[g] * v;
      for (int h = 0; h < groups; ++h) {
        scatter(g, h, c) = xs.scatter[g][h] * phi[g] * v;
        nu_fission(g, h, c) = xs.nu_fission[g][h] * phi[g] * v;
      }
    }
  }
  // Partial currents per unit area across face f in group g, towards +axis and towards -axis.
  void set_current(int g, int f, Real up, Real down) {
    int idx[3];
    const Real area = mesh.face_area(mesh.face_indices(f, idx));
    current(0, g, f) = up * area;
    current(1, g, f) = down * area;
  }

  const Tallies& upload() {
    const auto track_total = Kokkos::create_mirror_view(device.track_total);
    const auto track_absorption = Kokkos::create_mirror_view(device.track_absorption);
    const auto track_nu_fission = Kokkos::create_mirror_view(device.track_nu_fission);
    for (int g = 0; g < groups; ++g) {
      for (int c = 0; c < mesh.n_cells(); ++c) {
        track_total(g, c) = total(g, c);
        track_absorption(g, c) = total(g, c);
        track_nu_fission(g, c) = 0;
        for (int h = 0; h < groups; ++h) {
          track_absorption(g, c) -= scatter(g, h, c);
          track_nu_fission(g, c) += nu_fission(g, h, c);
        }
      }
    }
    Kokkos::deep_copy(device.track_total, track_total);
    Kokkos::deep_copy(device.track_absorption, track_absorption);
    Kokkos::deep_copy(device.track_nu_fission, track_nu_fission);
    Kokkos::deep_copy(device.flux, flux);
    Kokkos::deep_copy(device.total, total);
    Kokkos::deep_copy(device.scatter, scatter);
    Kokkos::deep_copy(device.nu_fission, nu_fission);
    Kokkos::deep_copy(device.current, current);
    return device;
  }
};

// A device vector's contents on the host.
inline std::vector<Real> to_host(Kokkos::View<const Real*, DeviceMem> v) {
  std::vector<Real> out(v.extent(0));
  Kokkos::deep_copy(Kokkos::View<Real*, Kokkos::HostSpace>(out.data(), out.size()), v);
  return out;
}

}  // namespace keff::test
