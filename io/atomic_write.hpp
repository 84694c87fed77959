#pragma once
// Writing an output file, for every output of keff (the statepoint, the JSON summary, the libraries of
// `keff data`): the bytes are complete in memory first, then written by the system calls here, whose
// failures (a full disk, a quota, a file too large) are reported with the path the user gave and the
// system's reason, never only with a temporary file's name.
//
// Atomic replacement: the bytes go to a temporary file next to the target, are flushed to disk, and the
// temporary is renamed over the target. A reader (or a restart after a crash) sees the old file or the
// new one, never half of one. The target is the path with its symbolic links followed, and must be a
// regular file or absent (io/output_path.hpp): a device, a FIFO or a directory is never replaced.
#include <string>
#include <string_view>

namespace keff::detail {

// Writes `bytes` as the file `path` atomically. `what` names the file in messages ("the JSON summary").
// On any failure the temporary file is removed and OutputError is thrown:
//   "cannot write <what> '<path>': No space left on device (nothing was replaced)"
// Temporaries of this target that a killed process left behind are removed first.
void write_file_atomically(const std::string& path, std::string_view bytes, const std::string& what);

// Writes `bytes` to `path` directly (created or truncated), flushed to disk: for files that are not
// outputs of a run (test files). Throws OutputError naming the path and the system's reason.
void write_file(const std::string& path, std::string_view bytes, const std::string& what);

}  // namespace keff::detail
