#include "io/library/ace/xsdir.hpp"

#include "io/input_file.hpp"
#include "io/library/data_error.hpp"
#include "io/limits.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <sstream>

namespace keff::ace {
namespace {

constexpr std::array<const char*, 118> element_symbols = {
    "H",  "He", "Li", "Be", "B",  "C",  "N",  "O",  "F",  "Ne", "Na", "Mg", "Al", "Si", "P",  "S",  "Cl", "Ar",
    "K",  "Ca", "Sc", "Ti", "V",  "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn", "Ga", "Ge", "As", "Se", "Br", "Kr",
    "Rb", "Sr", "Y",  "Zr", "Nb", "Mo", "Tc", "Ru", "Rh", "Pd", "Ag", "Cd", "In", "Sn", "Sb", "Te", "I",  "Xe",
    "Cs", "Ba", "La", "Ce", "Pr", "Nd", "Pm", "Sm", "Eu", "Gd", "Tb", "Dy", "Ho", "Er", "Tm", "Yb", "Lu", "Hf",
    "Ta", "W",  "Re", "Os", "Ir", "Pt", "Au", "Hg", "Tl", "Pb", "Bi", "Po", "At", "Rn", "Fr", "Ra", "Ac", "Th",
    "Pa", "U",  "Np", "Pu", "Am", "Cm", "Bk", "Cf", "Es", "Fm", "Md", "No", "Lr", "Rf", "Db", "Sg", "Bh", "Hs",
    "Mt", "Ds", "Rg", "Cn", "Nh", "Fl", "Mc", "Lv", "Ts", "Og"};

bool parse_number(const std::string& s, double* v) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return ec == std::errc() && p == s.data() + s.size() && std::isfinite(*v);
}
bool parse_integer(const std::string& s, std::int64_t* v) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return ec == std::errc() && p == s.data() + s.size();
}

std::string kelvin_text(double mev) {
  std::ostringstream s;
  s.precision(1);
  s << std::fixed << mev / boltzmann_mev_per_k << " K";
  return s.str();
}

}  // namespace

int za_of_name(const std::string& name) {
  std::size_t digits = name.find_first_of("0123456789");
  if (digits == 0 || digits == std::string::npos) return 0;
  const std::string symbol = name.substr(0, digits);
  std::int64_t mass = 0;
  if (!parse_integer(name.substr(digits), &mass) || mass < 1 || mass > 300) return 0;
  for (std::size_t z = 0; z < element_symbols.size(); ++z) {
    if (symbol == element_symbols[z]) return static_cast<int>((z + 1) * 1000 + mass);
  }
  return 0;
}

std::string name_of_za(int za) {
  const int z = za / 1000;
  if (z < 1 || z > static_cast<int>(element_symbols.size())) return std::to_string(za);
  return element_symbols[static_cast<std::size_t>(z - 1)] + std::to_string(za % 1000);
}

bool XsdirEntry::neutron() const {
  return zaid.size() > 1 && zaid.back() == 'c';
}

Xsdir parse_xsdir(const std::string& text, const std::string& path) {
  Xsdir x;
  x.path = path;
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  std::filesystem::path datapath = folder;
  std::istringstream in(text);
  std::string line, entry;
  std::int64_t number = 0, entry_line = 0;
  bool in_directory = false;
  auto fail = [&](std::int64_t at, const std::string& what) {
    throw DataError("'" + path + "', line " + std::to_string(at) + ": " + what);
  };
  auto take = [&](const std::string& whole) {
    std::istringstream f(whole);
    std::vector<std::string> w;
    for (std::string s; f >> s;) w.push_back(s);
    if (w.empty()) return;
    if (w.size() < 7) fail(entry_line, "an entry needs at least ZAID, AWR, file, access, type, address and length");
    XsdirEntry e;
    e.zaid = w[0];
    std::int64_t type = 0;
    if (!parse_number(w[1], &e.awr) || e.awr <= 0.0) fail(entry_line, w[0] + ": AWR '" + w[1] + "' is not a positive number");
    if (!parse_integer(w[4], &type) || type < 1 || type > 2) fail(entry_line, w[0] + ": type '" + w[4] + "' (allowed: 1 or 2)");
    e.type = static_cast<int>(type);
    if (!parse_integer(w[5], &e.address) || e.address < 1) fail(entry_line, w[0] + ": address '" + w[5] + "' is not a positive integer");
    if (w.size() > 9 && (!parse_number(w[9], &e.temperature_mev) || e.temperature_mev < 0.0)) {
      fail(entry_line, w[0] + ": temperature '" + w[9] + "' is not a non-negative number (kT in MeV)");
    }
    const std::filesystem::path file(w[2]);
    e.file = (file.is_absolute() ? file : datapath / file).lexically_normal().string();
    std::int64_t za = 0;
    if (parse_integer(w[0].substr(0, w[0].find('.')), &za)) e.za = static_cast<int>(za);
    x.entries.push_back(std::move(e));
  };
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!in_directory) {
      std::string lower = line;
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
      const std::size_t start = lower.find_first_not_of(" \t");
      if (start != std::string::npos && lower.compare(start, 9, "datapath=") == 0) {
        std::string value = line.substr(start + 9);
        value.erase(value.find_last_not_of(" \t") + 1);
        datapath = std::filesystem::path(value).is_absolute() ? std::filesystem::path(value) : folder / value;
      } else if (start != std::string::npos && lower.compare(start, 9, "directory") == 0) {
        in_directory = true;
      }
      continue;
    }
    if (entry.empty()) entry_line = number;
    const std::size_t last = line.find_last_not_of(" \t");
    if (last != std::string::npos && line[last] == '+') {
      entry += line.substr(0, last) + " ";
      continue;
    }
    take(entry + line);
    entry.clear();
  }
  if (!entry.empty()) fail(entry_line, "the last entry continues ('+') past the end of the file");
  if (!in_directory) fail(number, "no 'directory' line: this is not an xsdir");
  return x;
}

Xsdir read_xsdir(const std::string& path) {
  try {
    return parse_xsdir(read_regular_file(path, limits::max_xsdir_bytes), path);
  } catch (const InputFileError& e) {
    throw DataError("cannot read the ACE library's xsdir: " + std::string(e.what()));
  }
}

const XsdirEntry& select_table(const Xsdir& xsdir, int za, const std::string& nuclide, double temperature_k,
                               double tolerance_k) {
  const XsdirEntry* best = nullptr;
  std::string held;
  const double kt = temperature_k * boltzmann_mev_per_k;
  for (const XsdirEntry& e : xsdir.entries) {
    if (e.za != za || !e.neutron()) continue;
    held += (held.empty() ? "" : ", ") + e.zaid + " at " + kelvin_text(e.temperature_mev);
    if (!best || std::fabs(e.temperature_mev - kt) < std::fabs(best->temperature_mev - kt)) best = &e;
  }
  if (!best) {
    throw DataError("'" + xsdir.path + "': the ACE library has no neutron table of " + nuclide + " (ZA " + std::to_string(za) + ")");
  }
  if (std::fabs(best->temperature_mev - kt) > tolerance_k * boltzmann_mev_per_k) {
    std::ostringstream want;
    want << "no table of " << nuclide << " within " << tolerance_k << " K of ";
    want.precision(1);
    want << std::fixed << temperature_k << " K";
    throw DataError("'" + xsdir.path + "': " + want.str() + " (the library holds " + held + ")");
  }
  if (best->type != 1) {
    throw DataError("'" + xsdir.path + "': " + best->zaid + " is a type-" + std::to_string(best->type) +
                    " (binary) table; keff reads type-1 (ASCII) ACE tables");
  }
  return *best;
}

}  // namespace keff::ace
