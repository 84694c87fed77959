#include "io/output_path.hpp"

#include "io/input_file.hpp"
#include "io/output_error.hpp"
#include "io/printable.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string_view>

namespace keff {

namespace {

constexpr const char* allowed_text =
    "allowed: a regular file, or a new file in an existing, writable directory; symbolic links are followed";

[[noreturn]] void refuse(const std::string& what, const std::string& path, const std::string& reason) {
  throw OutputError(what + " '" + printable(path) + "': " + reason + " (" + allowed_text + ")");
}

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// This host's name as it may appear in a file name.
std::string host_tag() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "host";
  std::string out;
  for (const char* c = name; *c && out.size() < 64; ++c) {
    const bool ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-' ||
                    *c == '_' || *c == '.';
    out += ok ? *c : '_';
  }
  return out;
}

// Registered temporary files: fixed storage, so that a signal handler can read it without allocating.
constexpr int max_registered = 8;
constexpr std::size_t max_path = 4096;
std::array<std::atomic<bool>, max_registered> registered_used{};
char registered_path[max_registered][max_path];

}  // namespace

std::string resolve_output_path(const std::string& path, const std::string& what) {
  if (path.empty()) refuse(what, path, "the path is empty");
  std::string p = path;
  for (int hops = 0;; ++hops) {
    if (hops > 40) refuse(what, path, "too many levels of symbolic links");
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0) {
      if (errno == ENOENT) return p;  // a new file (its directory is checked by check_output_path)
      refuse(what, path, std::string("cannot examine '") + printable(p) + "': " + std::strerror(errno));
    }
    if (S_ISREG(st.st_mode)) return p;
    if (!S_ISLNK(st.st_mode)) {
      refuse(what, path, p == path ? std::string("it is ") + file_kind_text(st.st_mode)
                                   : "it is a link to '" + printable(p) + "', which is " + file_kind_text(st.st_mode));
    }
    std::string link(max_path, '\0');
    const ssize_t n = ::readlink(p.c_str(), link.data(), link.size());
    if (n < 0 || static_cast<std::size_t>(n) >= link.size()) {
      refuse(what, path, "cannot read the symbolic link '" + printable(p) + "'");
    }
    link.resize(static_cast<std::size_t>(n));
    p = (link.front() == '/' || p.find('/') == std::string::npos) ? link : directory_of(p) + "/" + link;
  }
}

std::string check_output_path(const std::string& path, const std::string& what) {
  const std::string target = resolve_output_path(path, what);
  const std::string dir = directory_of(target);
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    refuse(what, path, "its directory '" + printable(dir) + "' cannot be used: " + std::strerror(errno));
  }
  if (!S_ISDIR(st.st_mode)) refuse(what, path, "'" + printable(dir) + "' is not a directory");
  detail::remove_stale_temporaries(target);
  // The one reliable test that a file can be created there (permissions, read-only file systems, ACLs).
  const std::string probe = detail::temporary_path(target);
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    refuse(what, path, "cannot create a file in '" + printable(dir) + "': " + std::strerror(errno));
  }
  ::close(fd);
  ::unlink(probe.c_str());
  return target;
}

void check_not_an_input(const std::string& path, const std::string& what, const std::vector<InputFile>& inputs) {
  struct stat out {};
  if (::stat(path.c_str(), &out) != 0) return;  // a new file (or one resolve_output_path refuses)
  for (const InputFile& in : inputs) {
    struct stat st {};
    if (::stat(in.path.c_str(), &st) == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino) {
      throw OutputError(what + " '" + printable(path) + "' is " + in.what +
                        " (allowed: a file that is none of the command's inputs: its input file, restart file and nuclear-data "
                        "library files)");
    }
  }
}

bool same_output_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (std::filesystem::equivalent(a, b, ec)) return true;
  const auto ca = std::filesystem::weakly_canonical(a, ec);
  if (ec) return false;
  const auto cb = std::filesystem::weakly_canonical(b, ec);
  return !ec && ca == cb;
}

void check_command_outputs(const std::vector<OutputFile>& outputs, const std::vector<InputFile>& inputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const OutputFile& o = outputs[i];
    check_output_path(o.path, o.what);
    check_not_an_input(o.path, o.what, inputs);
    for (std::size_t j = 0; j < i; ++j) {
      if (same_output_file(o.path, outputs[j].path)) {
        throw OutputError(o.what + " '" + printable(o.path) + "' is also " + outputs[j].what + " '" +
                          printable(outputs[j].path) + "' (allowed: a file no other output of the command writes)");
      }
    }
  }
}

namespace detail {

std::string temporary_path(const std::string& target) {
  return target + ".tmp." + host_tag() + "." + std::to_string(static_cast<long>(::getpid()));
}

namespace {

// Whether process `pid` lives and runs this same program. A live pid alone does not prove that the
// file's writer lives: pids are reused (pid_max is often 32768 and every thread takes one), and a writer
// killed with -9 can stay a zombie until its parent or init reaps it.
bool writer_alive(long pid) {
  if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return false;
  const std::string proc = "/proc/" + std::to_string(pid);
  if (std::FILE* f = std::fopen((proc + "/stat").c_str(), "r")) {
    // "<pid> (<comm>) <state> ...": the state follows the last ')' (comm may hold one).
    char line[512] = {};
    const std::size_t n = std::fread(line, 1, sizeof line - 1, f);
    std::fclose(f);
    const std::string_view stat(line, n);
    const auto close = stat.rfind(')');
    if (close != std::string_view::npos && close + 2 < stat.size() && (stat[close + 2] == 'Z' || stat[close + 2] == 'X')) {
      return false;
    }
  }
  const auto executable = [](const std::string& link, int& error) {
    char buf[4096];
    const ssize_t n = ::readlink(link.c_str(), buf, sizeof buf - 1);
    error = n > 0 ? 0 : errno;
    return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
  };
  int error = 0, own_error = 0;
  const std::string theirs = executable(proc + "/exe", error);
  const std::string ours = executable("/proc/self/exe", own_error);
  // Not ours to read (another user's process) or no /proc: assume a writer and leave its file.
  if (theirs.empty()) return error == EACCES || error == EPERM || ours.empty();
  return theirs == ours;
}

}  // namespace

void remove_stale_temporaries(const std::string& target) {
  const std::string dir = directory_of(target);
  const std::string prefix = base_name(target) + ".tmp." + host_tag() + ".";
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  while (const dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    if (!name.starts_with(prefix) || name.size() == prefix.size() || name.size() - prefix.size() > 10) continue;
    const std::string_view digits = name.substr(prefix.size());
    if (digits.find_first_not_of("0123456789") != std::string_view::npos) continue;
    const long pid = std::stol(std::string(digits));
    // Ours, or a live keff's (a run writing this very target right now): leave it.
    if (pid == static_cast<long>(::getpid()) || pid <= 0 || pid > 2147483647L) continue;
    if (writer_alive(pid)) continue;
    const std::string file = dir + "/" + std::string(name);
    struct stat st {};
    if (::lstat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode)) ::unlink(file.c_str());
  }
  ::closedir(d);
}

RegisteredTemporary::RegisteredTemporary(const std::string& path) {
  if (path.size() >= max_path) return;
  for (int i = 0; i < max_registered; ++i) {
    if (registered_used[static_cast<std::size_t>(i)].load()) continue;
    std::memcpy(registered_path[i], path.c_str(), path.size() + 1);
    registered_used[static_cast<std::size_t>(i)].store(true);
    slot_ = i;
    return;
  }
}

RegisteredTemporary::~RegisteredTemporary() {
  if (slot_ >= 0) registered_used[static_cast<std::size_t>(slot_)].store(false);
}

}  // namespace detail

void remove_registered_temporaries() noexcept {
  for (int i = 0; i < max_registered; ++i) {
    if (registered_used[static_cast<std::size_t>(i)].load()) ::unlink(registered_path[i]);
  }
}

}  // namespace keff
