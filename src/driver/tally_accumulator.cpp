#include "src/driver/tally_accumulator.hpp"

#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <cmath>
#include <cstring>

namespace keff {

namespace {

// Mesh bin of window bin w.
std::int64_t mesh_bin(const RegularMesh& mesh, const MeshWindow& window, int w) {
  int idx[3];
  RegularMesh{{}, {}, {window.shape[0], window.shape[1], window.shape[2]}}.indices_of(w, idx);
  for (int a = 0; a < 3; ++a) idx[a] += window.lower[a];
  return mesh.bin_of(idx);
}

// The domain that owns a mesh bin: the one holding its centre.
int owner_domain(const RegularMesh& mesh, const DomainMesh& domains, std::int64_t bin) {
  int idx[3];
  mesh.indices_of(bin, idx);
  Vec3 centre;
  for (int a = 0; a < 3; ++a) centre[a] = mesh.lower[a] + (static_cast<double>(idx[a]) + 0.5) / mesh.inv_width[a];
  return domains.domain_of(centre);
}

}  // namespace

TallyAccumulator::TallyAccumulator(const Communicator& world, MPI_Comm replicas, const DomainMesh& domains,
                                   const RegularMesh& mesh, const MeshWindow& window, int groups)
    : world_(world), replicas_(replicas), mesh_(mesh), window_(window), groups_(groups) {
  const int ranks = world.size();
  decomposed_ = domains.decomposed();
  lane_ = domains.decomposed() ? world.rank() % domains.replicas : world.rank();
  send_.resize(static_cast<std::size_t>(ranks));
  owned_at_.assign(static_cast<std::size_t>(window.n_bins()), -1);
  for (int w = 0; w < window.n_bins(); ++w) {
    const std::int64_t bin = mesh_bin(mesh, window, w);
    const int owner = domains.decomposed() ? owner_domain(mesh, domains, bin) : -1;
    if (owner == domains.mine) {
      owned_at_[static_cast<std::size_t>(w)] = static_cast<int>(owned_.size());
      owned_.push_back(w);
      global_.push_back(bin);
    } else {
      send_[static_cast<std::size_t>(owner * domains.replicas + lane_)].push_back(w);
    }
  }
  send_count_.assign(static_cast<std::size_t>(ranks), 0);
  send_first_ = recv_count_ = recv_first_ = send_count_;
  const std::size_t per_bin = 1 + 2 * static_cast<std::size_t>(groups);  // mesh bin, flux and fission per group
  std::size_t out = 0;
  for (int r = 0; r < ranks; ++r) {
    send_first_[static_cast<std::size_t>(r)] = static_cast<int>(out);
    send_count_[static_cast<std::size_t>(r)] = static_cast<int>(send_[static_cast<std::size_t>(r)].size() * per_bin);
    out += send_[static_cast<std::size_t>(r)].size() * per_bin;
  }
  send_buffer_.resize(out);
  if (domains.decomposed()) {
    check_mpi(MPI_Alltoall(send_count_.data(), 1, MPI_INT, recv_count_.data(), 1, MPI_INT, world.get()), "MPI_Alltoall");
  }
  std::size_t in = 0;
  for (int r = 0; r < ranks; ++r) {
    recv_first_[static_cast<std::size_t>(r)] = static_cast<int>(in);
    in += static_cast<std::size_t>(recv_count_[static_cast<std::size_t>(r)]);
  }
  recv_buffer_.resize(in);
  const std::size_t n = owned_.size() * static_cast<std::size_t>(groups);
  total_flux_.assign(n, 0);
  total_fission_.assign(n, 0);
  flux_sum_.assign(n, 0.0);
  flux_sq_ = fission_sum_ = fission_sq_ = flux_sum_;
}

void TallyAccumulator::add_batch(HostScores flux, HostScores fission, double per_particle,
                                 const std::function<void()>& progress) {
  Kokkos::Profiling::ScopedRegion region("keff::tally::accumulate");
  const int n = static_cast<int>(flux.size());
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, flux.data(), n, MPI_INT64_T, MPI_SUM, replicas_), "MPI_Allreduce");
  progress();
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, fission.data(), n, MPI_INT64_T, MPI_SUM, replicas_), "MPI_Allreduce");
  progress();
  const auto g_count = static_cast<std::size_t>(groups_);
  for (std::size_t o = 0; o < owned_.size(); ++o) {
    for (std::size_t g = 0; g < g_count; ++g) {
      total_flux_[o * g_count + g] = flux(g, static_cast<std::size_t>(owned_[o]));
      total_fission_[o * g_count + g] = fission(g, static_cast<std::size_t>(owned_[o]));
    }
  }
  if (decomposed_) {
    // Scores in bins other domains own go to them; theirs in ours come here.
    std::size_t k = 0;
    for (const auto& bins : send_) {
      for (int w : bins) {
        send_buffer_[k++] = mesh_bin(mesh_, window_, w);
        for (std::size_t g = 0; g < g_count; ++g) send_buffer_[k++] = flux(g, static_cast<std::size_t>(w));
        for (std::size_t g = 0; g < g_count; ++g) send_buffer_[k++] = fission(g, static_cast<std::size_t>(w));
      }
    }
    check_mpi(MPI_Alltoallv(send_buffer_.data(), send_count_.data(), send_first_.data(), MPI_INT64_T,
                            recv_buffer_.data(), recv_count_.data(), recv_first_.data(), MPI_INT64_T, world_.get()),
              "MPI_Alltoallv");
    progress();
    for (std::size_t j = 0; j < recv_buffer_.size();) {
      const std::int64_t bin = recv_buffer_[j++];
      int idx[3];
      mesh_.indices_of(bin, idx);
      const int o = owned_at_[static_cast<std::size_t>(window_.local(idx))];
      for (std::size_t g = 0; g < g_count; ++g) total_flux_[static_cast<std::size_t>(o) * g_count + g] += recv_buffer_[j++];
      for (std::size_t g = 0; g < g_count; ++g) total_fission_[static_cast<std::size_t>(o) * g_count + g] += recv_buffer_[j++];
    }
  }
  for (std::size_t i = 0; i < total_flux_.size(); ++i) {
    const double f = from_fixed<mesh_fraction_bits>(total_flux_[i]) * per_particle;
    const double r = from_fixed<mesh_fraction_bits>(total_fission_[i]) * per_particle;
    flux_sum_[i] += f;
    flux_sq_[i] += f * f;
    fission_sum_[i] += r;
    fission_sq_[i] += r * r;
  }
}

void TallyAccumulator::collect(int active, MeshTallyResult& mesh, RestartData& restart) const {
  // Records of (mesh bin, then per group: flux sum, sq, fission sum, sq), from lane 0 of every domain.
  const auto g_count = static_cast<std::size_t>(groups_);
  std::vector<double> mine;
  if (lane_ == 0) {
    mine.reserve(owned_.size() * (1 + 4 * g_count));
    for (std::size_t o = 0; o < owned_.size(); ++o) {
      mine.push_back(static_cast<double>(global_[o]));
      for (std::size_t g = 0; g < g_count; ++g) {
        const std::size_t i = o * g_count + g;
        mine.insert(mine.end(), {flux_sum_[i], flux_sq_[i], fission_sum_[i], fission_sq_[i]});
      }
    }
  }
  const std::vector<char> all =
      world_.gather_bytes(mine.data(), static_cast<std::int64_t>(mine.size() * sizeof(double)));
  if (!world_.is_root()) return;
  const std::size_t n_bins = static_cast<std::size_t>(mesh_.n_bins());
  const std::size_t n = n_bins * g_count;
  restart.flux_sum.assign(n, 0.0);
  restart.flux_sq = restart.fission_sum = restart.fission_sq = restart.flux_sum;
  std::vector<double> records(all.size() / sizeof(double));
  std::memcpy(records.data(), all.data(), records.size() * sizeof(double));
  for (std::size_t j = 0; j < records.size();) {
    const auto bin = static_cast<std::size_t>(records[j++]);
    for (std::size_t g = 0; g < g_count; ++g) {
      const std::size_t i = g * n_bins + bin;  // output order: [group][bin]
      restart.flux_sum[i] = records[j++];
      restart.flux_sq[i] = records[j++];
      restart.fission_sum[i] = records[j++];
      restart.fission_sq[i] = records[j++];
    }
  }
  const double na = active;
  const auto finish = [na](const std::vector<double>& sum, const std::vector<double>& sq, std::vector<double>& mean,
                           std::vector<double>& sd) {
    mean.resize(sum.size());
    sd.resize(sum.size());
    for (std::size_t i = 0; i < sum.size(); ++i) {
      mean[i] = na > 0 ? sum[i] / na : 0.0;
      sd[i] = na > 1 ? std::sqrt(std::max(0.0, sq[i] / na - mean[i] * mean[i]) / (na - 1)) : 0.0;
    }
  };
  finish(restart.flux_sum, restart.flux_sq, mesh.flux_mean, mesh.flux_std);
  finish(restart.fission_sum, restart.fission_sq, mesh.fission_mean, mesh.fission_std);
}

void TallyAccumulator::restore(const RestartData& restart) {
  const auto g_count = static_cast<std::size_t>(groups_);
  const auto n_bins = static_cast<std::size_t>(mesh_.n_bins());
  for (std::size_t o = 0; o < owned_.size(); ++o) {
    for (std::size_t g = 0; g < g_count; ++g) {
      const std::size_t from = g * n_bins + static_cast<std::size_t>(global_[o]);
      const std::size_t to = o * g_count + g;
      flux_sum_[to] = restart.flux_sum[from];
      flux_sq_[to] = restart.flux_sq[from];
      fission_sum_[to] = restart.fission_sum[from];
      fission_sq_[to] = restart.fission_sq[from];
    }
  }
}

std::size_t TallyAccumulator::bytes() const {
  return (total_flux_.size() + total_fission_.size()) * sizeof(Fixed) +
         (flux_sum_.size() + flux_sq_.size() + fission_sum_.size() + fission_sq_.size()) * sizeof(double) +
         (send_buffer_.size() + recv_buffer_.size()) * sizeof(std::int64_t) +
         (owned_.size() + owned_at_.size()) * sizeof(int) + global_.size() * sizeof(std::int64_t);
}

}  // namespace keff
