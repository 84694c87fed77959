// Host-side continuous-energy nuclear data.
#include "io/nuclear_data.hpp"

namespace keff {

int NuclideLibrary::find(const std::string& name) const {
  for (std::size_t i = 0; i < nuclides.size(); ++i) {
    if (nuclides[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace keff
