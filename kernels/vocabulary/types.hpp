#pragma once
// The scalar type, physical constants and the enumerations that the problem model (io/) and the device
// layouts (kernels/) share, with the names the input and the results give them. No Kokkos: host-only code
// includes this.
#include "kernels/vocabulary/enum_names.hpp"

namespace keff {

using Real = double;

namespace constants {
inline constexpr Real energy_min_ev = 1.0e-5;  // bottom of every continuous-energy grid
inline constexpr Real energy_max_ev = 2.0e7;   // top of every continuous-energy grid
inline constexpr Real pi = 3.14159265358979323846;
inline constexpr Real boltzmann_ev_per_k = 8.617333262e-5;  // CODATA 2018
inline constexpr Real infinity = 1.0e300;      // "no surface ahead"
}  // namespace constants

// Distance (cm) within which a point counts as lying on a surface or lattice wall (kernels/geometry.hpp);
// the input holds a lattice's coordinates to a resolution finer than it (io/limits.hpp).
inline constexpr Real coincident_tolerance = 1e-9;

enum class SurfaceKind : int { x_plane, y_plane, z_plane, plane, sphere, x_cylinder, y_cylinder, z_cylinder };
enum class BoundaryKind : int { transmission, vacuum, reflective };
inline constexpr EnumName<BoundaryKind> boundary_kind_names[] = {
    {BoundaryKind::transmission, "transmission"}, {BoundaryKind::vacuum, "vacuum"}, {BoundaryKind::reflective, "reflective"}};
constexpr std::span<const EnumName<BoundaryKind>> enum_names(BoundaryKind) { return boundary_kind_names; }

enum class FillKind : int { material, universe, lattice };

enum class EnergyGridKind : int { nuclide = 0, hash = 1, unionized = 2 };
inline constexpr EnumName<EnergyGridKind> energy_grid_names[] = {
    {EnergyGridKind::hash, "hash"}, {EnergyGridKind::unionized, "unionized"}, {EnergyGridKind::nuclide, "nuclide"}};
constexpr std::span<const EnumName<EnergyGridKind>> enum_names(EnergyGridKind) { return energy_grid_names; }

// History-based: a thread follows one neutron from birth to death. Event-based: neutrons wait in slots
// and each step (lookup, advance, crossing, collision) runs as its own kernel over a queue of slots.
enum class TransportMode : int { history = 0, event = 1 };
inline constexpr EnumName<TransportMode> transport_mode_names[] = {{TransportMode::history, "history"},
                                                                  {TransportMode::event, "event"}};
constexpr std::span<const EnumName<TransportMode>> enum_names(TransportMode) { return transport_mode_names; }
// Order of the event-based lookup queue: as the slots come, by material, or by material and energy.
enum class EventSort : int { none = 0, material = 1, material_energy = 2 };
inline constexpr EnumName<EventSort> event_sort_names[] = {
    {EventSort::none, "none"}, {EventSort::material, "material"}, {EventSort::material_energy, "material_energy"}};
constexpr std::span<const EnumName<EventSort>> enum_names(EventSort) { return event_sort_names; }
// How the lookup queue is put in that order: keff's counting sort on small integer keys (energy in
// bands; O(n), allocates nothing), or Kokkos' sort_by_key on the continuous key (a comparison sort,
// which allocates temporaries every call; perf/RESULTS.md "Sorting by small integer keys").
enum class EventSorter : int { counting = 0, kokkos = 1 };
inline constexpr EnumName<EventSorter> event_sorter_names[] = {{EventSorter::counting, "counting"},
                                                              {EventSorter::kokkos, "kokkos"}};
constexpr std::span<const EnumName<EventSorter>> enum_names(EventSorter) { return event_sorter_names; }
// What the sort puts in order: the particles themselves, moved into a spare set of slots so that the
// round's kernels read neighbouring slots, or an index to them, which the lookup reads through.
enum class EventReorder : int { particles = 0, index = 1 };
inline constexpr EnumName<EventReorder> event_reorder_names[] = {{EventReorder::particles, "particles"},
                                                                {EventReorder::index, "index"}};
constexpr std::span<const EnumName<EventReorder>> enum_names(EventReorder) { return event_reorder_names; }

// The event lookup queue's order, whole.
struct EventOrder {
  EventSort sort = EventSort::none;
  EventSorter sorter = EventSorter::counting;
  EventReorder reorder = EventReorder::particles;

  constexpr bool sorted() const { return sort != EventSort::none; }
  constexpr bool moves_particles() const { return sorted() && reorder == EventReorder::particles; }
};

// Coefficients per kind (f(r) > 0 is the positive half-space; f is a signed distance):
//   x_plane: {x0}             f = x - x0            (y_plane, z_plane alike)
//   plane:   {a, b, c, d}     f = a x + b y + c z - d, with (a, b, c) normalised by the builder
//   sphere:  {x0, y0, z0, R}  f = |r - r0| - R
//   z_cylinder: {x0, y0, R}   f = sqrt((x-x0)^2 + (y-y0)^2) - R   (x_cylinder: {y0, z0, R}, y_cylinder: {x0, z0, R})
inline constexpr int surface_coeff_count = 4;

// The deepest nesting a problem may use (root, then lattice or universe fills): core -> assembly -> pin
// needs 5 (root cell, core lattice, assembly universe, pin lattice, pin universe).
inline constexpr int max_geometry_levels = 8;

}  // namespace keff
