#include "src/timers.hpp"

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

}  // namespace keff
