#pragma once
// Evaluated (ACE) nuclides read by io/library/ace, flattened into the records and arrays of
// kernels/neutron/data (EvaluatedParams) on the host and copied to the device once. What a collision
// chooses among is sorted here: elastic, absorption and fission from the grid's columns, and the
// scattering reactions (every reaction with neutrons out that is not fission) as a list.
#include "src/params/flatten_secondaries.hpp"
#include "kernels/neutron/data/evaluated_data.hpp"

namespace keff {

// MT 18 (fission) and its chances: first (19), second (20), third (21), fourth (38).
bool is_fission_mt(int mt);

class EvaluatedTables {
 public:
  // Appends a nuclide and returns its index. Throws DataError, naming the nuclide, the energy and both
  // sums, where its total differs from the sum of its parts by more than sum_tolerance.
  int add_nuclide(const ace::IncidentNeutron& nuclide);
  neutron::EvaluatedParams<DeviceMem> to_device(const DeviceExec& exec) const;
  std::size_t bytes() const;

  // Relative: acer writes 7 significant digits, and the total is its own sum of rounded parts.
  static constexpr double sum_tolerance = 1.0e-4;

  SecondaryTables secondaries;
  std::vector<neutron::EvaluatedNuclideRecord> nuclides;
  std::vector<neutron::EvaluatedPoint> points;
  std::vector<neutron::ReactionRecord> reactions;
  std::vector<neutron::DelayedGroupRecord> groups;
  std::vector<int> grid_hash;  // EvaluatedParams::grid_hash

  // The hash grid's bins over [energy_min_ev, energy_max_ev] (EvaluatedParams::grid_hash).
  static constexpr int hash_bins = 8000;

 private:
  neutron::NuRecord add_nu(const ace::Multiplicity& nu);
  neutron::ReactionRecord add_reaction(const ace::Reaction& r);
  void add_hash(const neutron::EvaluatedNuclideRecord& rec);
  // Each grid point's nu * fission (EvaluatedPoint::nu_fission), from the nuclide's total nu.
  void add_nu_fission(const neutron::EvaluatedNuclideRecord& rec);
};

}  // namespace keff
