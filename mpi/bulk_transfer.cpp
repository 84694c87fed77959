#include "mpi/bulk_transfer.hpp"

#include "mpi/communicator.hpp"

#include <algorithm>
#include <limits>

namespace keff {

namespace {

constexpr std::size_t max_piece = std::size_t{1} << 30;

template <class T>
void broadcast_pieces(T* data, std::size_t n, MPI_Datatype type, int root, MPI_Comm comm) {
  for (std::size_t at = 0; at < n; at += max_piece) {
    const int piece = static_cast<int>(std::min(max_piece, n - at));
    check_mpi(MPI_Bcast(data + at, piece, type, root, comm), "MPI_Bcast");
  }
}

template <class T>
std::vector<T> gather_all(std::span<const T> mine, MPI_Datatype type, MPI_Comm comm, std::vector<std::size_t>* counts) {
  int size = 1;
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  const std::int64_t n = static_cast<std::int64_t>(mine.size());
  std::vector<std::int64_t> all_n(static_cast<std::size_t>(size));
  check_mpi(MPI_Allgather(&n, 1, MPI_INT64_T, all_n.data(), 1, MPI_INT64_T, comm), "MPI_Allgather");
  std::vector<int> c(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size));
  std::int64_t total = 0;
  for (std::size_t r = 0; r < c.size(); ++r) {
    if (total + all_n[r] > std::numeric_limits<int>::max()) {
      throw MpiError("all_gather: more than 2^31 - 1 elements in all");
    }
    displs[r] = static_cast<int>(total);
    c[r] = static_cast<int>(all_n[r]);
    total += all_n[r];
  }
  std::vector<T> out(static_cast<std::size_t>(total));
  check_mpi(MPI_Allgatherv(mine.data(), static_cast<int>(n), type, out.data(), c.data(), displs.data(), type, comm),
            "MPI_Allgatherv");
  if (counts) counts->assign(all_n.begin(), all_n.end());
  return out;
}

}  // namespace

void broadcast(std::span<double> data, int root, MPI_Comm comm) {
  broadcast_pieces(data.data(), data.size(), MPI_DOUBLE, root, comm);
}

void broadcast(std::span<std::int64_t> data, int root, MPI_Comm comm) {
  broadcast_pieces(data.data(), data.size(), MPI_INT64_T, root, comm);
}

void broadcast(std::span<std::uint64_t> data, int root, MPI_Comm comm) {
  broadcast_pieces(data.data(), data.size(), MPI_UINT64_T, root, comm);
}

std::string broadcast(const std::string& text, int root, MPI_Comm comm) {
  std::uint64_t length = text.size();
  check_mpi(MPI_Bcast(&length, 1, MPI_UINT64_T, root, comm), "MPI_Bcast");
  std::string out = text;
  out.resize(length);
  broadcast_pieces(out.data(), out.size(), MPI_CHAR, root, comm);
  return out;
}

std::vector<double> all_gather(std::span<const double> mine, MPI_Comm comm, std::vector<std::size_t>* counts) {
  return gather_all(mine, MPI_DOUBLE, comm, counts);
}

std::vector<std::int64_t> all_gather(std::span<const std::int64_t> mine, MPI_Comm comm,
                                     std::vector<std::size_t>* counts) {
  return gather_all(mine, MPI_INT64_T, comm, counts);
}

std::optional<std::string> first_error(const std::optional<std::string>& mine, MPI_Comm comm) {
  int rank = 0, size = 1;
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  int first = mine ? rank : size;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (first == size) return std::nullopt;
  return broadcast(mine.value_or(std::string()), first, comm);
}

}  // namespace keff
