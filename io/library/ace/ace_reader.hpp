#pragma once
// Reading an incident-neutron ACE table into IncidentNeutron (ace_data.hpp): every block transport uses
// (ESZ, NU, MTR, LQR, TYR, LSIG, SIG, LAND, AND, LDLW, DLW, UNR, DNU, BDD, DNEDL, DNED) is read and
// checked. A block that is wrong (a pointer or a count outside XSS, a non-monotonic grid, a negative
// cross section, a CDF that does not end at 1) or a law keff does not sample is refused with a DataError
// naming the file, the nuclide, the block and, for reaction data, the MT:
//   "'u235.ace': nuclide U235 (92235.00c): DLW, MT 16: energy law 5 (general evaporation) is not supported
//    (supported: 3, 4, 7, 9, 11, 44, 61, 66)"
// Photon-production blocks (GPD, MTRP, ...) are not read: keff transports neutrons only.
#include "io/library/ace/ace_data.hpp"
#include "io/library/ace/ace_table.hpp"

namespace keff::ace {

// `name` is the nuclide's name for messages and for the result (keff's, e.g. "U235").
IncidentNeutron read_incident_neutron(const AceTable& table, const std::string& name);

// How far a CDF's last value may lie from 1: acer writes 7 significant digits and its CDFs are sums.
inline constexpr double cdf_end_tolerance = 1.0e-4;

}  // namespace keff::ace
