#pragma once
// Atomic replacement of an output file, shared by the statepoint, the JSON summary and the libraries keff
// writes: write a temporary file next to the target, then rename it over the target. A reader (or a
// restart after a crash) sees the old file or the new one, never half of one. The target is the path
// with its symbolic links followed, and must be a regular file or absent (io/output_path.hpp): a device,
// a FIFO or a directory is never replaced.
#include "io/output.hpp"
#include "io/output_path.hpp"
#include "io/printable.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

namespace keff::detail {

// Calls write(temporary) and renames the temporary onto the resolved target of `path`. On any failure
// the temporary file is removed and OutputError is thrown (an OutputError from `write` passes through
// unchanged). Temporaries of this target that a killed process left behind are removed first.
template <class Write>
void write_atomically(const std::string& path, Write&& write) {
  const std::string target = resolve_output_path(path, "output file");
  remove_stale_temporaries(target);
  const std::string tmp = temporary_path(target);
  const RegisteredTemporary registered(tmp);  // a signal handler removes it if the process is ended meanwhile
  try {
    write(tmp);
  } catch (const OutputError&) {
    std::remove(tmp.c_str());
    throw;
  } catch (const std::exception& e) {
    std::remove(tmp.c_str());
    throw OutputError("cannot write '" + printable(path) + "': " + e.what());
  }
  try {
    // What the path points at may have changed while the file was written.
    if (resolve_output_path(path, "output file") != target) {
      throw OutputError("output file '" + printable(path) + "' changed while it was written");
    }
  } catch (const OutputError&) {
    std::remove(tmp.c_str());
    throw;
  }
  if (std::rename(tmp.c_str(), target.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(tmp.c_str());
    throw OutputError("cannot rename '" + printable(tmp) + "' to '" + printable(target) + "': " + reason);
  }
}

}  // namespace keff::detail
