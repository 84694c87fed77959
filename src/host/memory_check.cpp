#include "src/host/memory_check.hpp"

#include "src/host/run_error.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>

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

namespace {

// The first number of `file` ("max" or anything else unreadable: none).
std::optional<double> number_in(const std::string& file) {
  std::ifstream in(file);
  double value = 0;
  if (in >> value) return value;
  return std::nullopt;
}

// The value of `key` in a "key value" file (memory.stat), 0 where absent.
double stat_value(const std::string& file, const std::string& key) {
  std::ifstream in(file);
  std::string name;
  double value = 0;
  while (in >> name >> value) {
    if (name == key) return value;
  }
  return 0;
}

// What one cgroup's memory controller still allows: its limit less its usage, the file pages it could
// drop (inactive_file) counted as free, as the kernel reclaims them before it kills; none without a limit.
std::optional<double> cgroup_room(const std::string& dir, bool v2) {
  const auto limit = number_in(dir + (v2 ? "/memory.max" : "/memory.limit_in_bytes"));
  const auto usage = number_in(dir + (v2 ? "/memory.current" : "/memory.usage_in_bytes"));
  if (!limit || !usage || *limit >= 0x1p62) return std::nullopt;  // v1 writes "no limit" as about 2^63
  const double reclaimable = stat_value(dir + "/memory.stat", v2 ? "inactive_file" : "total_inactive_file");
  return std::max(1.0, *limit - *usage + reclaimable);  // 1 byte, not 0: 0 is "unknown" to the callers
}

// The least room of the cgroup at `path` (below `mount`) and of every cgroup above it: each limit holds.
std::optional<double> cgroup_chain_room(const std::string& mount, std::string path, bool v2) {
  std::optional<double> least;
  for (;;) {
    if (const auto room = cgroup_room(mount + path, v2)) least = least ? std::min(*least, *room) : *room;
    if (path.empty() || path == "/") return least;
    path = path.substr(0, path.find_last_of('/'));
  }
}

// What an address-space limit (RLIMIT_AS, "Max address space" of /proc/self/limits) leaves beside the
// process's mappings (VmSize of /proc/self/status); none without a limit.
std::optional<double> address_space_room(const std::string& proc) {
  std::ifstream limits(proc + "/self/limits");
  std::optional<double> limit;
  for (std::string line; std::getline(limits, line);) {
    if (!line.starts_with("Max address space")) continue;
    std::istringstream fields(line.substr(17));
    std::string soft;
    fields >> soft;
    if (soft != "unlimited") {
      try {
        limit = std::stod(soft);
      } catch (const std::exception&) {
      }
    }
  }
  if (!limit) return std::nullopt;
  std::ifstream status(proc + "/self/status");
  double mapped_kib = 0;
  for (std::string key; status >> key;) {
    if (key == "VmSize:") {
      status >> mapped_kib;
      break;
    }
    status.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return std::max(1.0, *limit - mapped_kib * 1024);
}

}  // namespace

std::size_t host_memory_available(const std::string& proc, const std::string& cgroup_root) {
  double available = 0;
  {
    std::ifstream in(proc + "/meminfo");
    std::string key, unit;
    double kib = 0;
    while (in >> key >> kib >> unit) {
      if (key == "MemAvailable:") available = kib * 1024;
    }
  }
  // An address-space limit (ulimit -v: RLIMIT_AS) less what the process has mapped already.
  if (const auto room = address_space_room(proc); room && (available <= 0 || *room < available)) available = *room;
  // /proc/self/cgroup: "0::<path>" (v2), "<n>:<controllers>:<path>" (v1; the memory controller's line).
  std::ifstream in(proc + "/self/cgroup");
  for (std::string line; std::getline(in, line);) {
    const auto first = line.find(':'), second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    std::string controllers(1, ',');
    controllers.append(line, first + 1, second - first - 1).push_back(',');
    const std::string path = line.substr(second + 1);
    std::optional<double> room;
    if (line.starts_with("0::")) {
      // cgroup2 alone at the root, or beside v1 at unified/ (a hybrid hierarchy)
      for (const char* mount : {"", "/unified"}) {
        if (const auto r = cgroup_chain_room(cgroup_root + mount, path, true)) room = r;
      }
    } else if (controllers.find(",memory,") != std::string::npos) {
      room = cgroup_chain_room(cgroup_root + "/memory", path, false);
    }
    if (room && (available <= 0 || *room < available)) available = *room;
  }
  return static_cast<std::size_t>(available);
}

std::size_t host_memory_available() { return host_memory_available("/proc", "/sys/fs/cgroup"); }

}  // namespace keff
