#pragma once
// Whether to abandon the batch under way, asked between kernel launches (history chunks, event rounds):
// a SIGINT or SIGTERM arrived (the run then stops as it would have after the previous batch, whose
// statepoint still holds the source this batch started from), or this rank alone has lost more particles
// in the batch than the whole run still allows. The second is a batch that cannot end: histories that
// never leave a region run into settings.max_events one after another, and finishing the batch would
// only give the same error much later. The decision is this rank's; the Transporter agrees on it with
// the other ranks before anything else happens.
#include "kernels/device.hpp"
#include "kernels/lost_record.hpp"

#include <chrono>
#include <cstdint>

namespace keff {

class BatchWatch {
 public:
  BatchWatch(const DeviceExec& exec, const LostRecord<DeviceMem>& lost);

  // Batch `batch` (or its rerun) starts; `lost_allowed` more lost particles keep the run within
  // settings.max_lost.
  void start(int batch, std::int64_t lost_allowed);
  // True from the first call that finds a reason to stop. A signal is seen at every call; the lost
  // particles, a copy from the device, at most once a second.
  bool operator()();
  bool stopped() const { return stopped_; }
  // Particles this rank has lost since start() (a copy from the device).
  std::int64_t lost_since_start() const;

 private:
  std::int64_t lost_on_rank() const;  // over the run

  DeviceExec exec_;
  LostRecord<DeviceMem> lost_;
  Kokkos::View<std::int64_t[lost_reason_count], Kokkos::HostSpace> per_reason_;
  std::int64_t lost_at_start_ = 0;
  std::int64_t allowed_ = 0;
  std::chrono::steady_clock::time_point last_look_;
  bool stopped_ = false;
  int batch_ = 0;
  int asked_ = 0;  // calls since start()
};

}  // namespace keff
