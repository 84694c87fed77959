// The ACE reader (io/library/ace): every law keff supports read back from a table written here; every
// class of corrupt table refused naming the file, the nuclide and the block; the xsdir and the choice of
// temperature; and, where setup made it (KEFF_ACE_LIBRARY), the whole NJOY-made library.
#include "ace_builder.hpp"
#include "io/library/ace/ace_reader.hpp"
#include "io/library/ace/xsdir.hpp"
#include "io/library/data_error.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

namespace keff {
namespace {

using test::AceBuild;
using test::build_ace;

ace::IncidentNeutron read_built(const AceBuild& a) {
  return ace::read_incident_neutron(ace::parse_ace_table(a.text(), "tiny.ace"), "Es250");
}

// The DataError a table gives; "" when it is read.
std::string refusal(const std::string& text) {
  try {
    ace::read_incident_neutron(ace::parse_ace_table(text, "tiny.ace", 1, "", "Es250"), "Es250");
  } catch (const DataError& e) {
    return e.what();
  }
  return "";
}
std::string refusal(const AceBuild& a) { return refusal(a.text()); }

TEST(AceReader, ReadsEveryBlockOfATable) {
  const ace::IncidentNeutron n = read_built(build_ace());
  EXPECT_EQ(n.zaid, "99250.00c");
  EXPECT_DOUBLE_EQ(n.awr, 247.9);
  EXPECT_EQ(n.za, 99250);
  ASSERT_EQ(n.energy.size(), 4u);
  EXPECT_DOUBLE_EQ(n.elastic[2], 3.0);
  ASSERT_EQ(n.reactions.size(), 3u);
  const ace::Reaction& n2n = n.reactions[0];
  EXPECT_EQ(n2n.mt, 16);
  EXPECT_DOUBLE_EQ(n2n.q_value, -6.0);
  EXPECT_EQ(n2n.threshold_index, 2);
  EXPECT_EQ(n2n.multiplicity, 2);
  EXPECT_EQ(n2n.frame, ace::Frame::center_of_mass);
  EXPECT_EQ(n.reactions[1].multiplicity, 19);
  EXPECT_FALSE(n.reactions[2].has_secondaries);
  ASSERT_EQ(n.elastic_angle.tables.size(), 2u);
  EXPECT_EQ(n.elastic_angle.tables[1].form, ace::AngleForm::tabular);
  EXPECT_DOUBLE_EQ(n.elastic_angle.tables[1].cdf.back(), 1.0);
  EXPECT_TRUE(n.nu_prompt.present);
  EXPECT_DOUBLE_EQ(n.nu_prompt.table.y[1], 5.0);
  ASSERT_EQ(n.nu_total.polynomial.size(), 2u);
  EXPECT_DOUBLE_EQ(n.nu_total.polynomial[1], 0.13);
  EXPECT_DOUBLE_EQ(n.nu_delayed.table.y[0], 0.0167);
  ASSERT_EQ(n.delayed_groups.size(), 1u);
  EXPECT_DOUBLE_EQ(n.delayed_groups[0].decay_constant, 0.0127);
  EXPECT_EQ(n.delayed_groups[0].energy[0].kind, ace::EnergyLawKind::continuous_tabular);
  ASSERT_TRUE(n.urr.present);
  EXPECT_EQ(n.urr.bands, 2);
  EXPECT_TRUE(n.urr.factors);
  EXPECT_DOUBLE_EQ(n.urr.at(1, 1, 1), 1.3);  // second energy, total, second band
  EXPECT_TRUE(n.fissile());
}

TEST(AceReader, ReadsEachSupportedLaw) {
  for (int law : {3, 4, 7, 9, 11, 44, 61, 66}) {
    SCOPED_TRACE("law " + std::to_string(law));
    const ace::IncidentNeutron n = read_built(build_ace(law, law));
    const ace::EnergyLaw& l = n.reactions[0].energy.at(0);
    EXPECT_EQ(static_cast<int>(l.kind), law);
    EXPECT_EQ(l.probability.y, (std::vector<double>{1.0, 1.0}));
    switch (law) {
      case 3:
        EXPECT_NEAR(l.level_threshold, 0.5 * 248.9 / 247.9, 1e-12);
        EXPECT_NEAR(l.level_mass_ratio, std::pow(247.9 / 248.9, 2), 1e-12);
        break;
      case 7: case 9: EXPECT_EQ(l.theta.y, (std::vector<double>{1.0, 1.4})); break;
      case 11:
        EXPECT_EQ(l.watt_a.y, (std::vector<double>{0.988, 1.0}));
        EXPECT_EQ(l.watt_b.y, (std::vector<double>{2.249, 2.5}));
        break;
      case 66:
        EXPECT_EQ(l.bodies, 3);
        EXPECT_DOUBLE_EQ(l.total_mass_ratio, 1.5);
        break;
      default:
        ASSERT_EQ(l.outgoing.size(), 2u);
        EXPECT_EQ(l.outgoing[1].energy, (std::vector<double>{0.0, 1.0, 2.0}));
        EXPECT_EQ(l.outgoing[1].cdf, (std::vector<double>{0.0, 0.5, 1.0}));
        if (law == 44) {
          EXPECT_EQ(l.outgoing[0].kalbach_a, (std::vector<double>{1.0, 1.1, 1.2}));
        }
        if (law == 61) {
          ASSERT_EQ(l.outgoing[0].angles.size(), 3u);
          EXPECT_EQ(l.outgoing[0].angles[0].form, ace::AngleForm::isotropic);
          EXPECT_EQ(l.outgoing[0].angles[2].mu, (std::vector<double>{-1.0, 0.0, 1.0}));
        }
    }
  }
}

// Each class of bad table, as a file, a nuclide and a block name it.
TEST(AceReader, RefusesAnUnsupportedLawNamingNuclideMtAndLaw) {
  const std::string e = refusal(build_ace(5));
  EXPECT_NE(e.find("'tiny.ace': nuclide Es250 (99250.00c): DLW, MT 16: energy law 5 (general evaporation) is not supported"),
            std::string::npos) << e;
}

TEST(AceReader, RefusesATruncatedTable) {
  const std::string text = build_ace().text();
  const std::string e = refusal(text.substr(0, text.size() * 2 / 3));
  EXPECT_NE(e.find("'tiny.ace': nuclide Es250 (99250.00c), line "), std::string::npos) << e;
  EXPECT_NE(e.find("truncated: the file ends at XSS("), std::string::npos) << e;
  EXPECT_NE(e.find(", in block "), std::string::npos) << e;
  EXPECT_NE(refusal(text.substr(0, 200)).find("truncated"), std::string::npos);
}

TEST(AceReader, RefusesWrongNxsAndJxs) {
  AceBuild a = build_ace();
  a.nxs[0] += 10;  // XSS longer than the file holds
  EXPECT_NE(refusal(a).find("truncated"), std::string::npos);
  a = build_ace();
  a.nxs[0] -= 10;  // values left over
  a.jxs[21] -= 10;
  EXPECT_NE(refusal(a).find("more values"), std::string::npos) << refusal(a);
  a = build_ace();
  a.jxs[10] = a.nxs[0] + 5;  // DLW past XSS
  EXPECT_NE(refusal(a).find("JXS(11) = "), std::string::npos) << refusal(a);
  a = build_ace();
  a.nxs[2] = 40;  // more energies than the blocks hold: the grid swallows the cross sections
  const std::string e = refusal(a);
  EXPECT_NE(e.find("nuclide Es250 (99250.00c): ESZ: "), std::string::npos) << e;
  a = build_ace();
  a.nxs[3] = 4;  // a fourth reaction that MTR does not hold
  EXPECT_NE(refusal(a).find("nuclide Es250"), std::string::npos);
}

TEST(AceReader, RefusesNaNAndNonNumbers) {
  std::string text = build_ace().text();
  const std::size_t at = text.rfind("E+");  // the last value of XSS
  const std::size_t start = text.rfind(' ', at) + 1;
  std::string nan_text = text;
  nan_text.replace(start, at + 4 - start, "NaN");
  const std::string e = refusal(nan_text);
  EXPECT_NE(e.find("in block DNED: 'NaN' is not a finite number"), std::string::npos) << e;  // the last block
  EXPECT_NE(e.find("'tiny.ace': nuclide Es250 (99250.00c), line "), std::string::npos) << e;
}

TEST(AceReader, RefusesANonMonotonicGrid) {
  AceBuild a = build_ace();
  std::swap(a.xss[1], a.xss[2]);
  const std::string e = refusal(a);
  EXPECT_NE(e.find("ESZ: the energy grid is not ascending: point 3"), std::string::npos) << e;
}

TEST(AceReader, RefusesACdfThatDoesNotEndAtOne) {
  AceBuild a = build_ace();
  a.xss[static_cast<std::size_t>(a.positions["AND.cosines"] + 10 - 1)] = 0.9;
  std::string e = refusal(a);
  EXPECT_NE(e.find("AND, elastic: a cosine table's CDF ends at 0.9, not 1"), std::string::npos) << e;
  a = build_ace(4);
  a.xss[static_cast<std::size_t>(a.positions["DLW"] + a.positions["DLW.16.outgoing"] - 1 + 10 - 1)] = 1.2;
  e = refusal(a);
  EXPECT_NE(e.find("DLW, MT 16: an outgoing table's CDF ends at 1.2, not 1"), std::string::npos) << e;
  a = build_ace();
  a.xss[static_cast<std::size_t>(a.positions["UNR"] + 8 + 1 - 1)] = 0.5;  // first energy, CDF's last band
  e = refusal(a);
  EXPECT_NE(e.find("UNR: the CDF at energy 1 ends at 0.5, not 1"), std::string::npos) << e;
}

TEST(AceReader, RefusesALoopInALawChain) {
  AceBuild a = build_ace(4);
  a.xss[static_cast<std::size_t>(a.positions["DLW"] - 1)] = 1;  // MT 16's first law names itself as next
  EXPECT_NE(refusal(a).find("DLW, MT 16: its chain of energy laws returns to locator 1"), std::string::npos) << refusal(a);
}

TEST(AceReader, ReadsThe2Header) {
  std::string text = build_ace().text();
  const std::size_t second_line = text.find('\n', text.find('\n') + 1) + 1;
  text = "2.0.1 99250.00c keff-test\n247.9 2.53E-08 2026-12-02 2\nfirst comment\nsecond comment\n" +
         text.substr(second_line);
  const ace::AceTable t = ace::parse_ace_table(text, "tiny.ace");
  EXPECT_EQ(t.zaid, "99250.00c");
  EXPECT_DOUBLE_EQ(t.awr, 247.9);
  EXPECT_EQ(t.comment, "first comment\nsecond comment\n");
  EXPECT_EQ(ace::read_incident_neutron(t, "Es250").reactions.size(), 3u);
}

TEST(AceReader, RefusesTheWrongTableAtAnAddress) {
  try {
    ace::parse_ace_table(build_ace().text(), "tiny.ace", 1, "92235.00c");
    FAIL() << "accepted";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("the table here is 99250.00c, not 92235.00c"), std::string::npos) << e.what();
  }
}

TEST(Xsdir, ReadsEntriesAndChoosesTheNearestTemperature) {
  const std::string text =
      "datapath=/data/ace\n"
      "atomic weight ratios\n"
      "   92235 233.0248\n"
      "directory\n"
      "92235.00c 233.024800 u235.ace 0 1 1 855061 0 0 2.530E-08 ptable\n"
      "92235.01c 233.024800 /abs/u235_600.ace 0 1 1 855061 0 0 +\n"
      "    5.170E-08\n"
      "1001.20t 0.999167 lwtr.20t 0 1 1 100 0 0 2.530E-08\n";
  const ace::Xsdir x = ace::parse_xsdir(text, "/lib/xsdir");
  ASSERT_EQ(x.entries.size(), 3u);
  EXPECT_EQ(x.entries[0].file, "/data/ace/u235.ace");
  EXPECT_EQ(x.entries[1].file, "/abs/u235_600.ace");
  EXPECT_DOUBLE_EQ(x.entries[1].temperature_mev, 5.17e-8);
  EXPECT_FALSE(x.entries[2].neutron());
  EXPECT_EQ(ace::select_table(x, 92235, "U235", 293.6, 10.0).zaid, "92235.00c");
  EXPECT_EQ(ace::select_table(x, 92235, "U235", 590.0, 10.0).zaid, "92235.01c");
  try {
    ace::select_table(x, 92235, "U235", 900.0, 10.0);
    FAIL() << "accepted";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("no table of U235 within 10 K of 900.0 K (the library holds 92235.00c at 293.6 K, 92235.01c at 600.0 K)"),
              std::string::npos) << e.what();
  }
  EXPECT_THROW(ace::select_table(x, 8016, "O16", 293.6, 10.0), DataError);
  EXPECT_THROW(ace::parse_xsdir("no directory here\n", "x"), DataError);
  EXPECT_THROW(ace::parse_xsdir("directory\n92235.00c 233 u.ace 0 1 0 9\n", "x"), DataError);  // address 0
}

TEST(Xsdir, NamesAndZa) {
  EXPECT_EQ(ace::za_of_name("U235"), 92235);
  EXPECT_EQ(ace::za_of_name("H1"), 1001);
  EXPECT_EQ(ace::za_of_name("Zr90"), 40090);
  EXPECT_EQ(ace::za_of_name("FP017"), 0);
  EXPECT_EQ(ace::za_of_name("water"), 0);
  EXPECT_EQ(ace::name_of_za(94241), "Pu241");
}

#ifdef KEFF_ACE_LIBRARY
// The library setup made with NJOY from ../shared/data/endf: every table read and checked, and what
// the evaluations are known to hold (the thermal values as OpenMC 0.16 reads the same U-235 table).
TEST(AceLibrary, EveryTableOfTheNjoyLibraryIsRead) {
  const ace::Xsdir x = ace::read_xsdir(KEFF_ACE_LIBRARY);
  int read = 0;
  for (const ace::XsdirEntry& e : x.entries) {
    if (!e.neutron()) continue;
    SCOPED_TRACE(e.zaid);
    const ace::IncidentNeutron n =
        ace::read_incident_neutron(ace::read_ace_table(e.file, e.address, e.zaid), ace::name_of_za(e.za));
    EXPECT_NEAR(n.temperature_mev / ace::boltzmann_mev_per_k, 293.6, 0.5);
    ++read;
    if (n.name == "U235") {
      EXPECT_EQ(n.energy.size(), 76514u);
      EXPECT_EQ(n.delayed_groups.size(), 6u);
      EXPECT_TRUE(n.urr.present);
      ASSERT_NE(n.find(16), nullptr);
      EXPECT_EQ(n.find(16)->energy.at(0).kind, ace::EnergyLawKind::kalbach_mann);
      EXPECT_EQ(n.find(51)->energy.at(0).kind, ace::EnergyLawKind::level_scattering);
    }
    if (n.name == "Pu241") {
      EXPECT_EQ(n.find(18)->energy.at(0).kind, ace::EnergyLawKind::maxwell_fission);
    }
  }
  EXPECT_EQ(read, 7);
}
#endif

}  // namespace
}  // namespace keff
