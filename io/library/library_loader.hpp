#pragma once
// Loading a nuclear-data library on every rank of a run by one of the strategies of io/library/load_strategy.hpp.
// Whatever the strategy and rank count, every rank ends with the same NuclideLibrary, bit for bit.
// Collective over `comm`; a failure anywhere (missing file, corrupt dataset, ...) becomes the same
// DataError on every rank, raised before any rank waits for data.
#include "io/library/load_strategy.hpp"
#include "io/library/nuclear_data.hpp"
#include "mpi/communicator.hpp"

#include <string>

namespace keff {

struct LoadReport {
  std::string format;   // "hdf5" or "text"
  LoadStrategy strategy = LoadStrategy::root;
  int readers = 1;      // ranks that read the file (per node leader for `node`: 1)
  std::size_t bytes = 0;  // packed size of the library
};

NuclideLibrary load_library(const std::string& path, const LoadSpec& spec, const Communicator& comm,
                            LoadReport* report = nullptr);

}  // namespace keff
