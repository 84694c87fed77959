#pragma once
// Atomic replacement of an output file, shared by the statepoint and the JSON summary: write a
// temporary file next to the target, then rename it over the target. A reader (or a restart after a
// crash) sees the old file or the new one, never half of one.
#include "io/output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

namespace keff::detail {

// "<path>.tmp.<pid>": in the same directory, so the rename never crosses file systems (where it would
// not be atomic), and unique per process, so concurrent runs never write the same temporary file.
inline std::string temporary_path(const std::string& path) {
  return path + ".tmp." + std::to_string(static_cast<long>(::getpid()));
}

// Calls write(temporary) and renames the temporary onto `path`. On any failure the temporary file is
// removed and OutputError is thrown (an OutputError from `write` passes through unchanged).
template <class Write>
void write_atomically(const std::string& path, Write&& write) {
  const std::string tmp = temporary_path(path);
  try {
    write(tmp);
  } catch (const OutputError&) {
    std::remove(tmp.c_str());
    throw;
  } catch (const std::exception& e) {
    std::remove(tmp.c_str());
    throw OutputError("cannot write '" + path + "': " + e.what());
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(tmp.c_str());
    throw OutputError("cannot rename '" + tmp + "' to '" + path + "': " + reason);
  }
}

}  // namespace keff::detail
