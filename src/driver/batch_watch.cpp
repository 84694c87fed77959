#include "src/driver/batch_watch.hpp"

#include "io/test_point.hpp"
#include "src/host/interrupt.hpp"

namespace keff {

namespace {
constexpr std::chrono::seconds lost_look_interval{1};
}

BatchWatch::BatchWatch(const DeviceExec& exec, const LostRecord<DeviceMem>& lost)
    : exec_(exec), lost_(lost), per_reason_("keff::host::lost_per_reason") {}

std::int64_t BatchWatch::lost_on_rank() const {
  Kokkos::deep_copy(exec_, per_reason_, lost_.per_reason);
  exec_.fence();
  std::int64_t n = 0;
  for (int i = 0; i < lost_reason_count; ++i) n += per_reason_(i);
  return n;
}

void BatchWatch::start(int batch, std::int64_t lost_allowed) {
  batch_ = batch;
  asked_ = 0;
  lost_at_start_ = lost_on_rank();
  allowed_ = lost_allowed;
  last_look_ = std::chrono::steady_clock::now();
  stopped_ = false;
}

std::int64_t BatchWatch::lost_since_start() const { return lost_on_rank() - lost_at_start_; }

bool BatchWatch::operator()() {
  if (stopped_) return true;
  // The first call comes before the batch's first launch, the second after it.
  if (++asked_ == 2 && test_points_enabled()) test_point("transport:" + std::to_string(batch_));
  if (interrupt_signal() != 0) return stopped_ = true;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_look_ < lost_look_interval) return false;
  last_look_ = now;
  return stopped_ = lost_since_start() > allowed_;
}

}  // namespace keff
