#pragma once
// Evaluated data for a problem whose [nuclear_data] reads an ACE library: each material's nuclides are
// resolved through the xsdir at the material's temperature (the nearest table within
// [nuclear_data] temperature_tolerance, refused beyond it), each table is read once on every rank,
// flattened (NuclideTables) and copied to the device, and the materials become lists of
// (table, density).
#include "io/input/model.hpp"
#include "io/library/nuclear_data.hpp"
#include "kernels/device.hpp"
#include "kernels/neutron/data/nuclide_data.hpp"
#include "kernels/xs_data.hpp"

#include <string>
#include <vector>

namespace keff {

// One table a problem uses, as the run header names it.
struct EvaluatedTableUsed {
  std::string name;         // keff's nuclide name, "U235"
  std::string zaid;         // "92235.00c"
  double temperature_k = 0;
  std::string file;
};

struct EvaluatedProblemData {
  neutron::NuclideParams<DeviceMem> data;
  MaterialParams<DeviceMem> materials;
  std::vector<EvaluatedTableUsed> tables;  // in the order of data.nuclides
  // The tables' names and ZAs (no grids), for what checks materials by element (NCrystal's composition).
  NuclideLibrary names;
  std::size_t bytes = 0;                   // of the device data
};

// Throws InputError naming the material (where it is defined) when a nuclide has no table near its
// temperature or is no nuclide name, and DataError naming file, nuclide and block when a table is bad.
EvaluatedProblemData build_evaluated_problem(const DeviceExec& exec, const model::Problem& problem);

}  // namespace keff
