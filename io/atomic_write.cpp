#include "io/atomic_write.hpp"

#include "io/output_error.hpp"
#include "io/output_path.hpp"
#include "io/printable.hpp"
#include "io/test_point.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace keff::detail {

namespace {

// Writes all of `bytes` to the open `fd` and flushes them to disk; "" or the system's reason.
std::string write_and_sync(int fd, std::string_view bytes) {
  std::size_t at = 0;
  while (at < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + at, bytes.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::strerror(errno);
    at += static_cast<std::size_t>(n);
  }
  // A full disk can show only here, when the file system allocates the blocks it had promised.
  for (;;) {
    if (::fsync(fd) == 0) break;
    if (errno == EINTR) continue;
    if (errno == EINVAL || errno == EROFS) break;  // a file system that cannot sync: nothing more to wait for
    return std::strerror(errno);
  }
  return {};
}

// Opens `path` with `flags`, writes and syncs `bytes`, closes: "" or the system's reason.
std::string write_new(const std::string& path, std::string_view bytes, int flags) {
  const int fd = ::open(path.c_str(), flags | O_WRONLY | O_CLOEXEC, 0644);
  if (fd < 0) return std::strerror(errno);
  std::string problem = write_and_sync(fd, bytes);
  if (::close(fd) != 0 && problem.empty()) problem = std::strerror(errno);
  return problem;
}

[[noreturn]] void fail(const std::string& what, const std::string& path, const std::string& reason) {
  throw OutputError("cannot write " + what + " '" + printable(path) + "': " + reason);
}

}  // namespace

void write_file_atomically(const std::string& path, std::string_view bytes, const std::string& what) {
  const std::string target = resolve_output_path(path, what);
  remove_stale_temporaries(target);
  const std::string tmp = temporary_path(target);
  const RegisteredTemporary registered(tmp);  // a signal handler removes it if the process is ended meanwhile
  // O_EXCL: never through a file or link someone put where the temporary goes.
  if (const std::string problem = write_new(tmp, bytes, O_CREAT | O_EXCL); !problem.empty()) {
    std::remove(tmp.c_str());
    fail(what, path, problem + " (nothing was replaced; the temporary file was removed)");
  }
  if (test_points_enabled()) {
    static int written = 0;
    test_point("write:" + std::to_string(++written));
  }
  // What the path points at may have changed while the file was written.
  std::string now;
  try {
    now = resolve_output_path(path, what);
  } catch (const OutputError&) {
    std::remove(tmp.c_str());
    throw;
  }
  if (now != target) {
    std::remove(tmp.c_str());
    fail(what, path, "it changed while it was written (nothing was replaced)");
  }
  if (std::rename(tmp.c_str(), target.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(tmp.c_str());
    fail(what, path, "cannot rename its temporary file '" + printable(tmp) + "' to '" + printable(target) + "': " + reason);
  }
}

void write_file(const std::string& path, std::string_view bytes, const std::string& what) {
  if (const std::string problem = write_new(path, bytes, O_CREAT | O_TRUNC); !problem.empty()) fail(what, path, problem);
}

}  // namespace keff::detail
