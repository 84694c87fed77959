#pragma once
// ACE secondary distributions (io/library/ace's EnergyLaw, AngleDistribution) flattened into the
// records and arrays of kernels/neutron/data: built on the host once, copied to the device once. Energies
// go from ACE's MeV to keff's eV here (and PDFs in E' from per MeV to per eV), so kernels never convert.
#include "io/library/ace/ace_data.hpp"
#include "kernels/device.hpp"
#include "kernels/neutron/data/secondary_data.hpp"

#include <vector>

namespace keff {

class SecondaryTables {
 public:
  // Appends a reaction's or a delayed group's laws; returns the first law's index (count: laws.size()).
  int add_laws(const std::vector<ace::EnergyLaw>& laws);
  // Appends a reaction's cosine distribution; returns its index in angle_distributions.
  int add_angle_distribution(const ace::AngleDistribution& distribution);

  // Appends a TAB1 (x and y scaled: MeV to eV where they are energies); and numbers, returning their offset.
  neutron::Tab1Record add_tab1(const ace::Tab1& f, double x_scale, double y_scale);
  int append(const std::vector<double>& values, double scale);
  // Appends the guide of the CDF of `points` at reals[cdf_offset] to ints, returning its offset, or -1
  // where the CDF is too short to need one (kernels/neutron/data/cdf_search.hpp).
  int add_cdf_guide(int cdf_offset, int points);
  // Appends the guide of the `points` ascending energies at reals[x_offset] to ints, returning its offset,
  // or -1 where they are too few to need one or not positive (kernels/neutron/data/energy_guide.hpp).
  int add_energy_guide(int x_offset, int points);

  neutron::SecondaryParams<DeviceMem> to_device(const DeviceExec& exec) const;
  std::size_t bytes() const;

  std::vector<Real> reals;
  std::vector<int> ints;
  std::vector<neutron::LawRecord> laws;
  std::vector<neutron::OutgoingRecord> outgoing;
  std::vector<neutron::AngleRecord> angles;
  std::vector<neutron::AngleDistributionRecord> angle_distributions;

 private:
  neutron::AngleRecord add_angle(const ace::AngleTable& a);
};

inline constexpr double ev_per_mev = 1.0e6;

}  // namespace keff
