// The load strategies. Each one first reads on its reader ranks, then agrees on errors (first_error)
// and only then moves data, so a reader that failed never leaves another rank waiting in a broadcast.
#include "io/library/library_loader.hpp"

#include "io/library/data_error.hpp"
#include "io/library/library_reader.hpp"
#include "io/library/packed_library.hpp"
#include "mpi/bulk_transfer.hpp"
#include "mpi/shared_memory.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

namespace keff {

namespace {

// Runs `read` and turns any failure into a message, so the ranks can agree on it.
template <class Read>
std::optional<std::string> try_read(Read&& read) {
  try {
    read();
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

void raise_first_error(const std::optional<std::string>& mine, MPI_Comm comm) {
  if (const auto error = first_error(mine, comm)) throw DataError(*error);
}

NuclideLibrary load_all(const std::string& path, const Communicator& comm, LoadReport& report) {
  NuclideLibrary lib;
  raise_first_error(try_read([&] {
                      const auto reader = open_library(path);
                      report.format = reader->format();
                      lib = reader->read_all();
                    }),
                    comm.get());
  report.readers = comm.size();
  return lib;
}

NuclideLibrary load_root(const std::string& path, const Communicator& comm, LoadReport& report) {
  NuclideLibrary lib;
  PackedLibrary packed;
  std::string format;
  if (comm.is_root()) {
    raise_first_error(try_read([&] {
                        const auto reader = open_library(path);
                        format = reader->format();
                        lib = reader->read_all();
                        packed = pack(lib);
                      }),
                      comm.get());
  } else {
    raise_first_error(std::nullopt, comm.get());
  }
  report.format = broadcast(format, 0, comm.get());
  std::uint64_t sizes[2] = {packed.ints.size(), packed.reals.size()};
  broadcast(std::span<std::uint64_t>(sizes), 0, comm.get());
  packed.ints.resize(sizes[0]);
  packed.reals.resize(sizes[1]);
  broadcast(std::span<std::int64_t>(packed.ints), 0, comm.get());
  broadcast(std::span<double>(packed.reals), 0, comm.get());
  if (!comm.is_root()) lib = unpack(packed.ints, packed.reals);
  report.readers = 1;
  return lib;
}

NuclideLibrary load_readers(const std::string& path, int k, const Communicator& comm, LoadReport& report) {
  if (k < 1) throw DataError(path + ": load strategy 'readers' needs at least 1 reader (got " + std::to_string(k) + ")");
  const int readers = std::min(k, comm.size());
  PackedLibrary mine;
  std::string format;
  std::optional<std::string> error;
  if (comm.rank() < readers) {
    error = try_read([&] {
      const auto reader = open_library(path);
      format = reader->format();
      const IndexRange s = EvenSplit(static_cast<std::int64_t>(reader->size()), readers).part(comm.rank());
      const NuclideLibrary part = reader->read(static_cast<std::size_t>(s.first), static_cast<std::size_t>(s.count));
      mine = pack(part);
    });
  }
  // Ranks that read nothing still send a valid (empty) part, so every part unpacks the same way.
  if (mine.ints.empty()) mine.ints.push_back(0);
  raise_first_error(error, comm.get());
  report.format = broadcast(format, 0, comm.get());
  std::vector<std::size_t> int_counts, real_counts;
  const auto ints = all_gather(std::span<const std::int64_t>(mine.ints), comm.get(), &int_counts);
  const auto reals = all_gather(std::span<const double>(mine.reals), comm.get(), &real_counts);
  mine = {};
  NuclideLibrary lib;
  std::size_t i_at = 0, r_at = 0;
  for (std::size_t r = 0; r < int_counts.size(); ++r) {
    unpack_append(std::span(ints).subspan(i_at, int_counts[r]), std::span(reals).subspan(r_at, real_counts[r]), lib);
    i_at += int_counts[r];
    r_at += real_counts[r];
  }
  report.readers = readers;
  return lib;
}

NuclideLibrary load_node(const std::string& path, const Communicator& comm, LoadReport& report) {
  const NodeComms nodes(comm.get());
  NuclideLibrary lib;
  std::string format;
  PackedSizes sizes;
  if (comm.is_root()) {
    raise_first_error(try_read([&] {
                        const auto reader = open_library(path);
                        format = reader->format();
                        lib = reader->read_all();
                        sizes = packed_sizes(lib);
                      }),
                      comm.get());
  } else {
    raise_first_error(std::nullopt, comm.get());
  }
  report.format = broadcast(format, 0, comm.get());
  std::uint64_t n[2] = {sizes.ints, sizes.reals};
  broadcast(std::span<std::uint64_t>(n), 0, comm.get());
  sizes = {n[0], n[1]};

  // One window per node: reals first (8-byte aligned at the base), then ints.
  const SharedBuffer shared(sizes.reals * sizeof(double) + sizes.ints * sizeof(std::int64_t), nodes.node());
  const std::span<double> reals(static_cast<double*>(shared.data()), sizes.reals);
  const std::span<std::int64_t> ints(reinterpret_cast<std::int64_t*>(reals.data() + sizes.reals), sizes.ints);
  if (comm.is_root()) pack_into(lib, 0, lib.nuclides.size(), ints, reals);
  // Rank 0 fills its node's copy; the other nodes' leaders receive theirs straight into shared memory.
  if (nodes.leaders() != MPI_COMM_NULL) {
    broadcast(ints, 0, nodes.leaders());
    broadcast(reals, 0, nodes.leaders());
  }
  shared.fence();
  if (!comm.is_root()) lib = unpack(ints, reals);
  // No rank may free the window while another still copies out of it.
  shared.fence();
  report.readers = 1;
  return lib;
}

}  // namespace

NuclideLibrary load_library(const std::string& path, const LoadSpec& spec, const Communicator& comm,
                            LoadReport* report) {
  LoadReport r;
  r.strategy = spec.strategy;
  NuclideLibrary lib;
  switch (spec.strategy) {
    case LoadStrategy::all: lib = load_all(path, comm, r); break;
    case LoadStrategy::root: lib = load_root(path, comm, r); break;
    case LoadStrategy::readers: lib = load_readers(path, spec.readers, comm, r); break;
    case LoadStrategy::node: lib = load_node(path, comm, r); break;
  }
  lib.path = path;
  if (report) {
    r.bytes = [&] {
      const PackedSizes s = packed_sizes(lib);
      return s.ints * sizeof(std::int64_t) + s.reals * sizeof(double);
    }();
    *report = r;
  }
  return lib;
}

}  // namespace keff
