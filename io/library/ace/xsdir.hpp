#pragma once
// An xsdir: the directory of an ACE library, as MCNP, Serpent and NJOY's acer write it. keff reads the
// incident-neutron ("c" class) entries of its `directory` section:
//   ZAID AWR FILE ACCESS TYPE ADDRESS LENGTH [RECORD ENTRIES TEMPERATURE PTABLE]
// (an entry may continue on lines ending in '+'); an optional `datapath=` line names the folder that
// relative FILEs are in, else they are taken from the xsdir's own folder. Only type-1 (ASCII) tables are
// readable; entries of other types or classes are listed but refused when a material asks for them.
#include <cstdint>
#include <string>
#include <vector>

namespace keff::ace {

struct XsdirEntry {
  std::string zaid;              // "92235.00c"
  int za = 0;                    // 92235
  double awr = 0.0;
  std::string file;              // resolved path
  int type = 1;                  // 1 ASCII, 2 binary
  std::int64_t address = 1;      // type 1: the line the table starts on
  double temperature_mev = 0.0;  // kT
  bool neutron() const;          // a continuous-energy neutron table ("c" or "nc" class)
};

struct Xsdir {
  std::string path;
  std::vector<XsdirEntry> entries;
};

// Reads and checks an xsdir; throws DataError naming the file and line.
Xsdir read_xsdir(const std::string& path);
Xsdir parse_xsdir(const std::string& text, const std::string& path);

// Boltzmann's constant in MeV/K, as NJOY uses it (8.617333262e-11).
inline constexpr double boltzmann_mev_per_k = 8.617333262e-11;

// The neutron table of `za` nearest `temperature_k`, within `tolerance_k`. Throws DataError naming the
// library, the nuclide and the temperatures it holds when there is none.
const XsdirEntry& select_table(const Xsdir& xsdir, int za, const std::string& nuclide, double temperature_k,
                               double tolerance_k);

// ZA of a keff nuclide name ("U235" -> 92235, "H1" -> 1001), or 0 when the name is not an element
// symbol and a mass number.
int za_of_name(const std::string& name);
// The name of a ZA ("U235" for 92235), or its digits for an unknown element.
std::string name_of_za(int za);

}  // namespace keff::ace
