#include "src/memory_check.hpp"

#include "src/run.hpp"

#include <cstdio>
#include <iostream>

namespace keff {

std::string memory_text(double bytes) {
  char text[32];
  if (bytes >= 1e9) {
    std::snprintf(text, sizeof text, "%.1f GB", bytes * 1e-9);
  } else if (bytes >= 1e6) {
    std::snprintf(text, sizeof text, "%.1f MB", bytes * 1e-6);
  } else {
    std::snprintf(text, sizeof text, "%.1f kB", bytes * 1e-3);
  }
  return text;
}

void check_memory(const Communicator& comm, const char* stage, std::initializer_list<MemoryUse> uses,
                  double available, bool allow) {
  double need = 0;
  for (const auto& u : uses) need += u.bytes;
  const bool short_here = need > available;
  if (!comm.any(short_here)) return;
  // The message of the rank that is shortest of memory (the first such rank when several tie).
  std::string message;
  if (short_here) {
    message = std::string(stage) + " needs about " + memory_text(need) + " on rank " + std::to_string(comm.rank()) + " (";
    const char* separator = "";
    for (const auto& u : uses) {
      message += separator + std::string(u.what) + " " + memory_text(u.bytes);
      separator = ", ";
    }
    message += ") where " + memory_text(available) + " are available";
  }
  message = comm.first_error(message);
  if (allow) {
    if (comm.is_root()) std::cerr << "keff: warning: " << message << "; going on (allow_oversubscribed_memory)\n";
    return;
  }
  throw RunError("not enough memory: " + message +
                 " (allowed: at most the memory available; use fewer particles or nuclides, more ranks, or "
                 "settings.allow_oversubscribed_memory = true / --allow-oversubscribed-memory to try anyway)");
}

}  // namespace keff
