#pragma once
// Moving large host buffers between ranks (nuclear data: tens to hundreds of MB) and agreeing on an
// error before anyone waits for data that will never come. Works with one rank.
#include <mpi.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace keff {

// Broadcasts `data` from `root` in pieces of at most 2^30 elements, so buffers past MPI's int count work.
// Every rank passes a buffer of the same size.
void broadcast(std::span<double> data, int root, MPI_Comm comm);
void broadcast(std::span<std::int64_t> data, int root, MPI_Comm comm);
void broadcast(std::span<std::uint64_t> data, int root, MPI_Comm comm);
std::string broadcast(const std::string& text, int root, MPI_Comm comm);

// Concatenates every rank's buffer in rank order, on every rank; `counts` (optional) receives the
// number of elements each rank contributed. Throws MpiError past 2^31 - 1 elements in all.
std::vector<double> all_gather(std::span<const double> mine, MPI_Comm comm, std::vector<std::size_t>* counts);
std::vector<std::int64_t> all_gather(std::span<const std::int64_t> mine, MPI_Comm comm,
                                     std::vector<std::size_t>* counts);

// Collective: the message of the lowest rank whose `mine` holds one, on every rank; nullopt when no
// rank failed. A loader calls it after reading and before exchanging data, so a failure on one reader
// turns into the same exception on every rank instead of a hang.
std::optional<std::string> first_error(const std::optional<std::string>& mine, MPI_Comm comm);

}  // namespace keff
