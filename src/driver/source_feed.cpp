#include "src/driver/source_feed.hpp"

#include <algorithm>
#include <chrono>

namespace keff {

SourceFeed::SourceFeed(BankExchange& exchange) : exchange_(exchange) { ready_.reserve(64); }

void SourceFeed::reset(std::int64_t count) {
  count_ = count;
  handed_out_ = 0;
  wait_seconds_ = 0;
  ready_.clear();
  next_ready_ = 0;
  if (!exchange_.in_flight()) {
    ready_.push_back({0, count});
  } else {
    exchange_.take_ready(ready_);
  }
}

IndexRange SourceFeed::take(std::int64_t max, bool wait) {
  if (exhausted() || max <= 0) return {};
  if (next_ready_ == ready_.size()) {
    ready_.clear();
    next_ready_ = 0;
    exchange_.take_ready(ready_);
    if (ready_.empty() && wait) {
      finish_exchange();
      exchange_.take_ready(ready_);
    }
    if (ready_.empty()) return {};
  }
  IndexRange& r = ready_[next_ready_];
  const IndexRange out{r.first, std::min(max, r.count)};
  r.first += out.count;
  r.count -= out.count;
  if (r.count == 0) ++next_ready_;
  handed_out_ += out.count;
  if (exchange_.in_flight() && exchange_.receives()) taken_early_ += out.count;
  if (exchange_.in_flight() && exhausted()) finish_exchange();  // every slice is here; complete the sends too
  return out;
}

void SourceFeed::finish_exchange() {
  const auto start = std::chrono::steady_clock::now();
  exchange_.finish();
  wait_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace keff
