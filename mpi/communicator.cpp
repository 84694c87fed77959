#include "mpi/communicator.hpp"

#include <limits>
#include <stdexcept>

namespace keff {

void check_mpi(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(code, text, &len);
  throw MpiError(std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(len)));
}

Communicator::Communicator(MPI_Comm parent) {
  check_mpi(MPI_Comm_dup(parent, &comm_), "MPI_Comm_dup");
  // Errors come back as codes (check_mpi turns them into exceptions) instead of aborting inside MPI.
  check_mpi(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check_mpi(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
}

Communicator::Communicator(const Communicator& parent, int color) {
  check_mpi(MPI_Comm_split(parent.get(), color, parent.rank(), &comm_), "MPI_Comm_split");
  check_mpi(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check_mpi(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
}

Communicator::~Communicator() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void Communicator::sum(std::int64_t* values, int n) const {
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, values, n, MPI_INT64_T, MPI_SUM, comm_), "MPI_Allreduce");
}

std::int64_t Communicator::sum(std::int64_t value) const {
  sum(&value, 1);
  return value;
}

void Communicator::max(std::int64_t* values, int n) const {
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, values, n, MPI_INT64_T, MPI_MAX, comm_), "MPI_Allreduce");
}

std::int64_t Communicator::max(std::int64_t value) const {
  max(&value, 1);
  return value;
}

bool Communicator::all_equal(std::uint64_t value) const {
  std::uint64_t both[2] = {value, ~value};  // max of both: the largest value and the complement of the smallest
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, both, 2, MPI_UINT64_T, MPI_MAX, comm_), "MPI_Allreduce");
  return both[0] == value && ~both[1] == value;
}

std::int64_t Communicator::exclusive_sum(std::int64_t value) const {
  std::int64_t out = 0;
  check_mpi(MPI_Exscan(&value, &out, 1, MPI_INT64_T, MPI_SUM, comm_), "MPI_Exscan");
  return rank_ == 0 ? 0 : out;  // MPI leaves rank 0's result undefined
}

bool Communicator::any(bool flag) const {
  int v = flag ? 1 : 0;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_LOR, comm_), "MPI_Allreduce");
  return v != 0;
}

std::vector<char> Communicator::gather_bytes(const void* data, std::int64_t n_bytes) const {
  if (n_bytes > std::numeric_limits<int>::max()) throw MpiError("gather_bytes: message over 2 GiB");
  const int mine = static_cast<int>(n_bytes);
  std::vector<int> counts(static_cast<std::size_t>(size_)), displs(static_cast<std::size_t>(size_));
  check_mpi(MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm_), "MPI_Gather");
  std::int64_t total = 0;
  for (int r = 0; r < size_; ++r) {
    displs[static_cast<std::size_t>(r)] = static_cast<int>(total);
    total += counts[static_cast<std::size_t>(r)];
  }
  if (total > std::numeric_limits<int>::max()) throw MpiError("gather_bytes: gathered data over 2 GiB");
  std::vector<char> out(is_root() ? static_cast<std::size_t>(total) : 0);
  check_mpi(MPI_Gatherv(data, mine, MPI_BYTE, out.data(), counts.data(), displs.data(), MPI_BYTE, 0, comm_),
            "MPI_Gatherv");
  return out;
}

void Communicator::reduce_min_max_sum(const double* values, int n, double* min, double* max, double* sum) const {
  check_mpi(MPI_Reduce(values, min, n, MPI_DOUBLE, MPI_MIN, 0, comm_), "MPI_Reduce");
  check_mpi(MPI_Reduce(values, max, n, MPI_DOUBLE, MPI_MAX, 0, comm_), "MPI_Reduce");
  check_mpi(MPI_Reduce(values, sum, n, MPI_DOUBLE, MPI_SUM, 0, comm_), "MPI_Reduce");
}

std::string Communicator::first_error(const std::string& local) const {
  int failing = local.empty() ? size_ : rank_;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &failing, 1, MPI_INT, MPI_MIN, comm_), "MPI_Allreduce");
  if (failing == size_) return {};
  int length = static_cast<int>(local.size());
  check_mpi(MPI_Bcast(&length, 1, MPI_INT, failing, comm_), "MPI_Bcast");
  std::string message = rank_ == failing ? local : std::string(static_cast<std::size_t>(length), ' ');
  check_mpi(MPI_Bcast(message.data(), length, MPI_CHAR, failing, comm_), "MPI_Bcast");
  return message;
}

void Communicator::barrier() const { check_mpi(MPI_Barrier(comm_), "MPI_Barrier"); }

}  // namespace keff
