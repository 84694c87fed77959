#pragma once
// The run cannot go on: too many lost particles, no fission sites, an initial source that found no
// fissionable material, memory that is not there. what() says which and where. Thrown by the driver, the
// memory checks and CMFD alike, and reported by the CLI with exit status 1. Host only; no Kokkos.
#include <stdexcept>

namespace keff {

class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace keff
