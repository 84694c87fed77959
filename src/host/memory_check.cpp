#include "src/host/memory_check.hpp"

#include "src/host/run_error.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>

namespace keff {

std::string memory_text(double bytes) {
  char text[32];
  if (bytes >= 1e12) {
    std::snprintf(text, sizeof text, "%.1f TB", bytes * 1e-12);
  } else if (bytes >= 1e9) {
    std::snprintf(text, sizeof text, "%.1f GB", bytes * 1e-9);
  } else if (bytes >= 1e6) {
    std::snprintf(text, sizeof text, "%.1f MB", bytes * 1e-6);
  } else {
    std::snprintf(text, sizeof text, "%.1f kB", bytes * 1e-3);
  }
  return text;
}

namespace {

// "<stage> needs about <need> on rank <rank> (<parts>) where <available> are available"
std::string need_text(const char* stage, std::initializer_list<MemoryUse> uses, double need, double available, int rank) {
  std::string message = std::string(stage) + " needs about " + memory_text(need) + " on rank " + std::to_string(rank) + " (";
  const char* separator = "";
  for (const auto& u : uses) {
    message += separator + std::string(u.what) + " " + memory_text(u.bytes);
    separator = ", ";
  }
  return message + ") where " + memory_text(available) + " are available";
}

double total(std::initializer_list<MemoryUse> uses) {
  double need = 0;
  for (const auto& u : uses) need += u.bytes;
  return need;
}

}  // namespace

void check_memory(const Communicator& comm, const char* stage, std::initializer_list<MemoryUse> uses,
                  double available, bool allow, const char* remedy) {
  const double need = total(uses);
  const bool short_here = need > available;
  if (!comm.any(short_here)) return;
  // The message of the rank that is shortest of memory (the first such rank when several tie).
  std::string message = short_here ? need_text(stage, uses, need, available, comm.rank()) : std::string();
  message = comm.first_error(message);
  if (allow) {
    if (comm.is_root()) std::cerr << "keff: warning: " << message << "; going on (allow_oversubscribed_memory)\n";
    return;
  }
  throw RunError("not enough memory: " + message + " (allowed: at most the memory available; use " + remedy +
                 ", or settings.allow_oversubscribed_memory = true / --allow-oversubscribed-memory to try anyway)");
}

void check_memory_here(const char* stage, std::initializer_list<MemoryUse> uses, double available, bool allow,
                       const char* allow_flag) {
  const double need = total(uses);
  if (available <= 0 || need <= available) return;
  const std::string message = need_text(stage, uses, need, available, 0);
  if (allow) {
    std::cerr << "keff: warning: " << message << "; going on (" << allow_flag << ")\n";
    return;
  }
  throw RunError("not enough memory: " + message + " (allowed: at most the memory available; fewer nuclides or " +
                 "points, or " + allow_flag + " to try anyway)");
}

std::size_t host_memory_available() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

}  // namespace keff
