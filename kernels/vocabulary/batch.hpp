#pragma once
// Where a rank's histories sit in a batch: the one shape in which batch coordinates reach every kernel
// (initial source, transport, source combing) and the bank exchange. History i of a batch draws its
// random numbers from (seed, batch, n_global, global index) alone (kernels/rng.hpp).
#include "kernels/vocabulary/macros.hpp"

#include <cstdint>
#include <stdexcept>

namespace keff {

// Indices [first, first + count): of histories in a batch, of sites in a bank, of nuclides in a library.
struct IndexRange {
  std::int64_t first = 0;
  std::int64_t count = 0;
  KEFF_INLINE_FUNCTION std::int64_t end() const { return first + count; }
};

// The part of n items split as evenly as possible over `parts` (the first n % parts parts one longer,
// as EvenSplit below) that holds item i.
KEFF_INLINE_FUNCTION int even_split_part_of(std::int64_t i, std::int64_t n, int parts) {
  const std::int64_t base = n / parts, extra = n % parts;
  const std::int64_t long_items = extra * (base + 1);
  if (i < long_items) return static_cast<int>(i / (base + 1));
  return static_cast<int>(extra + (i - long_items) / base);
}

// n items split over `parts` as evenly as possible, the first n % parts parts one longer: the split of a
// batch's histories over ranks, and of a library's nuclides over reader ranks. Made once and handed to
// whoever needs it (the driver and the bank exchange use the same object). Host only.
class EvenSplit {
 public:
  EvenSplit(std::int64_t n, int parts) : n_(n), parts_(parts) {
    if (n < 0 || parts < 1) throw std::invalid_argument("EvenSplit: needs n >= 0 items and at least one part");
  }
  IndexRange part(int p) const {
    const std::int64_t base = n_ / parts_, extra = n_ % parts_;
    return {p * base + (p < extra ? p : extra), base + (p < extra ? 1 : 0)};
  }
  std::int64_t total() const { return n_; }
  int parts() const { return parts_; }

 private:
  std::int64_t n_ = 0;
  int parts_ = 1;
};

struct BatchCoordinates {
  std::uint64_t seed = 1;
  std::uint64_t batch = 0;    // 1-based; 0 is the initial source
  std::int64_t n_global = 0;  // histories per batch over all ranks
  IndexRange local;         // the histories this rank runs
};

}  // namespace keff
