#include "io/input_file.hpp"

#include "io/limits.hpp"
#include "io/printable.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace keff {

namespace {

constexpr const char* allowed_file = "allowed: a regular file; symbolic links are followed";

[[noreturn]] void refuse(const std::string& path, const std::string& problem, const char* allowed = allowed_file) {
  throw InputFileError("'" + printable(path) + "': " + problem + " (" + allowed + ")");
}

// What stat() says of `path`, as a message fragment; "" when it could be examined (then `st` is set).
std::string examine(const std::string& path, struct stat& st) {
  if (path.empty()) return "the path is empty";
  if (::stat(path.c_str(), &st) == 0) return {};
  if (errno == ENOENT) return "it does not exist";
  return std::string("it cannot be examined: ") + std::strerror(errno);
}

}  // namespace

const char* file_kind_text(unsigned mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISREG(mode)) return "a regular file";
  return "not a regular file";
}

FileKind file_kind(const std::string& path) {
  struct stat st {};
  if (path.empty()) return FileKind::other;
  if (::stat(path.c_str(), &st) != 0) return errno == ENOENT ? FileKind::missing : FileKind::other;
  if (S_ISREG(st.st_mode)) return FileKind::regular;
  return S_ISDIR(st.st_mode) ? FileKind::directory : FileKind::other;
}

std::string file_kind_problem(const std::string& path) {
  struct stat st {};
  if (std::string problem = examine(path, st); !problem.empty()) return problem;
  if (S_ISREG(st.st_mode)) return {};
  return std::string("it is ") + file_kind_text(st.st_mode);
}

void require_regular_file(const std::string& path) {
  if (const std::string problem = file_kind_problem(path); !problem.empty()) refuse(path, problem);
}

void require_directory(const std::string& path) {
  struct stat st {};
  std::string problem = examine(path, st);
  if (problem.empty() && !S_ISDIR(st.st_mode)) problem = std::string("it is ") + file_kind_text(st.st_mode);
  if (!problem.empty()) refuse(path, problem, "allowed: a directory; symbolic links are followed");
}

std::string read_regular_file(const std::string& path, std::int64_t max_bytes) {
  const std::string limit = "allowed: a regular file of at most " + limits::number_text(max_bytes) + " bytes";
  require_regular_file(path);  // before open(): opening a FIFO or a device already blocks or acts
  // O_NONBLOCK: should the path have become a FIFO since, open() returns at once instead of waiting for
  // a writer; the descriptor's own kind is checked next.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) refuse(path, std::string("it cannot be opened: ") + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) refuse(path, std::string("it cannot be examined: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) refuse(path, std::string("it is ") + file_kind_text(st.st_mode));
  if (st.st_size > max_bytes) refuse(path, "it holds " + std::to_string(st.st_size) + " bytes", limit.c_str());
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t at = 0;
  for (;;) {
    // Room past the announced size shows a file that grew while it was read, up to one byte past the
    // limit.
    if (at == text.size()) text.resize(static_cast<std::size_t>(std::min<std::int64_t>(static_cast<std::int64_t>(at) + 65536, max_bytes + 1)));
    const ssize_t n = ::read(fd, text.data() + at, text.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) refuse(path, std::string("it cannot be read: ") + std::strerror(errno));
    if (n == 0) break;
    at += static_cast<std::size_t>(n);
    if (static_cast<std::int64_t>(at) > max_bytes) {
      refuse(path, "it grew past " + std::to_string(max_bytes) + " bytes while it was read", limit.c_str());
    }
  }
  text.resize(at);
  return text;
}

}  // namespace keff
