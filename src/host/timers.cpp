#include "src/host/timers.hpp"

namespace keff {

void PhaseTimers::add(const std::string& phase, double seconds) {
  for (auto& p : phases_) {
    if (p.first == phase) {
      p.second += seconds;
      return;
    }
  }
  phases_.emplace_back(phase, seconds);
}

double PhaseTimers::get(const std::string& phase) const {
  for (const auto& p : phases_) {
    if (p.first == phase) return p.second;
  }
  return 0.0;
}

std::vector<PhaseTiming> reduce_over_ranks(const PhaseTimers& timers, const Communicator& comm,
                                           std::span<const char* const> phases) {
  const int n = static_cast<int>(phases.size());
  std::vector<double> local(phases.size()), lo(phases.size()), hi(phases.size()), sum(phases.size());
  for (std::size_t i = 0; i < phases.size(); ++i) local[i] = lo[i] = hi[i] = sum[i] = timers.get(phases[i]);
  comm.reduce_min_max_sum(local.data(), n, lo.data(), hi.data(), sum.data());
  std::vector<PhaseTiming> out;
  for (std::size_t i = 0; i < phases.size(); ++i) {
    if (hi[i] > 0) out.push_back({phases[i], lo[i], sum[i] / comm.size(), hi[i]});
  }
  return out;
}

}  // namespace keff
