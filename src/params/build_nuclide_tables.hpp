#pragma once
// Evaluated (ACE) nuclides read by io/library/ace, flattened into the records and arrays of
// kernels/neutron/data (NuclideParams) on the host and copied to the device once. What a collision
// chooses among is sorted here: elastic, absorption and fission from the grid's columns, and the
// scattering reactions (every reaction with neutrons out that is not fission) as a list.
#include "io/library/nuclear_data.hpp"
#include "src/params/flatten_secondaries.hpp"
#include "kernels/neutron/data/nuclide_data.hpp"
#include "kernels/vocabulary/types.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace keff {

// MT 18 (fission) and its chances: first (19), second (20), third (21), fourth (38).
bool is_fission_mt(int mt);

class NuclideTables {
 public:
  // Appends a nuclide and returns its index. Throws DataError, naming the nuclide, the energy and both
  // sums, where its total differs from the sum of its parts by more than sum_tolerance.
  int add_nuclide(const ace::IncidentNeutron& nuclide);
  // Appends a nuclide of the synthetic library (or a library file of that form) and returns its index:
  // elastic scattering isotropic in the centre of mass, capture, and where it is fissile one fission
  // reaction with its nu line and its Watt spectrum (LawTag::fixed_watt). Its grid is built from the
  // library itself (to_device with a grid), not kept here. Tables hold nuclides of one form only.
  int add_synthetic_nuclide(const NuclideData& nuclide);
  // The device tables, their grids searched as `grid` says (settings.energy_grid and hash_bins);
  // `source` names the library in errors.
  neutron::NuclideParams<DeviceMem> to_device(const DeviceExec& exec, EnergyGridKind grid = EnergyGridKind::hash,
                                                int hash_bins = default_hash_bins,
                                                const std::string& source = "the evaluated tables") const;
  // The device tables on a grid built elsewhere: the synthetic library's, from its NuclideLibrary.
  neutron::NuclideParams<DeviceMem> to_device(const DeviceExec& exec, const NuclideGrid<DeviceMem>& grid) const;
  // Of the device tables, with that grid's search structure (the unionized one's upper bound).
  std::size_t bytes(EnergyGridKind grid = EnergyGridKind::hash, int hash_bins = default_hash_bins) const;

  // Relative: acer writes 7 significant digits, and the total is its own sum of rounded parts.
  static constexpr double sum_tolerance = 1.0e-4;

  SecondaryTables secondaries;
  std::vector<neutron::NuclideRecord> nuclides;
  std::vector<int> grid_offsets{0};  // nuclide n's points: [grid_offsets[n], grid_offsets[n + 1])
  std::vector<GridPoint> grid_points;
  std::vector<neutron::EvaluatedColumns> columns;  // beside grid_points
  std::vector<neutron::NuLine> nu_lines;           // synthetic nuclides: one each
  std::vector<neutron::ReactionRecord> reactions;
  std::vector<neutron::DelayedGroupRecord> groups;

  // settings.hash_bins' default, for callers without settings (tests).
  static constexpr int default_hash_bins = 8000;

 private:
  neutron::NuRecord add_nu(const ace::Multiplicity& nu);
  neutron::ReactionRecord add_reaction(const ace::Reaction& r);
  // Each of the last nuclide's grid points' nu * fission (EvaluatedColumns::nu_fission), from its total nu.
  void add_nu_fission(const neutron::NuclideRecord& rec);
};

// The synthetic library (generated, or read from a library file) in the same model: its grids with the
// search `grid` asks for (each nuclide checked as it goes: DataError), and a record per nuclide.
neutron::NuclideParams<DeviceMem> build_synthetic_params(const DeviceExec& exec, const NuclideLibrary& library,
                                                           EnergyGridKind grid, int hash_bins);

}  // namespace keff
