#pragma once
// keff's view of MPI: a duplicated communicator (so keff's messages never match a caller's) and the few
// collectives the driver needs. Everything works with one rank.
#include "kernels/vocabulary/batch.hpp"

#include <mpi.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace keff {

// An MPI call failed; what() names the call and MPI's error string.
class MpiError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Communicator {
 public:
  explicit Communicator(MPI_Comm parent = MPI_COMM_WORLD);
  // The ranks of `parent` that pass the same `color`, ordered by rank (MPI_Comm_split).
  Communicator(const Communicator& parent, int color);
  ~Communicator();
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  MPI_Comm get() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }

  // Exact, order-independent sum of integers over ranks, in place.
  void sum(std::int64_t* values, int n) const;
  std::int64_t sum(std::int64_t value) const;
  std::int64_t max(std::int64_t value) const;
  // Maximum over ranks of each of n values, in place.
  void max(std::int64_t* values, int n) const;
  // Sum of `value` over lower ranks (0 on rank 0).
  std::int64_t exclusive_sum(std::int64_t value) const;
  // True on every rank if `flag` is true on any.
  bool any(bool flag) const;
  // Whether every rank passed the same value (one MPI_Allreduce of the value and its complement).
  bool all_equal(std::uint64_t value) const;
  // The same, on rank 0 only (empty elsewhere): for output, which only rank 0 writes.
  std::vector<char> gather_bytes(const void* data, std::int64_t n_bytes) const;
  // Minimum, maximum and sum over ranks of each of n values, on rank 0 (elsewhere: unchanged).
  void reduce_min_max_sum(const double* values, int n, double* min, double* max, double* sum) const;
  // Agreement on a failure that may have happened on some ranks only (a file one rank cannot read):
  // every rank passes its own error message ("" for none) and gets the lowest failing rank's message,
  // or "" if no rank failed. Call it before the next collective so a lone failure can never hang.
  std::string first_error(const std::string& local) const;
  void barrier() const;

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
};

// Throws MpiError if `code` is not MPI_SUCCESS.
void check_mpi(int code, const char* call);

}  // namespace keff
