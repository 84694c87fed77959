#include "src/cli/result_plots.hpp"

#include "io/printable.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <vector>

extern char** environ;

namespace keff {

namespace {

std::string from_env(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return (v && *v) ? v : fallback;
}

// The child's exit status, or -1 with `why` set when it could not be started or did not exit.
int run_child(const std::vector<std::string>& argv, std::string& why) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int err = ::posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ);
  if (err != 0) {
    why = "cannot start '" + printable(argv[0]) + "': " + std::strerror(err);
    return -1;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      why = std::string("waiting for it: ") + std::strerror(errno);
      return -1;
    }
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  why = "it was ended by signal " + std::to_string(WTERMSIG(status));
  return -1;
}

// An installed keff finds the package at its place beside the executable (cmake --install); one run from
// its build tree, in the checkout it was built from.
std::string default_results_package() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto installed = (exe.parent_path() / KEFF_RESULTS_INSTALLED).lexically_normal();
    if (std::filesystem::is_directory(installed, ec)) return installed.string();
  }
  return KEFF_RESULTS_PACKAGE;
}

}  // namespace

void draw_result_plots(const std::string& statepoint, const std::string& dir, std::ostream* log) {
  const std::string python = from_env("KEFF_PYTHON", "python3");
  const std::string package = from_env("KEFF_RESULTS_PACKAGE", default_results_package());
  const auto warn = [&](const std::string& what) {
    std::cerr << "keff: warning: no result plots in '" << printable(dir) << "': " << what << std::endl;
  };
  std::error_code ec;
  if (!std::filesystem::is_directory(package, ec)) {
    warn("the Python package '" + printable(package) + "' is not there (set KEFF_RESULTS_PACKAGE to the checkout's "
         "scripts/keff_results); the statepoint holds every result");
    return;
  }
  if (log) log->flush();
  std::string why;
  const int status = run_child({python, package, "all", statepoint, "--out", dir}, why);
  if (status == 0) {
    if (log) *log << " Plots:      " << dir << "\n";
  } else if (status == 3) {
    warn("Python lacks numpy, h5py or matplotlib (it said which above)");
  } else if (status < 0) {
    warn(why + " (set KEFF_PYTHON to a Python 3 with numpy, h5py and matplotlib)");
  } else {  // it may have drawn some pictures first (it printed each path as it wrote it)
    std::cerr << "keff: warning: the result plots in '" << printable(dir) << "' are incomplete: " << printable(python)
              << " " << printable(package) << " exited with status " << status
              << " (its message is above, after the pictures it wrote)" << std::endl;
  }
}

}  // namespace keff
