#pragma once
// Wall-clock time per phase of a run, reported in the order phases first ran.
#include "io/output/run_results.hpp"
#include "mpi/communicator.hpp"

#include <chrono>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace keff {

class PhaseTimers {
 public:
  void add(const std::string& phase, double seconds);
  double get(const std::string& phase) const;
  const std::vector<std::pair<std::string, double>>& all() const { return phases_; }

 private:
  std::vector<std::pair<std::string, double>> phases_;
};

// Collective: min, mean and max over ranks of each of `phases` (every rank passes the same list), on
// rank 0 (elsewhere each rank's own time); phases no rank timed are left out.
std::vector<PhaseTiming> reduce_over_ranks(const PhaseTimers& timers, const Communicator& comm,
                                           std::span<const char* const> phases);

// Adds the time from construction to destruction to one phase.
class ScopedPhase {
 public:
  ScopedPhase(PhaseTimers& timers, std::string phase)
      : timers_(timers), phase_(std::move(phase)), start_(std::chrono::steady_clock::now()) {}
  ~ScopedPhase() {
    timers_.add(phase_, std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  }
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;

 private:
  PhaseTimers& timers_;
  std::string phase_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace keff
