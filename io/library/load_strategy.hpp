#pragma once
// How the ranks of a run get a nuclear-data library into memory (io/library/library_loader.hpp does it).
#include "kernels/vocabulary/enum_names.hpp"

namespace keff {

enum class LoadStrategy {
  all,      // every rank reads the whole file
  root,     // rank 0 reads, then broadcasts packed buffers
  readers,  // ranks 0..K-1 read disjoint contiguous nuclide ranges, then everyone gathers everything
  node,     // one copy per node in MPI shared memory, filled from rank 0's read; each rank copies it out
};
inline constexpr EnumName<LoadStrategy> load_strategy_names[] = {{LoadStrategy::all, "all"},
                                                                {LoadStrategy::root, "root"},
                                                                {LoadStrategy::readers, "readers"},
                                                                {LoadStrategy::node, "node"}};
constexpr std::span<const EnumName<LoadStrategy>> enum_names(LoadStrategy) { return load_strategy_names; }

struct LoadSpec {
  LoadStrategy strategy = LoadStrategy::root;
  int readers = 2;  // K, with LoadStrategy::readers; more than the rank count means every rank
};

}  // namespace keff
