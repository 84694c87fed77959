#pragma once
// How the ranks of a run get a nuclear-data library into memory (io/library_loader.hpp does it).
#include <optional>
#include <string_view>

namespace keff {

enum class LoadStrategy {
  all,      // every rank reads the whole file
  root,     // rank 0 reads, then broadcasts packed buffers
  readers,  // ranks 0..K-1 read disjoint contiguous nuclide ranges, then everyone gathers everything
  node,     // one copy per node in MPI shared memory, filled from rank 0's read; each rank copies it out
};

struct LoadSpec {
  LoadStrategy strategy = LoadStrategy::root;
  int readers = 2;  // K, with LoadStrategy::readers; more than the rank count means every rank
};

inline std::string_view to_string(LoadStrategy s) {
  switch (s) {
    case LoadStrategy::all: return "all";
    case LoadStrategy::root: return "root";
    case LoadStrategy::readers: return "readers";
    case LoadStrategy::node: return "node";
  }
  return "?";
}

inline std::optional<LoadStrategy> parse_load_strategy(std::string_view text) {
  for (LoadStrategy s : {LoadStrategy::all, LoadStrategy::root, LoadStrategy::readers, LoadStrategy::node}) {
    if (text == to_string(s)) return s;
  }
  return std::nullopt;
}

}  // namespace keff
