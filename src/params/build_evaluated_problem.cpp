#include "src/params/build_evaluated_problem.hpp"

#include "io/input/input.hpp"
#include "io/library/ace/ace_reader.hpp"
#include "io/library/ace/xsdir.hpp"
#include "io/library/data_error.hpp"
#include "src/params/build_nuclide_tables.hpp"
#include "src/params/build_nuclear_data.hpp"

#include <map>

namespace keff {

EvaluatedProblemData build_evaluated_problem(const DeviceExec& exec, const model::Problem& problem) {
  const model::NuclearDataSpec& nd = problem.nuclear_data;
  const ace::Xsdir xsdir = ace::read_xsdir(nd.xsdir);
  NuclideTables tables;
  EvaluatedProblemData out;
  std::map<std::string, int> index_of_zaid;
  const auto resolve = [&](const model::Material& mat, const model::NuclideAmount& a) {
    const std::string at = mat.where.str() + ": material '" + mat.name + "': nuclide '" + a.name + "': ";
    const int za = ace::za_of_name(a.name);
    if (za == 0) throw InputError(at + "not a nuclide name (allowed: an element symbol and a mass number, e.g. U235, H1)");
    const ace::XsdirEntry* entry = nullptr;
    try {
      entry = &ace::select_table(xsdir, za, a.name, mat.temperature, nd.temperature_tolerance);
    } catch (const DataError& e) {
      throw InputError(at + e.what());
    }
    auto [it, added] = index_of_zaid.emplace(entry->zaid, static_cast<int>(out.tables.size()));
    if (added) {
      const ace::IncidentNeutron n =
          ace::read_incident_neutron(ace::read_ace_table(entry->file, entry->address, entry->zaid, a.name), a.name);
      tables.add_nuclide(n);
      out.tables.push_back({a.name, entry->zaid, entry->temperature_mev / ace::boltzmann_mev_per_k, entry->file});
      NuclideData named;
      named.name = a.name;
      named.id = za;
      named.fissile = tables.nuclides.back().fissions > 0;
      out.names.nuclides.push_back(std::move(named));
    }
    return ResolvedNuclide{it->second, tables.nuclides[static_cast<std::size_t>(it->second)].fissions > 0};
  };
  out.materials = build_material_params(exec, problem, resolve);
  out.names.path = nd.xsdir;
  const model::Settings& settings = problem.settings;
  out.data = tables.to_device(exec, settings.energy_grid, settings.hash_bins, "the library '" + nd.xsdir + "'");
  out.bytes = tables.bytes(settings.energy_grid, settings.hash_bins);
  return out;
}

}  // namespace keff
