#pragma once
// The identity of a run's input, stored in statepoints so a restart can refuse one written by another
// problem. It covers the input text (the file's bytes, or the embedded default) and the settings a restart
// must match, as the run has them after its command line (the rows of io/input/settings_rows.hpp marked
// Restart::match: particles, inactive batches, seed, populations, ...); `--batches` and the statepoint path
// are left out, so a run can be continued past the batch count it was first given.
#include "io/input/model.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace keff {

std::uint64_t input_fingerprint(std::string_view input_text, const model::Settings& settings);

// The run as one rank sees it: the input text and every argument of `keff run`. Ranks compare it before
// the run's first collective, so ranks given different inputs or flags fail together instead of
// waiting in different collectives.
std::uint64_t run_fingerprint(std::string_view input_text, const std::vector<std::string_view>& arguments);

// "0x0123456789abcdef"
std::string fingerprint_text(std::uint64_t fingerprint);

}  // namespace keff
