#pragma once
// The CMFD operators on the device: the loss operator M (leakage + collisions - in-scattering) and the
// production operator F (fission neutrons by group of birth) of the coarse-mesh diffusion eigenproblem
//   M phi = (1/k) F phi,
// as KokkosSparse CRS matrices, built from CmfdTallies. The conventions are written out in
// src/cmfd/README.md; the row of unknown phi(g, c) is g * n_cells + c, rows in balance per unit volume.
//
// M and F share one graph, built once per mesh and group count by count, scan, fill: row (g, c) holds
// the in-cell couplings to every group h of cell c and the six spatial neighbours of c in group g that
// exist in the mesh, columns ascending. Sharing the graph lets the Wielandt shift form M - F / k_s
// entrywise, and ILU(0) factor it once symbolically.
#include "kernels/cmfd_data.hpp"
#include "kernels/device.hpp"

#include <KokkosSparse_CrsMatrix.hpp>

#include <string>

namespace keff {

using CmfdMatrix = KokkosSparse::CrsMatrix<Real, int, Kokkos::Device<DeviceExec, DeviceMem>, void, int>;
using CmfdRowMap = CmfdMatrix::row_map_type::non_const_type;
using CmfdEntries = CmfdMatrix::index_type::non_const_type;
using CmfdVector = Kokkos::View<Real*, DeviceMem>;
using CmfdFaceValues = Kokkos::View<Real**, Kokkos::LayoutRight, DeviceMem>;  // [group][face]
using CmfdRates = Kokkos::View<Real**, Kokkos::LayoutRight, DeviceMem>;       // [group][cell]

namespace detail {
// A zeroed device View labelled keff::cmfd::<what>.
template <class View, class... Extents>
View cmfd_view(const DeviceExec& exec, const std::string& what, Extents... extents) {
  return View(Kokkos::view_alloc(exec, "keff::cmfd::" + what), extents...);
}
}  // namespace detail

// Sums over groups of the analog transfer tallies, per coarse cell, that split the track-length rates
// over outgoing groups (cmfd_operator.cpp): computed once per solve, so that each of the G^2 entries per
// cell costs O(1) and assembly O(G^2 C); summed inside every entry it was O(G^3 C) to O(G^4 C), hours
// for 2000 groups.
struct CmfdTransferSums {
  CmfdRates scattered;  // [g][c]: sum over h of scatter(g, h, c)
  CmfdRates born_from;  // [g][c]: sum over h of nu_fission(g, h, c)
  CmfdRates born_into;  // [h][c]: sum over g of nu_fission(g, h, c)
  CmfdVector born;      // [c]: sum over g and h of nu_fission(g, h, c)
};

struct CmfdOperator {
  CmfdMesh mesh;
  int groups = 0;
  CmfdTransferSums sums;
  CmfdMatrix loss;        // M
  CmfdMatrix production;  // F, on M's graph
  // Coupling coefficients per [group][face], dimensionless (like D / h). Net current per unit area across
  // a face between two active cells, towards +axis: J = -dtilde (phi_upper - phi_lower) + dhat (phi_upper
  // + phi_lower); across a face with one active side, out of that side: J = (dtilde + dhat) phi.
  CmfdFaceValues dtilde;
  CmfdFaceValues dhat;

  int n_rows() const { return groups * mesh.n_cells(); }
};

// A matrix on the graph of M for `groups` groups on `mesh`, its values zero, labelled keff::cmfd::<what>
// (the multigrid's levels, cmfd_multigrid.hpp).
CmfdMatrix allocate_cmfd_matrix(const DeviceExec& exec, const CmfdMesh& mesh, int groups, const std::string& what);

// The graph of M and F for `groups` groups on `mesh`, their value arrays, the coefficient arrays and
// the transfer sums.
CmfdOperator allocate_cmfd_operator(const DeviceExec& exec, const CmfdMesh& mesh, int groups);

// Transfer sums, cross sections, diffusion coefficients, dtilde, dhat (zero unless `use_dhat`) and the
// values of M and F from `tallies`. A (group, cell) without flux or without collisions is left out of the problem: its
// row of M is the identity and of F zero, and its neighbours see an albedo boundary there whose albedo
// is the tallied ratio of partial currents in to out.
void assemble_cmfd_operator(const DeviceExec& exec, const CmfdTallies<DeviceMem>& tallies, bool use_dhat,
                            CmfdOperator& op);

// The tallied flux per unit volume, phi(g * n_cells + c) = flux(g, c) / volume; zero where left out.
void tallied_cmfd_flux(const DeviceExec& exec, const CmfdMesh& mesh, const CmfdTallies<DeviceMem>& tallies,
                       const CmfdVector& phi);

}  // namespace keff
