// The CMFD operators M and F on the device: graph by count, scan and fill, then per solve the transfer
// sums, the coupling coefficients (one thread per group and face) and the matrix values (one thread per row, each writing
// only its own row: no atomics, the same bits on every run). Conventions: src/cmfd/README.md.
#include "src/cmfd/cmfd_operator.hpp"

#include <string>

namespace keff {
namespace detail {

using CmfdPolicy = Kokkos::RangePolicy<DeviceExec>;

// Whether unknown (g, c) takes part in the CMFD problem: it has flux and collisions. Cells without
// either (outside the core, a void) would give 0/0 cross sections; they are left out. (Collisions are
// the analog count, which min_collisions thresholds; the cross sections come from the track-length
// rates, CmfdTallies::sigma_t and the like.)
KOKKOS_INLINE_FUNCTION bool cmfd_active(const CmfdTallies<DeviceMem>& t, int g, int c) {
  return t.flux(g, c) > 0 && t.total(g, c) > 0;
}

// One entry of a row: the in-cell coupling to group `group` (>= 0), or the spatial neighbour across the
// lower (side 0) or upper (side 1) face of the row's cell along `axis` (group < 0).
struct CmfdEntry {
  int group = -1;
  int axis = 0;
  int side = 0;
};

// Visits the entries of row (g, c) in ascending column order: in-cell groups below g, the lower
// neighbours (-z, -y, -x), the diagonal, the upper neighbours (+x, +y, +z), in-cell groups above g.
// The graph kernel and the value kernel both walk rows with it, so they cannot disagree.
template <class Visit>
KOKKOS_INLINE_FUNCTION void for_each_row_entry(const CmfdMesh& mesh, int groups, int g, int c, Visit&& visit) {
  const int n = mesh.n_cells();
  const int row = g * n + c;
  int idx[3];
  mesh.cell_indices(c, idx);
  for (int h = 0; h < g; ++h) visit(h * n + c, CmfdEntry{h, 0, 0});
  for (int axis = 2; axis >= 0; --axis) {
    if (idx[axis] > 0) visit(row - mesh.cell_stride(axis), CmfdEntry{-1, axis, 0});
  }
  visit(row, CmfdEntry{g, 0, 0});
  for (int axis = 0; axis < 3; ++axis) {
    if (idx[axis] + 1 < mesh.grid.shape[axis]) visit(row + mesh.cell_stride(axis), CmfdEntry{-1, axis, 1});
  }
  for (int h = g + 1; h < groups; ++h) visit(h * n + c, CmfdEntry{h, 0, 0});
}

// The sums over groups of the transfer tallies, each in the order of the loops that summed it inside
// every entry before (so the operator's bits did not change): one thread per (group, cell), then one per
// cell for the double sum.
void sum_cmfd_transfers(const DeviceExec& exec, const CmfdTallies<DeviceMem>& t, const CmfdTransferSums& s) {
  const int groups = t.n_groups();
  const int n = t.n_cells();
  Kokkos::parallel_for(
      "keff::cmfd::transfer_sums", CmfdPolicy(exec, 0, groups * n), KOKKOS_LAMBDA(int i) {
        const int g = i / n;
        const int c = i % n;
        Real scattered = 0, from = 0, into = 0;
        for (int h = 0; h < groups; ++h) {
          scattered += t.scatter(g, h, c);
          from += t.nu_fission(g, h, c);
          into += t.nu_fission(h, g, c);
        }
        s.scattered(g, c) = scattered;
        s.born_from(g, c) = from;
        s.born_into(g, c) = into;
      });
  Kokkos::parallel_for(
      "keff::cmfd::birth_total", CmfdPolicy(exec, 0, n), KOKKOS_LAMBDA(int c) {
        Real born = 0;
        for (int g = 0; g < groups; ++g) {
          for (int h = 0; h < groups; ++h) born += t.nu_fission(g, h, c);
        }
        s.born(c) = born;
      });
}

// Scattering from g into h in c per unit flux: the track-length scattering rate, split over outgoing
// groups as the analog collisions saw it; a neutron not yet seen to scatter there stays in its group.
KOKKOS_INLINE_FUNCTION Real cmfd_sigma_s(const CmfdTallies<DeviceMem>& t, const CmfdTransferSums& s, int g, int h,
                                         int c) {
  const Real scattered = s.scattered(g, c);
  const Real share = scattered > 0 ? t.scatter(g, h, c) / scattered : Real(h == g ? 1 : 0);
  return (t.track_total(g, c) - t.track_absorption(g, c)) / t.flux(g, c) * share;
}

// Neutrons born in h per unit flux of g in c: the track-length production rate, split over groups of
// birth as the sites banked saw it; without a site from g there, as the births in c from every group
// (the fission spectrum hardly depends on the parent); without any, all in the top group.
KOKKOS_INLINE_FUNCTION Real cmfd_nu_sigma_f(const CmfdTallies<DeviceMem>& t, const CmfdTransferSums& s, int g, int h,
                                            int c) {
  const Real from = s.born_from(g, c);
  const Real born = s.born(c);
  const Real share = from > 0   ? t.nu_fission(g, h, c) / from
                     : born > 0 ? s.born_into(h, c) / born
                                : Real(h == 0 ? 1 : 0);
  return t.track_nu_fission(g, c) / t.flux(g, c) * share;
}

// dtilde of a face with albedo alpha beyond it: 2 D (1 - alpha) / (4 D (1 + alpha) + (1 - alpha) h), with
// D = 1 / (3 sigma_t) divided out so that a cell with a small sigma_t needs no large D.
KOKKOS_INLINE_FUNCTION Real albedo_dtilde(Real sigma_t, Real h, Real alpha) {
  return 2 * (1 - alpha) / (4 * (1 + alpha) + 3 * sigma_t * h * (1 - alpha));
}

// Row lengths, their scan into row_map, then the column indices: entries is allocated here, once the
// scan has counted them.
void build_cmfd_graph(const DeviceExec& exec, const CmfdMesh& mesh, int groups, CmfdRowMap row_map,
                      CmfdEntries& entries) {
  const int n = mesh.n_cells();
  const int rows = groups * n;
  Kokkos::parallel_for(
      "keff::cmfd::graph_count", CmfdPolicy(exec, 0, rows), KOKKOS_LAMBDA(int row) {
        int length = 0;
        for_each_row_entry(mesh, groups, row / n, row % n, [&](int, CmfdEntry) { ++length; });
        row_map(row) = length;
      });
  // Exclusive scan in place over rows + 1 entries: row_map(rows) becomes the number of entries.
  Kokkos::parallel_scan(
      "keff::cmfd::graph_scan", CmfdPolicy(exec, 0, rows + 1), KOKKOS_LAMBDA(int i, int& sum, bool final) {
        const int length = i < rows ? row_map(i) : 0;
        if (final) row_map(i) = sum;
        sum += length;
      });
  int nnz = 0;
  Kokkos::deep_copy(exec, Kokkos::View<int, Kokkos::HostSpace>(&nnz), Kokkos::subview(row_map, rows));
  exec.fence();
  entries = cmfd_view<CmfdEntries>(exec, "entries", nnz);
  const auto cols = entries;
  Kokkos::parallel_for(
      "keff::cmfd::graph_fill", CmfdPolicy(exec, 0, rows), KOKKOS_LAMBDA(int row) {
        int p = row_map(row);
        for_each_row_entry(mesh, groups, row / n, row % n, [&](int col, CmfdEntry) { cols(p++) = col; });
      });
}

// dtilde and dhat per group and face.
void compute_cmfd_coefficients(const DeviceExec& exec, const CmfdMesh& mesh, const CmfdTallies<DeviceMem>& t,
                               bool use_dhat, CmfdFaceValues dtilde, CmfdFaceValues dhat) {
  const int faces = mesh.n_faces();
  const int groups = t.n_groups();
  const Real volume = mesh.volume();
  Kokkos::parallel_for(
      "keff::cmfd::coefficients", CmfdPolicy(exec, 0, groups * faces), KOKKOS_LAMBDA(int i) {
        const int g = i / faces;
        const int f = i % faces;
        int idx[3];
        const int axis = mesh.face_indices(f, idx);
        const int k = idx[axis];
        const bool has_lower = k > 0;
        const bool has_upper = k < mesh.grid.shape[axis];
        const int upper = has_upper ? mesh.cell(idx) : -1;
        idx[axis] = k - 1;
        const int lower = has_lower ? mesh.cell(idx) : -1;
        const bool lower_on = has_lower && cmfd_active(t, g, lower);
        const bool upper_on = has_upper && cmfd_active(t, g, upper);
        const Real h = mesh.width(axis);
        const Real area = mesh.face_area(axis);
        const Real j_up = t.current(0, g, f) / area;  // partial currents per unit area
        const Real j_down = t.current(1, g, f) / area;
        Real dt = 0, dh = 0;
        if (lower_on && upper_on) {
          const Real st_lower = t.sigma_t(g, lower);
          const Real st_upper = t.sigma_t(g, upper);
          const Real phi_lower = t.flux(g, lower) / volume;
          const Real phi_upper = t.flux(g, upper) / volume;
          // 2 D_l D_u / (h D_l + h D_u) with D = 1 / (3 sigma_t)
          dt = 2 / (3 * h * (st_lower + st_upper));
          if (use_dhat) {
            const Real j = j_up - j_down;
            dh = (j + dt * (phi_upper - phi_lower)) / (phi_upper + phi_lower);
            // |dhat| > dtilde gives a neighbour coupling of the wrong sign, a source in the loss operator,
            // and from noisy tallies negative fluxes. The same net current at the tallied flux, carried by
            // the upwind cell alone, keeps both couplings non-negative (M an M-matrix).
            if (Kokkos::fabs(dh) > dt) {
              dt = Kokkos::fabs(j) / (2 * (j >= 0 ? phi_lower : phi_upper));
              dh = j >= 0 ? dt : -dt;
            }
          }
        } else if (lower_on || upper_on) {
          const int c = lower_on ? lower : upper;
          const Real j_out = lower_on ? j_up : j_down;
          const Real j_in = lower_on ? j_down : j_up;
          // Beyond the mesh the given albedo; beyond a left-out cell, or a mesh edge whose albedo is
          // cmfd_measured_albedo, the one the tallies measured.
          const bool mesh_edge = lower_on ? !has_upper : !has_lower;
          const Real given = mesh_edge ? mesh.albedo[2 * axis + (lower_on ? 1 : 0)] : Real(cmfd_measured_albedo);
          const Real measured = j_out > 0 ? Kokkos::fmin(j_in / j_out, Real(1)) : Real(0);
          const Real alpha = given >= 0 ? given : measured;
          const Real phi = t.flux(g, c) / volume;
          dt = albedo_dtilde(t.sigma_t(g, c), h, alpha);
          if (use_dhat) {
            dh = (j_out - j_in) / phi - dt;
            // A net current in, as (dtilde + dhat) phi, would be a negative loss on M's diagonal: on
            // C5G7 3-D, 291 diagonals <= 0 and an eigenvalue of M of 1.6e-5, where GMRES stalled. The
            // face passes no current of its own in that group; what comes in returns in other groups
            // (returned_through, below).
            if (dt + dh < 0) dh = -dt;
          }
        }
        dtilde(g, f) = dt;
        dhat(g, f) = dh;
      });
}

// Beyond a face that only cell c of the problem sees (a mesh edge, or a neighbour left out in that
// group), neutrons that leave in one group come back in another: a reflector returns fast neutrons
// thermal. The net current in of group g there (whose own dhat carries none, above) is returned from
// the groups that leave through the face, in proportion to what each sends out, and at most what they
// send out (beyond that, noise: the rest is dropped). So M gains the coupling -returned(g <- h) in its
// in-cell entry, the tallied flux still balances where the face's groups together leave, and every
// column of M keeps a non-negative sum (M stays an M-matrix). This row's share of face `f`, per unit
// volume and unit flux of h, or 0.
KOKKOS_INLINE_FUNCTION Real returned_through(const CmfdMesh& mesh, const CmfdTallies<DeviceMem>& t, int f, int axis,
                                             bool upper_side, int neighbour, int g, int h, int c) {
  const int groups = t.n_groups();
  const Real area = mesh.face_area(axis);
  const Real volume = mesh.volume();
  const auto one_sided = [&](int x) { return cmfd_active(t, x, c) && (neighbour < 0 || !cmfd_active(t, x, neighbour)); };
  const auto net_out = [&](int x) {  // per unit area
    return (upper_side ? t.current(0, x, f) - t.current(1, x, f) : t.current(1, x, f) - t.current(0, x, f)) / area;
  };
  if (!one_sided(g) || !one_sided(h)) return 0;
  const Real in_g = -net_out(g), out_h = net_out(h);
  if (!(in_g > 0) || !(out_h > 0)) return 0;
  Real out = 0, in = 0;
  for (int x = 0; x < groups; ++x) {
    if (!one_sided(x)) continue;
    const Real n = net_out(x);
    if (n > 0) out += n;
    else in -= n;
  }
  const Real scale = in > out ? out / in : Real(1);  // what comes back is at most what left
  return in_g * scale * out_h / out / (t.flux(h, c) / volume) * mesh.grid.inv_width[axis];
}

// The values of M and F, row by row. With dhat, what one-sided faces let in returns through other groups
// (returned_through); without it, each face's leakage is D̃ φ alone.
void fill_cmfd_values(const DeviceExec& exec, const CmfdMesh& mesh, const CmfdTallies<DeviceMem>& t, bool use_dhat,
                      const CmfdOperator& op) {
  const int n = mesh.n_cells();
  const int groups = op.groups;
  const auto row_map = op.loss.graph.row_map;
  const auto m_values = op.loss.values;
  const auto f_values = op.production.values;
  const auto dtilde = op.dtilde;
  const auto dhat = op.dhat;
  const auto sums = op.sums;
  Kokkos::parallel_for(
      "keff::cmfd::values", CmfdPolicy(exec, 0, groups * n), KOKKOS_LAMBDA(int row) {
        const int g = row / n;
        const int c = row % n;
        int p = row_map(row);
        if (!cmfd_active(t, g, c)) {  // left out: phi(g, c) = 0
          for_each_row_entry(mesh, groups, g, c, [&](int col, CmfdEntry) {
            m_values(p) = col == row ? 1 : 0;
            f_values(p++) = 0;
          });
          return;
        }
        int idx[3];
        mesh.cell_indices(c, idx);
        // Leakage out of the cell, per unit volume: its diagonal part over the six faces. The upper face
        // sees the cell as its lower side (J out = J(+axis)); the lower face as its upper side.
        Real leak_diagonal = 0;
        for (int axis = 0; axis < 3; ++axis) {
          const Real inv_h = mesh.grid.inv_width[axis];
          const bool lower_on = idx[axis] > 0 && cmfd_active(t, g, c - mesh.cell_stride(axis));
          const int lower_face = mesh.face(axis, idx);
          ++idx[axis];
          const int upper_face = mesh.face(axis, idx);
          --idx[axis];
          leak_diagonal += (dtilde(g, upper_face) + dhat(g, upper_face)) * inv_h;
          leak_diagonal += (dtilde(g, lower_face) + (lower_on ? -1 : 1) * dhat(g, lower_face)) * inv_h;
        }
        const Real sigma_t = t.sigma_t(g, c);
        for_each_row_entry(mesh, groups, g, c, [&](int col, CmfdEntry e) {
          Real m = 0, f = 0;
          if (e.group >= 0) {  // in-cell: collisions minus scattering from e.group into g; fission neutrons;
            const int h = e.group;  // what other groups return through one-sided faces
            if (cmfd_active(t, h, c)) {
              m = -cmfd_sigma_s(t, sums, h, g, c);
              f = cmfd_nu_sigma_f(t, sums, h, g, c);
              if (use_dhat && h != g) {
                for (int axis = 0; axis < 3; ++axis) {
                  for (int side = 0; side < 2; ++side) {
                    int face_idx[3] = {idx[0], idx[1], idx[2]};
                    face_idx[axis] += side;
                    const bool inside = side ? idx[axis] + 1 < mesh.grid.shape[axis] : idx[axis] > 0;
                    const int neighbour = inside ? c + (side ? 1 : -1) * mesh.cell_stride(axis) : -1;
                    m -= returned_through(mesh, t, mesh.face(axis, face_idx), axis, side == 1, neighbour, g, h, c);
                  }
                }
              }
            }
            if (h == g) m += sigma_t + leak_diagonal;
          } else if (cmfd_active(t, g, col - g * n)) {  // a neighbour in the problem: coupled
            int face_idx[3] = {idx[0], idx[1], idx[2]};
            face_idx[e.axis] += e.side;
            const int face = mesh.face(e.axis, face_idx);
            const Real sign = e.side == 1 ? 1 : -1;  // dhat enters with the sign of the outward direction
            m = (-dtilde(g, face) + sign * dhat(g, face)) * mesh.grid.inv_width[e.axis];
          }
          m_values(p) = m;
          f_values(p++) = f;
        });
      });
}

}  // namespace detail

CmfdMatrix allocate_cmfd_matrix(const DeviceExec& exec, const CmfdMesh& mesh, int groups, const std::string& what) {
  const int rows = groups * mesh.n_cells();
  const auto row_map = detail::cmfd_view<CmfdRowMap>(exec, what + "_row_map", rows + 1);
  CmfdEntries entries;
  detail::build_cmfd_graph(exec, mesh, groups, row_map, entries);
  const auto nnz = static_cast<int>(entries.extent(0));
  return CmfdMatrix("keff::cmfd::" + what, rows, rows, nnz,
                    detail::cmfd_view<CmfdMatrix::values_type>(exec, what + "_values", nnz), row_map, entries);
}

CmfdOperator allocate_cmfd_operator(const DeviceExec& exec, const CmfdMesh& mesh, int groups) {
  Kokkos::Profiling::ScopedRegion region("keff::cmfd::graph");
  const int rows = groups * mesh.n_cells();
  using detail::cmfd_view;
  const auto row_map = cmfd_view<CmfdRowMap>(exec, "row_map", rows + 1);
  CmfdEntries entries;
  detail::build_cmfd_graph(exec, mesh, groups, row_map, entries);
  const auto nnz = static_cast<int>(entries.extent(0));
  using Values = CmfdMatrix::values_type;
  CmfdOperator op;
  op.mesh = mesh;
  op.groups = groups;
  op.loss =
      CmfdMatrix("keff::cmfd::loss", rows, rows, nnz, cmfd_view<Values>(exec, "loss_values", nnz), row_map, entries);
  op.production = CmfdMatrix("keff::cmfd::production", rows, rows, nnz,
                             cmfd_view<Values>(exec, "production_values", nnz), row_map, entries);
  op.dtilde = cmfd_view<CmfdFaceValues>(exec, "dtilde", groups, mesh.n_faces());
  op.dhat = cmfd_view<CmfdFaceValues>(exec, "dhat", groups, mesh.n_faces());
  const int n = mesh.n_cells();
  op.sums = CmfdTransferSums{cmfd_view<CmfdRates>(exec, "scattered", groups, n),
                             cmfd_view<CmfdRates>(exec, "born_from", groups, n),
                             cmfd_view<CmfdRates>(exec, "born_into", groups, n), cmfd_view<CmfdVector>(exec, "born", n)};
  return op;
}

void assemble_cmfd_operator(const DeviceExec& exec, const CmfdTallies<DeviceMem>& tallies, bool use_dhat,
                            CmfdOperator& op) {
  Kokkos::Profiling::ScopedRegion region("keff::cmfd::assemble");
  detail::sum_cmfd_transfers(exec, tallies, op.sums);
  detail::compute_cmfd_coefficients(exec, op.mesh, tallies, use_dhat, op.dtilde, op.dhat);
  detail::fill_cmfd_values(exec, op.mesh, tallies, use_dhat, op);
}

void tallied_cmfd_flux(const DeviceExec& exec, const CmfdMesh& mesh, const CmfdTallies<DeviceMem>& tallies,
                       const CmfdVector& phi) {
  const int n = mesh.n_cells();
  const Real inv_volume = 1 / mesh.volume();
  const auto t = tallies;
  Kokkos::parallel_for(
      "keff::cmfd::tallied_flux", detail::CmfdPolicy(exec, 0, tallies.n_groups() * n), KOKKOS_LAMBDA(int row) {
        const int g = row / n;
        const int c = row % n;
        phi(row) = detail::cmfd_active(t, g, c) ? t.flux(g, c) * inv_volume : 0;
      });
}

}  // namespace keff
