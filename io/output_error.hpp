#pragma once
// An output that cannot be written (a statepoint, the JSON summary, a library keff writes): what() names
// the file and the reason. Every writer throws it, the file basics included, so it lives here.
#include <stdexcept>

namespace keff {

class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace keff
