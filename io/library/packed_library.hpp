#pragma once
// A NuclideLibrary (or a contiguous run of its nuclides) as two flat buffers, for moving it between
// ranks in a few large messages and for one copy per node in MPI shared memory.
//
//   ints (int64):   n_nuclides, then per nuclide: id, fissile (0/1), points, name length, the name's
//                   bytes packed 8 to a word (little-endian, zero-padded)
//   reals (double): per nuclide: awr, nu0, nu1, watt_a, watt_b, then energy, elastic, capture, fission
//                   (points values each)
//
// A buffer pair describes its nuclides completely, so the pairs from several readers are unpacked one
// after the other to rebuild the whole library in order.
#include "io/library/nuclear_data.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace keff {

struct PackedSizes {
  std::size_t ints = 0;
  std::size_t reals = 0;
};

struct PackedLibrary {
  std::vector<std::int64_t> ints;
  std::vector<double> reals;
};

// Sizes of nuclides [first, first + count) of `library` once packed.
PackedSizes packed_sizes(const NuclideLibrary& library, std::size_t first, std::size_t count);
PackedSizes packed_sizes(const NuclideLibrary& library);

// Packs nuclides [first, first + count) into buffers of exactly packed_sizes(...).
void pack_into(const NuclideLibrary& library, std::size_t first, std::size_t count, std::span<std::int64_t> ints,
               std::span<double> reals);
PackedLibrary pack(const NuclideLibrary& library);

// Appends the nuclides of one packed buffer pair to `library`. Throws DataError if the buffers are
// inconsistent (which only a bug or a damaged message can cause).
void unpack_append(std::span<const std::int64_t> ints, std::span<const double> reals, NuclideLibrary& library);
NuclideLibrary unpack(std::span<const std::int64_t> ints, std::span<const double> reals);

// A checksum of the whole packed library: equal checksums mean equal names, ids, flags and every
// double's bits, which is how the strategies are compared with each other and with generated data.
std::uint64_t library_checksum(const NuclideLibrary& library);

}  // namespace keff
