#pragma once
// `keff data generate|convert|info`: nuclear-data library tools.
#include "mpi/communicator.hpp"

#include <stdexcept>
#include <string_view>
#include <vector>

namespace keff {

// A malformed command line; the CLI prints it with a pointer to --help and exits with status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Returns the exit status; throws UsageError for a bad command line.
int data_command(const std::vector<std::string_view>& args, const Communicator& comm);

}  // namespace keff
