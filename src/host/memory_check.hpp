#pragma once
// Memory a run is about to allocate, compared with what is available where it allocates, before it
// allocates: a size within every limit of io/limits.hpp can still be more than the machine has
// (--particles 2000000000 wants about 600 GB), and an allocation that fails (or a page the kernel
// cannot back later) ends a run with an abort or the OOM killer instead of a message. Host only.
#include "mpi/communicator.hpp"

#include <cstddef>
#include <initializer_list>
#include <string>

namespace keff {

struct MemoryUse {
  const char* what;  // "source and fission banks"
  double bytes;      // double: an estimate must not overflow whatever the sizes
};

// Collective. When the uses of any rank add up to more than its `available` bytes, every rank throws
// RunError naming the largest rank's need, its parts, what is available and how to proceed, unless
// `allow` (settings.allow_oversubscribed_memory): then rank 0 prints it as a warning and the run goes on.
// `remedy` completes "use ..." in the message: what would make the stage smaller.
void check_memory(const Communicator& comm, const char* stage, std::initializer_list<MemoryUse> uses,
                  double available, bool allow, const char* remedy = "fewer particles or nuclides, more ranks");

// The same check for work one rank does alone (`keff data` on rank 0), without communication: `allow_flag`
// names the option that runs it anyway (printed in the message). `available` 0 (unknown) skips the check.
void check_memory_here(const char* stage, std::initializer_list<MemoryUse> uses, double available, bool allow,
                       const char* allow_flag);

// The host memory this process can still allocate, in bytes: MemAvailable of /proc/meminfo (Linux: what
// can be allocated without swapping), or less where a memory cgroup holds the process (a batch job's or a
// container's limit: cgroup v2's memory.max, v1's memory.limit_in_bytes): what it and every cgroup above
// it still allow, their limit less their usage, the file pages they can reclaim counted as free (past
// such a limit the kernel kills the process with no message); or less where an address-space limit holds
// it (ulimit -v): the limit less what it has mapped (past it an allocation fails). 0 if unknown.
std::size_t host_memory_available();

// The same, read from `proc` (for /proc) and `cgroup_root` (for /sys/fs/cgroup): for tests.
std::size_t host_memory_available(const std::string& proc, const std::string& cgroup_root);

// "2.1 TB", "1.5 GB", "312.0 MB", "4.0 kB"
std::string memory_text(double bytes);

}  // namespace keff
