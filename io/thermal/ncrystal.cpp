// NCrystal-backed thermal scattering (ncrystal.hpp); compiled only where NCrystal was found.
#include "io/thermal/ncrystal.hpp"

#include "NCrystal/NCrystal.hh"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
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
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
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

double ncrystal_temperature(const std::string& cfg) {
  return calling_ncrystal([&] {
    const double t = NCrystal::MatCfg(cfg).get_temp().dbl();  // -1 where the cfg leaves it to the file
    return t > 0 ? t : 0.0;
  });
}

NCrystalMaterial open_ncrystal(const std::string& cfg, double temperature_k) {
  return calling_ncrystal([&] {
    NCrystal::MatCfg matcfg(cfg);
    if (!(matcfg.get_temp().dbl() > 0)) matcfg.set_temp(temperature_k);
    const auto info = NCrystal::FactImpl::createInfo(matcfg);
    NCrystalMaterial m;
    m.cfg = matcfg.toStrCfg();
    m.temperature_k = info->hasTemperature() ? info->getTemperature().dbl() : temperature_k;
    for (const auto& entry : info->getComposition()) {
      const NCrystal::AtomData& atom = entry.atom.data();
      if (!atom.isElement()) throw ThermalError("NCrystal: material '" + cfg + "' holds a mixture that is no element");
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
  });
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

ThermalTable tabulate_ncrystal(const NCrystalMaterial& material, const ThermalTableSpec& spec, std::uint64_t seed,
                               int threads) {
  return calling_ncrystal([&] {
    const auto elastic = scatter_part(material.cfg, true);
    const auto inelastic = scatter_part(material.cfg, false);
    ThermalTable t;
    t.samples = spec.samples;
    const auto n = static_cast<std::size_t>(spec.energies), k = static_cast<std::size_t>(spec.samples);
    t.energy.resize(n);
    t.xs_elastic.resize(n);
    t.xs_inelastic.resize(n);
    t.elastic_mu.resize(n * k);
    t.inelastic_shift.resize(n * k);
    t.inelastic_mu.resize(n * k);
    const double span = std::log(spec.cutoff_ev / spec.min_ev);
    for (std::size_t i = 0; i < n; ++i) {
      t.energy[i] = i + 1 == n ? spec.cutoff_ev : spec.min_ev * std::exp(span * static_cast<double>(i) / static_cast<double>(n - 1));
    }
    // Energies are independent (each part at each energy has its own stream), so threads share them out and
    // the table does not depend on how many build it. Each thread has its own NCrystal caches.
    std::atomic<std::size_t> next{0};
    std::exception_ptr failed;
    std::mutex failed_mutex;
    const auto work = [&] {
      try {
        NCrystal::CachePtr elastic_cache, inelastic_cache;
        std::vector<std::pair<double, double>> scratch;
        for (std::size_t i = next.fetch_add(1); i < n; i = next.fetch_add(1)) {
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
    return t;
  });
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
