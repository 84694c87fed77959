#pragma once
// The sampled geometry check as the host-only CLI sees it: no Kokkos header, so cli.cpp compiles with
// the host compiler in every build (like src/driver/run.hpp). Behind it is kernels/geometry_check.hpp.
#include "io/input/model.hpp"
#include "mpi/communicator.hpp"
#include "src/host/geometry_report.hpp"

#include <cstdint>

namespace keff {

// Checks `points` points drawn uniformly in the geometry's bounding box (the source box if the geometry
// has none) for overlaps and gaps (kernels/geometry_check.hpp says what counts). The points are split
// over the ranks of `comm`; collective. Every rank gets the counts, rank 0 the findings; the result does
// not depend on the rank or thread count. Throws std::invalid_argument for a geometry the builder refuses,
// and Interrupted on every rank when any rank receives SIGINT or SIGTERM (asked after each chunk of
// points, src/host/interrupt.hpp).
GeometryCheck check_geometry(const model::Problem& problem, const Communicator& comm, std::int64_t points);

}  // namespace keff
