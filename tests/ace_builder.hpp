#pragma once
// A small incident-neutron ACE table written from scratch, for the ACE reader's tests: a fictional
// nuclide (ZA 99250, AWR 247.9) on a 4-point grid with elastic (tabular cosines), (n,2n) in the CM
// frame with the energy law the test chooses, fission with the law the test chooses, prompt and total
// nu, one delayed group and probability tables. `positions` records where a test may reach in to break
// it (XSS indices, 1-based).
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace keff::test {

struct AceBuild {
  std::vector<double> xss;
  std::vector<long long> nxs = std::vector<long long>(16, 0), jxs = std::vector<long long>(32, 0);
  std::map<std::string, long long> positions;
  std::string zaid = "99250.00c";

  std::string text() const {
    std::string s;
    char line[128];
    std::snprintf(line, sizeof line, "%10s%12.6f%12.4E%11s\n", zaid.c_str(), 247.9, 2.53e-8, "12/02/26");
    s += line;
    s += std::string("keff test nuclide") + std::string(53, ' ') + "   mat9999\n";
    for (int i = 0; i < 4; ++i) s += "      0         0.      0         0.      0         0.      0         0.\n";
    auto ints = [&](const std::vector<long long>& v) {
      for (std::size_t i = 0; i < v.size(); ++i) {
        std::snprintf(line, sizeof line, "%9lld", v[i]);
        s += line;
        if (i % 8 == 7) s += "\n";
      }
    };
    ints(nxs);
    ints(jxs);
    for (std::size_t i = 0; i < xss.size(); ++i) {
      std::snprintf(line, sizeof line, "%20.11E", xss[i]);
      s += line;
      if (i % 4 == 3 || i + 1 == xss.size()) s += "\n";
    }
    return s;
  }
};

namespace ace_detail {

inline void append(std::vector<double>& v, std::initializer_list<double> values) { v.insert(v.end(), values); }

// A TAB1 with no interpolation regions (lin-lin): NR=0, NE, x, y.
inline void tab1(std::vector<double>& v, const std::vector<double>& x, const std::vector<double>& y) {
  v.push_back(0);
  v.push_back(static_cast<double>(x.size()));
  v.insert(v.end(), x.begin(), x.end());
  v.insert(v.end(), y.begin(), y.end());
}

// A tabular cosine table (JJ=2, mu -1..1 flat) at the end of `block`; its 1-based locator.
inline long long cosine_table(std::vector<double>& block) {
  const long long at = static_cast<long long>(block.size()) + 1;
  append(block, {2, 3, -1.0, 0.0, 1.0, 0.5, 0.5, 0.5, 0.0, 0.5, 1.0});
  return at;
}

// One energy law record (LNW=0, LAW, IDAT, probability 1) and its data at the end of `block` (a DLW or
// DNED block); the record's 1-based locator.
inline long long law_record(std::vector<double>& block, int law, std::map<std::string, long long>* marks,
                            const std::string& tag) {
  const long long at = static_cast<long long>(block.size()) + 1;
  append(block, {0, static_cast<double>(law), 0});
  tab1(block, {1e-11, 20.0}, {1.0, 1.0});
  block[static_cast<std::size_t>(at + 1)] = static_cast<double>(block.size() + 1);  // IDAT
  switch (law) {
    case 3: append(block, {(248.9 / 247.9) * 0.5, (247.9 / 248.9) * (247.9 / 248.9)}); break;
    // Restriction energy U = -20 MeV, as fission spectra have it: E' up to E + 20 MeV.
    case 7: case 9: tab1(block, {1e-11, 20.0}, {1.0, 1.4}); block.push_back(-20.0); break;
    case 11: tab1(block, {1e-11, 20.0}, {0.988, 1.0}); tab1(block, {1e-11, 20.0}, {2.249, 2.5}); block.push_back(-20.0); break;
    case 66: append(block, {3, 1.5}); break;
    case 4: case 44: case 61: {
      append(block, {0, 2, 1e-11, 20.0, 0, 0});
      const std::size_t locators = block.size() - 2;
      for (int e = 0; e < 2; ++e) {
        block[locators + e] = static_cast<double>(block.size() + 1);
        if (marks && e == 1) (*marks)[tag + ".outgoing"] = static_cast<long long>(block.size() + 1);
        append(block, {2, 3, 0.0, 1.0, 2.0, 0.5, 0.5, 0.5, 0.0, 0.5, 1.0});  // flat on [0, 2] MeV
        if (law == 44) append(block, {0.1, 0.2, 0.3, 1.0, 1.1, 1.2});
        if (law == 61) {
          const std::size_t lc = block.size();
          append(block, {0, 0, 0});
          for (int k = 1; k < 3; ++k) block[lc + k] = static_cast<double>(cosine_table(block));
        }
      }
      break;
    }
    default: append(block, {0, 0, 0, 0}); break;  // a law the reader refuses before its data
  }
  return at;
}

}  // namespace ace_detail

// The table with (n,2n) by `n2n_law` and fission by `fission_law`.
inline AceBuild build_ace(int n2n_law = 44, int fission_law = 11) {
  using namespace ace_detail;
  AceBuild a;
  std::vector<double>& x = a.xss;
  const std::vector<double> grid = {1e-11, 1e-6, 1.0, 20.0};
  const int nes = 4;
  auto jxs = [&](int j) { a.jxs[j - 1] = static_cast<long long>(x.size()) + 1; };
  jxs(1);  // ESZ: energies, total, absorption, elastic, heating
  a.positions["ESZ"] = static_cast<long long>(x.size()) + 1;
  x.insert(x.end(), grid.begin(), grid.end());
  append(x, {11, 8.5, 6, 5});  // elastic + absorption + fission + (n,2n)
  append(x, {6, 3, 2, 2});
  append(x, {4, 4, 3, 2});
  append(x, {1, 1, 1, 1});
  jxs(2);  // NU: prompt (LNU=2 table) then total (LNU=1 polynomial)
  append(x, {-7, 2});
  tab1(x, {1e-11, 20.0}, {2.4, 5.0});
  append(x, {1, 2, 2.42, 0.13});
  // Reactions: MT 16 (n,2n, CM), MT 18 (fission), MT 102 (capture)
  jxs(3); append(x, {16, 18, 102});
  jxs(4); append(x, {-6.0, 180.0, 6.5});
  jxs(5); append(x, {-2, 19, 0});
  jxs(6); append(x, {1, 5, 11});
  jxs(7);
  append(x, {3, 2, 0.0, 0.5});          // MT 16 from the grid's third energy
  append(x, {1, 4, 1, 1.5, 1.0, 0.5});  // MT 18
  append(x, {1, 4, 2, 0.5, 0.5, 0.5});  // MT 102
  jxs(8); append(x, {1, 0, 0});  // LAND: elastic tabular, MT 16 isotropic, MT 18 isotropic
  jxs(9);  // AND: the elastic distribution
  {
    std::vector<double> block = {2, 1e-11, 20.0, 0, 0};
    for (int e = 0; e < 2; ++e) {
      if (e == 1) a.positions["AND.cosines"] = static_cast<long long>(x.size() + block.size()) + 1;
      block[3 + e] = -static_cast<double>(cosine_table(block));
    }
    x.insert(x.end(), block.begin(), block.end());
  }
  std::vector<double> dlw;
  const long long n2n = law_record(dlw, n2n_law, &a.positions, "DLW.16");
  const long long fission = law_record(dlw, fission_law, &a.positions, "DLW.18");
  jxs(10); append(x, {static_cast<double>(n2n), static_cast<double>(fission)});
  a.positions["DLW"] = static_cast<long long>(x.size()) + 1;
  jxs(11); x.insert(x.end(), dlw.begin(), dlw.end());
  jxs(23);  // UNR: 2 energies, 2 bands, lin-lin, ILF -1, IOA -1, factors
  a.positions["UNR"] = static_cast<long long>(x.size()) + 1;
  append(x, {2, 2, 2, -1, -1, 1, 1e-3, 2e-3});
  for (int e = 0; e < 2; ++e) {
    append(x, {0.4, 1.0, 0.8, 1.3, 0.9, 1.2, 0.7, 1.4, 0.6, 1.5, 1.0, 1.0});
  }
  jxs(24); append(x, {2}); tab1(x, {1e-11, 20.0}, {0.0167, 0.01});  // DNU
  jxs(25); append(x, {0.0127}); tab1(x, {1e-11, 20.0}, {1.0, 1.0});  // BDD: one group
  std::vector<double> dned;
  const long long group = law_record(dned, 4, nullptr, "");
  jxs(26); append(x, {static_cast<double>(group)});
  jxs(27); x.insert(x.end(), dned.begin(), dned.end());
  a.nxs[0] = static_cast<long long>(x.size());
  a.nxs[1] = 99250;
  a.nxs[2] = nes;
  a.nxs[3] = 3;
  a.nxs[4] = 2;
  a.nxs[7] = 1;
  a.jxs[21] = static_cast<long long>(x.size());  // END
  return a;
}

}  // namespace keff::test
