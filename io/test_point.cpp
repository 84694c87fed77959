#include "io/test_point.hpp"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <set>
#include <sstream>
#include <thread>

namespace keff {

namespace {

volatile std::sig_atomic_t signals_seen = 0;
int this_rank = 0;
bool armed = false;

// The points KEFF_TEST_POINT names for this rank, each removed once reached.
std::set<std::string>& pending() {
  static std::set<std::string> points = [] {
    std::set<std::string> named;
    const char* env = std::getenv("KEFF_TEST_POINT");
    std::istringstream in(env ? env : "");
    for (std::string item; std::getline(in, item, ',');) {
      if (!item.empty()) named.insert(item);
    }
    return named;
  }();
  return points;
}

}  // namespace

void arm_test_points() { armed = true; }

bool test_points_enabled() {
  static const bool enabled = armed && std::getenv("KEFF_TEST_POINT") != nullptr;
  return enabled;
}

void set_test_point_rank(int rank) { this_rank = rank; }

void note_signal() noexcept { signals_seen = signals_seen + 1; }

void test_point(const std::string& point) {
  if (!test_points_enabled()) return;
  const std::string here = point + "@" + std::to_string(this_rank);
  auto& points = pending();
  auto it = points.find(here);
  if (it == points.end() && this_rank == 0) it = points.find(point);
  if (it == points.end()) return;
  points.erase(it);
  const std::sig_atomic_t before = signals_seen;
  std::cerr << "keff: test point " << point << " on rank " << this_rank << " (pid " << ::getpid()
            << "): waiting for a signal" << std::endl;
  // Polled, not waited for with sigsuspend: the signal may be delivered to any of the process's threads.
  while (signals_seen == before) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

}  // namespace keff
