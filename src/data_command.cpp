#include "src/data_command.hpp"

#include <string>

namespace keff {

int data_command(const std::vector<std::string_view>& args, const Communicator&) {
  throw UsageError("'keff data" + (args.empty() ? std::string() : " " + std::string(args[0])) +
                   "': nuclear-data library tools are not available yet");
}

}  // namespace keff
