// host_memory_available: MemAvailable, the room a memory cgroup (v1 or v2) and every cgroup above it
// leave, and an address-space limit's room, read from a /proc and a /sys/fs/cgroup written here. A batch
// job's limit of 450 MB on a machine with gigabytes free was not seen: a run passed its memory check and
// the kernel killed it; under ulimit -v a statepoint failed after every batch had run.
#include "src/host/memory_check.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace keff {
namespace {

namespace fs = std::filesystem;

class FakeHost {
 public:
  explicit FakeHost(const std::string& name) : root_(fs::temp_directory_path() / "keff_memory" / name) {
    fs::remove_all(root_);
    fs::create_directories(root_ / "proc" / "self");
    write("proc/meminfo", "MemTotal:       16000000 kB\nMemAvailable:    8000000 kB\nCached:  10 kB\n");
  }
  ~FakeHost() { fs::remove_all(root_); }
  void write(const std::string& path, const std::string& text) const {
    fs::create_directories((root_ / path).parent_path());
    std::ofstream(root_ / path) << text;
  }
  std::size_t available() const { return host_memory_available((root_ / "proc").string(), (root_ / "cgroup").string()); }

 private:
  fs::path root_;
};

constexpr std::size_t mib = 1024 * 1024;
constexpr std::size_t meminfo_available = std::size_t{8000000} * 1024;

TEST(HostMemory, MemAvailableWithoutACgroupLimit) {
  FakeHost host("none");
  host.write("proc/self/cgroup", "0::/job\n");
  host.write("cgroup/job/memory.max", "max\n");
  host.write("cgroup/job/memory.current", "1000000\n");
  EXPECT_EQ(host.available(), meminfo_available);
  FakeHost v1("none_v1");
  v1.write("proc/self/cgroup", "4:memory:/job\n0::/\n");
  v1.write("cgroup/memory/job/memory.limit_in_bytes", "9223372036854771712\n");
  v1.write("cgroup/memory/job/memory.usage_in_bytes", "1000000\n");
  EXPECT_EQ(v1.available(), meminfo_available);
}

TEST(HostMemory, ACgroupV2LimitLessItsUsage) {
  FakeHost host("v2");
  host.write("proc/self/cgroup", "0::/slurm/job_7/step_0\n");
  host.write("cgroup/slurm/job_7/step_0/memory.max", std::to_string(450 * mib) + "\n");
  host.write("cgroup/slurm/job_7/step_0/memory.current", std::to_string(100 * mib) + "\n");
  host.write("cgroup/slurm/job_7/step_0/memory.stat", "anon 1000\ninactive_file " + std::to_string(10 * mib) + "\n");
  EXPECT_EQ(host.available(), 360 * mib);
  // A tighter limit above it holds too.
  host.write("cgroup/slurm/job_7/memory.max", std::to_string(300 * mib) + "\n");
  host.write("cgroup/slurm/job_7/memory.current", std::to_string(100 * mib) + "\n");
  EXPECT_EQ(host.available(), 200 * mib);
}

TEST(HostMemory, ACgroupV1LimitAndAHybridHierarchy) {
  FakeHost host("v1");
  host.write("proc/self/cgroup", "9:cpu,cpuacct:/\n4:memory:/batch/job\n0::/\n");
  host.write("cgroup/memory/batch/job/memory.limit_in_bytes", std::to_string(450 * mib) + "\n");
  host.write("cgroup/memory/batch/job/memory.usage_in_bytes", std::to_string(50 * mib) + "\n");
  host.write("cgroup/memory/batch/job/memory.stat", "cache 5\ntotal_inactive_file 0\n");
  EXPECT_EQ(host.available(), 400 * mib);
  // cgroup2 beside it, at unified/, with its own limit.
  host.write("cgroup/unified/memory.max", std::to_string(120 * mib) + "\n");
  host.write("cgroup/unified/memory.current", std::to_string(20 * mib) + "\n");
  EXPECT_EQ(host.available(), 100 * mib);
}

TEST(HostMemory, AnAddressSpaceLimitLessWhatIsMapped) {
  FakeHost host("address_space");
  host.write("proc/self/cgroup", "0::/\n");
  host.write("proc/self/limits", "Limit                     Soft Limit           Hard Limit           Units     \n"
                                 "Max stack size            8388608              unlimited            bytes     \n"
                                 "Max address space         " + std::to_string(800 * mib) + "            unlimited            bytes     \n");
  host.write("proc/self/status", "Name:\tkeff\nVmPeak:\t  999999 kB\nVmSize:\t  307200 kB\nVmRSS:\t 90000 kB\n");
  EXPECT_EQ(host.available(), 500 * mib);
  host.write("proc/self/limits", "Max address space         unlimited            unlimited            bytes     \n");
  EXPECT_EQ(host.available(), meminfo_available);
}

TEST(HostMemory, AFullCgroupLeavesNothing) {
  FakeHost host("full");
  host.write("proc/self/cgroup", "0::/job\n");
  host.write("cgroup/job/memory.max", std::to_string(100 * mib) + "\n");
  host.write("cgroup/job/memory.current", std::to_string(150 * mib) + "\n");
  EXPECT_EQ(host.available(), 1u);  // a byte: 0 would be "unknown", which skips the checks
}

}  // namespace
}  // namespace keff
