#include "src/cli/input_command.hpp"

#include "io/input/settings_rows.hpp"
#include "src/cli/run_options.hpp"

#include <iostream>

namespace keff {

namespace {

constexpr const char* input_usage =
    "usage: keff input settings\n"
    "\n"
    "settings lists the keys of an input's [settings] table (nested tables' keys as \"event.slots\"), one\n"
    "per line, tab-separated: the key, its type, its default, its keff run flag (\"-\": none), whether a\n"
    "restart must match it (\"match\"), where it applies (\"any\", or \"continuous-energy\" alone), the values\n"
    "it allows and what it does. The reader, the flags, the defaults and restarts take them from the same\n"
    "rows (examples/INPUT.md describes each at length).\n";

}  // namespace

const char* input_usage_text() { return input_usage; }

int input_command(const std::vector<std::string_view>& args, const Communicator& comm) {
  if (args.size() != 1 || args[0] != "settings") throw UsageError("input: expected 'settings' (keff input settings)");
  if (comm.is_root()) std::cout << settings::listing();
  return 0;
}

}  // namespace keff
