// NCrystal-backed thermal scattering (ncrystal.hpp); compiled only where NCrystal was found.
#include "io/thermal/ncrystal.hpp"

#include "io/checksum.hpp"
#include "io/input_file.hpp"
#include "io/limits.hpp"
#include "io/printable.hpp"
#include "kernels/vocabulary/splitmix64.hpp"

#include "NCrystal/NCrystal.hh"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

namespace keff {

namespace {

// NCrystal's notes go to stderr, never into keff's results on stdout.
void route_messages() {
  static std::once_flag once;
  std::call_once(once, [] {
    NCrystal::setMessageHandler([](const char* msg, NCrystal::MsgType type) {
      std::cerr << (type == NCrystal::MsgType::Warning ? "keff: NCrystal warning: " : "keff: NCrystal: ") << msg
                << (type == NCrystal::MsgType::RawOutput ? "" : "\n");
    });
  });
}

// SplitMix64 as NCrystal's random source, so that a table depends on its seed only: uniform in (0, 1].
class TableRng final : public NCrystal::RNG {
 public:
  explicit TableRng(std::uint64_t seed) : state_(seed) {}
  bool coinflip() override { return (next() >> 63) != 0; }
  std::uint64_t generate64RndmBits() override { return next(); }
  std::uint32_t generate32RndmBits() override { return static_cast<std::uint32_t>(next() >> 32); }

 protected:
  double actualGenerate() override { return (static_cast<double>(next() >> 11) + 1.0) * 0x1.0p-53; }

 private:
  std::uint64_t next() { return splitmix64_next(state_); }
  std::uint64_t state_;
};

template <class F>
auto calling_ncrystal(F&& f) -> decltype(f()) {
  route_messages();
  try {
    return f();
  } catch (const NCrystal::Error::Exception& e) {
    throw ThermalError(std::string("NCrystal: ") + e.what());
  }
}

// The particle's stream as NCrystal's RNG: NCrystal wants (0, 1], the stream gives [0, 1).
class ParticleRng final : public NCrystal::RNG {
 public:
  ParticleRng(double (*draw)(void*), void* rng) : draw_(draw), rng_(rng) {}
  bool coinflip() override { return draw_(rng_) < 0.5; }
  std::uint64_t generate64RndmBits() override { return (std::uint64_t{generate32RndmBits()} << 32) | generate32RndmBits(); }
  std::uint32_t generate32RndmBits() override { return static_cast<std::uint32_t>(draw_(rng_) * 4294967296.0); }

 protected:
  double actualGenerate() override { return 1.0 - draw_(rng_); }

 private:
  double (*draw_)(void*);
  void* rng_;
};

std::atomic<std::uint64_t> next_direct_id{1};

}  // namespace

struct NCrystalDirect::Impl {
  std::vector<NCrystal::shared_obj<const NCrystal::ProcImpl::Process>> processes;
  mutable std::vector<std::vector<NCrystal::CachePtr>> caches;  // [thread row][material]
  mutable std::atomic<int> rows_taken{0};
  mutable std::atomic<long long> without_row{0};
  bool fresh_cache_per_call = false;
  std::uint64_t id = 0;  // which object a thread's remembered row belongs to

  // This thread's row of caches, or null when every row is taken.
  std::vector<NCrystal::CachePtr>* row() const {
    thread_local std::uint64_t owner = 0;
    thread_local int taken = -1;
    if (owner != id) {
      owner = id;
      taken = rows_taken.fetch_add(1);
    }
    return taken < static_cast<int>(caches.size()) ? &caches[static_cast<std::size_t>(taken)] : nullptr;
  }

  // The cache a call on material `table` uses: this thread's, or `fresh` (the caller's, dropped after the
  // call) with fresh_cache_per_call or when every row is taken.
  NCrystal::CachePtr& cache(int table, NCrystal::CachePtr& fresh) const {
    if (fresh_cache_per_call) return fresh;
    auto* r = row();
    if (!r) {
      without_row.fetch_add(1);
      return fresh;
    }
    return (*r)[static_cast<std::size_t>(table)];
  }
};

NCrystalDirect::NCrystalDirect(const std::vector<NCrystalMaterial>& materials, int threads, bool fresh_cache_per_call)
    : impl_(std::make_unique<Impl>()) {
  route_messages();
  impl_->fresh_cache_per_call = fresh_cache_per_call;
  impl_->id = next_direct_id.fetch_add(1);
  calling_ncrystal([&] {
    for (const auto& m : materials) impl_->processes.push_back(NCrystal::FactImpl::createScatter(NCrystal::MatCfg(m.cfg)));
    return 0;
  });
  impl_->caches.resize(static_cast<std::size_t>(std::max(threads, 1)));
  for (auto& row : impl_->caches) row.resize(materials.size());
}

NCrystalDirect::~NCrystalDirect() = default;

long long NCrystalDirect::calls_without_a_row() const { return impl_->without_row.load(); }

// No exception may leave these (they run inside transport kernels): NCrystal's evaluation of a material it
// has opened does not throw.
double NCrystalDirect::xs(int table, double energy) const {
  NCrystal::CachePtr fresh;
  return impl_->processes[static_cast<std::size_t>(table)]
      ->crossSectionIsotropic(impl_->cache(table, fresh), NCrystal::NeutronEnergy(energy))
      .dbl();
}

void NCrystalDirect::scatter(int table, double energy, double (*draw)(void*), void* rng, double* energy_out,
                             double* mu_out) const {
  NCrystal::CachePtr fresh;
  ParticleRng particle(draw, rng);
  const auto out = impl_->processes[static_cast<std::size_t>(table)]->sampleScatterIsotropic(
      impl_->cache(table, fresh), particle, NCrystal::NeutronEnergy(energy));
  *energy_out = out.ekin.dbl();
  *mu_out = std::clamp(out.mu.dbl(), -1.0, 1.0);
}

double ncrystal_direct_xs(const void* direct, int table, double energy) {
  return static_cast<const NCrystalDirect*>(direct)->xs(table, energy);
}

void ncrystal_direct_scatter(const void* direct, int table, double energy, double (*draw)(void*), void* rng,
                             double* energy_out, double* mu_out) {
  static_cast<const NCrystalDirect*>(direct)->scatter(table, energy, draw, rng, energy_out, mu_out);
}

bool ncrystal_built() { return true; }

std::string element_symbol(int z) {
  const std::string& name = z > 0 ? NCrystal::AtomData::elementZToName(static_cast<unsigned>(z)) : std::string();
  return name.empty() ? "Z=" + std::to_string(z) : name;
}
std::string ncrystal_version() { return NCRYSTAL_VERSION_STR; }

namespace {

constexpr const char* cfg_allowed =
    "allowed: an NCrystal cfg string, a data file and its parameters, e.g. \"C_sg194_pyrolytic_graphite.ncmat;temp=296K\"";

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return std::string(text.substr(first, text.find_last_not_of(" \t") - first + 1));
}

// The cfg split at its first ';': the name of its data and the parameters after it.
struct CfgParts {
  std::string name, parameters;
};

CfgParts split_at_semicolon(std::string_view cfg) {
  const auto semicolon = cfg.find(';');
  return {trim(cfg.substr(0, semicolon)), semicolon == std::string::npos ? std::string() : std::string(cfg.substr(semicolon + 1))};
}

void refuse_control_characters(const std::string& cfg) {
  for (const char c : cfg) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      throw ThermalError("the cfg \"" + printable_cut(cfg) + "\" holds a control character (" + cfg_allowed + ")");
    }
  }
}

// Data as NCrystal will read it: its bytes, its type (NCrystal's name of its format, "ncmat") and where it
// came from.
struct FoundData {
  std::string bytes, type, source;
  bool in_file = true;  // `source` is a file's path; else one of NCrystal's sources
};

// The file's extension, lower case ("" where it has none).
std::string extension_of(const std::string& path) {
  const std::string file = std::filesystem::path(path).filename().string();
  const auto dot = file.rfind('.');
  std::string ext = dot == std::string::npos ? std::string() : file.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

FoundData read_data_file(const std::string& path) {
  FoundData found;
  try {
    found.bytes = read_regular_file(path, limits::max_ncrystal_data_bytes);
  } catch (const InputFileError& e) {
    throw ThermalError(e.what());
  }
  found.source = std::filesystem::absolute(path).lexically_normal().string();
  // The format NCrystal reads: NCMAT by its first bytes, else by the extension, as NCrystal decides.
  const std::string ext = extension_of(path);
  const auto known = NCrystal::DataSources::recognisedFileExtensions();
  if (found.bytes.starts_with("NCMAT")) {
    found.type = "ncmat";
  } else if (!ext.empty() && ext != "ncmat" && std::find(known.begin(), known.end(), ext) != known.end()) {
    found.type = ext;
  } else {
    std::string formats;
    for (const auto& k : known) formats += (formats.empty() ? "" : ", ") + k;
    throw ThermalError("'" + printable(path) + "': it holds no NCrystal data: no NCMAT header" +
                       (ext.empty() ? std::string() : " in a ." + printable(ext) + " file") +
                       " (allowed: an NCrystal data file: NCMAT text, or a format NCrystal reads by its extension: " +
                       formats + ")");
  }
  return found;
}

// Data one of NCrystal's own factories holds or makes: its standard library ("stdlib::"), or a material
// made from parameters ("freegas::", "solid::", "gasmix::").
FoundData ncrystal_data(const std::string& name) {
  const auto text = NCrystal::FactImpl::createTextData(NCrystal::TextDataPath(name));
  const auto& raw = text->rawData();
  const std::string fact = NCrystal::TextDataPath(name).fact();
  return {std::string(raw.begin(), raw.end()), text->dataType(),
          fact == "stdlib" ? "NCrystal's standard library" : "NCrystal's " + fact + " factory", false};
}

// The data `name` (a cfg's file) stands for, found as NCrystalLookup says.
FoundData find_data(const std::string& name, const NCrystalLookup& lookup) {
  if (const auto colons = name.find("::"); colons != std::string::npos) {
    const std::string fact = name.substr(0, colons);
    if (fact != "stdlib" && fact != "freegas" && fact != "solid" && fact != "gasmix") {
      throw ThermalError("'" + printable(name) + "': NCrystal's data source '" + printable(fact) +
                         "::' (allowed: a file's path, or stdlib::, freegas::, solid::, gasmix::)");
    }
    return ncrystal_data(name);
  }
  std::string path = name;
  if (path.starts_with("~/")) {
    const char* home = std::getenv("HOME");
    path = std::string(home ? home : "") + path.substr(1);
  }
  if (std::filesystem::path(path).is_absolute()) return read_data_file(path);
  std::vector<std::string> folders;
  if (lookup.input_dir) folders.push_back(*lookup.input_dir);
  if (const char* search = std::getenv("NCRYSTAL_DATA_PATH")) {
    std::string list = search;
    for (std::size_t at = 0; at <= list.size();) {
      const auto end = std::min(list.find(':', at), list.size());
      if (end > at) folders.push_back(list.substr(at, end - at));
      at = end + 1;
    }
  }
  std::string looked;
  for (const auto& folder : folders) {
    const std::string candidate = (std::filesystem::path(folder) / path).lexically_normal().string();
    // Whatever the path names is what the user named: a FIFO or a folder there is refused, not skipped.
    if (file_kind(candidate) != FileKind::missing) return read_data_file(candidate);
    looked += (looked.empty() ? "" : ", ") + std::string("'") + printable(folder.empty() ? "." : folder) + "'";
  }
  try {
    return ncrystal_data("stdlib::" + path);
  } catch (const NCrystal::Error::Exception&) {
    throw ThermalError("'" + printable(name) + "' was not found: not in " + (looked.empty() ? "" : looked + " or ") +
                       "NCrystal's standard library (allowed: a file beside the input, in a folder of NCRYSTAL_DATA_PATH "
                       "or in NCrystal's standard library, or an absolute path)");
  }
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
}

}  // namespace

namespace {

// A cfg as keff hands it to NCrystal: each data file it names (one, or one per phase of a "phases<...>"
// cfg) found and read by keff and registered with NCrystal under a name of its digest, so that NCrystal
// reads those bytes and the same data is one file to its caches wherever it was found.
struct PinnedCfg {
  std::string cfg;             // the user's, with each file's name replaced by its registered one
  std::uint64_t digest = 0;    // of the data (of the phases' digests, in order)
  std::string source;          // where the data came from, as NCrystalMaterial::data_source
  bool in_file = true;
  std::string where;           // the data as a message names it: "'/path/x.ncmat'", "'x.ncmat' (NCrystal's ...)"
  std::vector<std::pair<std::string, std::string>> names;  // registered name -> the user's, for NCrystal's messages
};

// Finds, reads and registers the data `name` stands for: its registered name ("virtual::keff_<digest>.<type>").
std::string pin_data(const std::string& name, const NCrystalLookup& lookup, PinnedCfg& pinned, std::uint64_t& digest) {
  FoundData data;
  try {
    data = find_data(name, lookup);
  } catch (const NCrystal::Error::Exception& e) {
    throw ThermalError("'" + printable(name) + "': NCrystal: " + e.what());
  }
  digest = checksum64(data.bytes.data(), data.bytes.size());
  char hex[32];
  std::snprintf(hex, sizeof hex, "keff_%016llx.", static_cast<unsigned long long>(digest));
  const std::string registered = hex + data.type;
  NCrystal::DataSources::registerInMemoryFileData(registered, std::move(data.bytes));
  pinned.names.emplace_back(registered, name);
  const std::string where = data.in_file ? "'" + printable(data.source) + "'" : "'" + printable(name) + "' (" + data.source + ")";
  pinned.where += (pinned.where.empty() ? "" : " and ") + where;
  pinned.source += (pinned.source.empty() ? "" : ", ") + data.source;
  pinned.in_file = pinned.in_file && data.in_file;
  return "virtual::" + registered;
}

// A cfg of phases: "phases<f1*file1;params1&f2*file2;params2>;common parameters", each file pinned.
PinnedCfg pin_phases(const std::string& cfg, std::string_view inner, std::string_view after, const NCrystalLookup& lookup) {
  PinnedCfg pinned;
  std::string phases;
  std::vector<std::uint64_t> digests;
  for (std::size_t at = 0; at <= inner.size();) {
    const auto end = std::min(inner.find('&', at), inner.size());
    const std::string_view phase = inner.substr(at, end - at);
    const auto star = phase.find('*');
    if (star == std::string_view::npos) {
      throw ThermalError("the cfg \"" + printable_cut(cfg) + "\" has a phase without its fraction (allowed: "
                         "phases<fraction*file;parameters&...>, as NCrystal reads it)");
    }
    const CfgParts parts = split_at_semicolon(phase.substr(star + 1));
    std::uint64_t digest = 0;
    const std::string registered = pin_data(parts.name, lookup, pinned, digest);
    digests.push_back(digest);
    phases += (phases.empty() ? "" : "&") + std::string(phase.substr(0, star + 1)) + registered +
              (parts.parameters.empty() ? "" : ";" + parts.parameters);
    at = end + 1;
  }
  pinned.cfg = "phases<" + phases + ">" + std::string(after);
  pinned.digest = checksum64(digests.data(), digests.size() * sizeof(std::uint64_t));
  pinned.source = "phases: " + pinned.source;
  return pinned;
}

PinnedCfg pin_cfg(const std::string& cfg, const NCrystalLookup& lookup) {
  refuse_control_characters(cfg);
  const std::string text = trim(cfg);
  if (text.starts_with("phases<")) {
    const auto close = text.rfind('>');
    if (close == std::string::npos) {
      throw ThermalError("the cfg \"" + printable_cut(cfg) + "\" opens its phases and does not close them (allowed: "
                         "phases<fraction*file;parameters&...>;parameters)");
    }
    return pin_phases(cfg, std::string_view(text).substr(7, close - 7), std::string_view(text).substr(close + 1), lookup);
  }
  const CfgParts parts = split_at_semicolon(cfg);
  if (parts.name.empty()) throw ThermalError("the cfg \"" + printable_cut(cfg) + "\" names no data file (" + cfg_allowed + ")");
  PinnedCfg pinned;
  pinned.cfg = pin_data(parts.name, lookup, pinned, pinned.digest) + (parts.parameters.empty() ? "" : ";" + parts.parameters);
  return pinned;
}

}  // namespace

NCrystalMaterial open_ncrystal(const std::string& cfg, double temperature_k, const NCrystalLookup& lookup) {
  route_messages();
  const PinnedCfg pinned = pin_cfg(cfg, lookup);
  try {
    NCrystal::MatCfg matcfg(pinned.cfg);
    if (!matcfg.isMultiPhase()) {  // a phase's density weighs it in a mixture; a material's density is the nuclides'
      const NCrystal::DensityState density = matcfg.get_density();
      if (density.type != NCrystal::DensityState::Type::SCALEFACTOR || density.value != 1.0) {
        throw ThermalError("the cfg \"" + printable_cut(cfg) + "\" sets density (allowed: no density: keff takes a "
                           "material's density from its nuclides' atom densities, and NCrystal's cross sections per atom)");
      }
    }
    NCrystalMaterial m;
    m.cfg_sets_temperature = matcfg.get_temp().dbl() > 0;  // -1 where the cfg leaves it to the file
    if (!m.cfg_sets_temperature) matcfg.set_temp(temperature_k);
    const auto info = NCrystal::FactImpl::createInfo(matcfg);
    m.cfg = matcfg.toStrCfg();
    m.temperature_k = info->hasTemperature() ? info->getTemperature().dbl() : matcfg.get_temp().dbl();
    m.data_source = pinned.source;
    m.data_in_file = pinned.in_file;
    m.data_digest = pinned.digest;
    for (const auto& entry : info->getComposition()) {
      const NCrystal::AtomData& atom = entry.atom.data();
      if (!atom.isElement()) throw ThermalError("NCrystal: material '" + printable_cut(cfg) + "' holds a mixture that is no element");
      m.elements.push_back({static_cast<int>(atom.Z()), atom.elementName(), entry.fraction});
    }
    // One entry per element: NCrystal may list an element once per crystal site.
    std::sort(m.elements.begin(), m.elements.end(), [](const auto& a, const auto& b) { return a.z < b.z; });
    std::vector<ThermalElement> merged;
    for (const auto& e : m.elements) {
      if (!merged.empty() && merged.back().z == e.z) {
        merged.back().fraction += e.fraction;
      } else {
        merged.push_back(e);
      }
    }
    m.elements = std::move(merged);
    return m;
  } catch (const NCrystal::Error::Exception& e) {
    std::string what = e.what();
    for (const auto& [registered, user] : pinned.names) {
      replace_all(what, "virtual::" + registered, user);
      replace_all(what, registered, user);
    }
    throw ThermalError(pinned.where + ": NCrystal: " + printable_cut(what, 400));
  }
}

namespace {

// NCrystal's scattering of `cfg` reduced to one of its parts: the elastic (no inelastic scattering) or the
// inelastic (no coherent, incoherent or small-angle elastic scattering).
NCrystal::shared_obj<const NCrystal::ProcImpl::Process> scatter_part(const std::string& cfg, bool elastic) {
  NCrystal::MatCfg part(cfg);
  if (elastic) {
    part.set_inelas("none");
  } else {
    part.set_coh_elas(false);
    part.set_incoh_elas(false);
    part.set_sans(false);
  }
  return NCrystal::FactImpl::createScatter(part);
}

// `samples` equally likely outcomes (E' - e, mu) of `part` at energy e, stratified: draws x samples of
// NCrystal's scatters ordered by (E' - e, mu), and one drawn at random from each run of `draws`. Each kept
// outcome stands for its own share of NCrystal's distribution, so the outcomes' distribution is unbiased
// (as a plain sample's is) and its noise is far smaller: a neutron thermalising in graphite meets the same
// grid energies' outcomes hundreds of times, and their noise, frozen into the table, distorts its
// equilibrium spectrum (perf/RESULTS.md, "NCrystal"). Where the part does not scatter (xs 0) the outcomes
// are never drawn, and are left as no scatter.
void tabulate_part(const NCrystal::ProcImpl::Process& part, NCrystal::CachePtr& cache, double e, double xs, int samples,
                   int draws, std::uint64_t seed, std::vector<std::pair<double, double>>& scratch, double* shift,
                   double* mu) {
  if (!(xs > 0)) {
    for (int j = 0; j < samples; ++j) {
      if (shift) shift[j] = 0;
      mu[j] = 1;
    }
    return;
  }
  TableRng rng(seed);
  scratch.clear();
  for (long long d = 0; d < static_cast<long long>(samples) * draws; ++d) {
    const auto out = part.sampleScatterIsotropic(cache, rng, NCrystal::NeutronEnergy(e));
    scratch.emplace_back(out.ekin.dbl() - e, std::clamp(out.mu.dbl(), -1.0, 1.0));
  }
  std::sort(scratch.begin(), scratch.end());
  for (int j = 0; j < samples; ++j) {
    const auto pick = std::min(static_cast<int>(rng.generate() * draws), draws - 1);
    const auto& kept = scratch[static_cast<std::size_t>(j) * draws + pick];
    if (shift) shift[j] = kept.first;
    mu[j] = kept.second;
  }
}

}  // namespace

void tabulate_ncrystal_into(const NCrystalMaterial& material, const ThermalTableSpec& spec, std::uint64_t seed,
                            int threads, const std::function<bool()>& stop, const ThermalTableOut& t) {
  calling_ncrystal([&] {
    const auto elastic = scatter_part(material.cfg, true);
    const auto inelastic = scatter_part(material.cfg, false);
    const auto n = static_cast<std::size_t>(spec.energies), k = static_cast<std::size_t>(spec.samples);
    const double span = std::log(spec.cutoff_ev / spec.min_ev);
    for (std::size_t i = 0; i < n; ++i) {
      t.energy[i] = i + 1 == n ? spec.cutoff_ev : spec.min_ev * std::exp(span * static_cast<double>(i) / static_cast<double>(n - 1));
    }
    // Energies are independent (each part at each energy has its own stream), so threads share them out and
    // the table does not depend on how many build it. Each thread has its own NCrystal caches.
    std::atomic<std::size_t> next{0}, done{0};
    std::atomic<bool> stopped{false};
    std::exception_ptr failed;
    std::mutex failed_mutex;
    const auto work = [&] {
      try {
        NCrystal::CachePtr elastic_cache, inelastic_cache;
        std::vector<std::pair<double, double>> scratch;
        for (std::size_t i = next.fetch_add(1); i < n; i = next.fetch_add(1), done.fetch_add(1)) {
          if (stop && stop()) {
            stopped.store(true);
            next.store(n);
            break;
          }
          const NCrystal::NeutronEnergy e(t.energy[i]);
          t.xs_elastic[i] = elastic->crossSectionIsotropic(elastic_cache, e).dbl();
          t.xs_inelastic[i] = inelastic->crossSectionIsotropic(inelastic_cache, e).dbl();
          tabulate_part(*elastic, elastic_cache, t.energy[i], t.xs_elastic[i], spec.samples, spec.draws_per_outcome,
                        seed ^ (0x9FB21C651E98DF25ULL * (i + 1)), scratch, nullptr, &t.elastic_mu[i * k]);
          tabulate_part(*inelastic, inelastic_cache, t.energy[i], t.xs_inelastic[i], spec.samples,
                        spec.draws_per_outcome, seed ^ (0xD1B54A32D192ED03ULL * (i + 1)), scratch,
                        &t.inelastic_shift[i * k], &t.inelastic_mu[i * k]);
        }
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failed_mutex);
        if (!failed) failed = std::current_exception();
        next.store(n);
      }
    };
    const auto hardware = static_cast<long long>(std::max(1u, std::thread::hardware_concurrency()));
    const auto helpers = static_cast<std::size_t>(std::clamp<long long>(threads, 1, hardware) - 1);
    std::vector<std::thread> pool;
    for (std::size_t h = 0; h < helpers; ++h) pool.emplace_back(work);
    work();
    for (auto& th : pool) th.join();
    if (failed) std::rethrow_exception(failed);
    if (stopped.load()) throw ThermalTableStopped(static_cast<long long>(done.load()), static_cast<long long>(n));
    return 0;
  });
}

ThermalTable tabulate_ncrystal(const NCrystalMaterial& material, const ThermalTableSpec& spec, std::uint64_t seed,
                               int threads, const std::function<bool()>& stop) {
  ThermalTable t;
  t.samples = spec.samples;
  const auto n = static_cast<std::size_t>(spec.energies), k = static_cast<std::size_t>(spec.samples);
  t.energy.resize(n);
  t.xs_elastic.resize(n);
  t.xs_inelastic.resize(n);
  t.elastic_mu.resize(n * k);
  t.inelastic_shift.resize(n * k);
  t.inelastic_mu.resize(n * k);
  tabulate_ncrystal_into(material, spec, seed, threads, stop,
                         {t.energy.data(), t.xs_elastic.data(), t.xs_inelastic.data(), t.elastic_mu.data(),
                          t.inelastic_shift.data(), t.inelastic_mu.data()});
  return t;
}

std::vector<double> ncrystal_cross_sections(const NCrystalMaterial& material, const std::vector<double>& energies) {
  return calling_ncrystal([&] {
    const auto scatter = NCrystal::FactImpl::createScatter(NCrystal::MatCfg(material.cfg));
    NCrystal::CachePtr cache;
    std::vector<double> xs;
    for (const double e : energies) xs.push_back(scatter->crossSectionIsotropic(cache, NCrystal::NeutronEnergy(e)).dbl());
    return xs;
  });
}

std::vector<std::pair<double, double>> ncrystal_scatters(const NCrystalMaterial& material, double energy, int n,
                                                         std::uint64_t seed) {
  return calling_ncrystal([&] {
    const auto scatter = NCrystal::FactImpl::createScatter(NCrystal::MatCfg(material.cfg));
    NCrystal::CachePtr cache;
    TableRng rng(seed);
    std::vector<std::pair<double, double>> out;
    for (int i = 0; i < n; ++i) {
      const auto o = scatter->sampleScatterIsotropic(cache, rng, NCrystal::NeutronEnergy(energy));
      out.emplace_back(o.ekin.dbl(), o.mu.dbl());
    }
    return out;
  });
}

}  // namespace keff
