#pragma once
// Where an output file really goes, and whether it can go there: the rules every output of keff
// follows (the statepoint, the JSON summary, the nuclear-data libraries keff writes).
//
//  - An empty path is refused.
//  - Symbolic links are followed to their final target, which is what gets replaced: the link stays.
//  - The target is a regular file or does not exist yet. A directory, a device (/dev/null, /dev/full),
//    a FIFO or a socket is refused: replacing it by renaming a regular file over it (which is how an
//    atomic write publishes a file) would destroy it, even as root.
//  - The target's directory exists and a file can be created in it.
//
// Temporary files are "<target>.tmp.<host>.<pid>" beside the target. One that a killed process left
// behind is recognised by a later write to the same target on the same host (its process is gone) and
// removed. While one exists, it is registered, so that a signal handler can remove it
// (remove_registered_temporaries, async-signal-safe).
#include <string>
#include <vector>

namespace keff {

// The path an output named `path` is written to: `path` with every symbolic link on it followed. Throws
// OutputError("<what> '<path>': <reason> (allowed: ...)") for an empty path, a link loop, or a target
// that exists and is not a regular file.
std::string resolve_output_path(const std::string& path, const std::string& what);

// resolve_output_path, then checks that the target's directory exists and that a file can be created
// in it (by creating and removing one), and removes stale temporary files of this target. For checking
// outputs before a run starts. Returns the resolved path.
std::string check_output_path(const std::string& path, const std::string& what);

// A file or directory a command reads, and what a message calls it ("the input file", "the file
// 'lib/z09x/Z092/U235.txt' of the nuclear-data library 'lib'").
struct InputFile {
  std::string path;
  std::string what;
};

// Throws OutputError("<what> '<path>' is <input's what> (allowed: ...)") when the output `path`, links
// followed, is one of `inputs`: the same file by identity (device and inode, links followed), so that a
// second name, a symbolic link or a hard link to an input counts as the input. An output that does not
// exist yet is none of them.
void check_not_an_input(const std::string& path, const std::string& what, const std::vector<InputFile>& inputs);

// Whether two output paths name one file: the same existing file, or the same target once symbolic
// links are followed and the paths made absolute (for files that do not exist yet).
bool same_output_file(const std::string& a, const std::string& b);

// An output of a command, and what a message calls it ("--json", "the legend of plot 'core'").
struct OutputFile {
  std::string path;
  std::string what;
};

// Every output of a command, checked before it starts: each can be written (check_output_path), none is
// one of `inputs` (check_not_an_input), and no two are one file, so that no output replaces an input or
// another output. Throws OutputError naming the output and what it would replace.
void check_command_outputs(const std::vector<OutputFile>& outputs, const std::vector<InputFile>& inputs);

namespace detail {

// "<target>.tmp.<host>.<pid>" for a resolved target.
std::string temporary_path(const std::string& target);

// Removes "<target>.tmp.<host>.<pid>" files of this host whose process no longer exists (killed while
// writing). Regular files only; anything else by that name is left alone.
void remove_stale_temporaries(const std::string& target);

// Registers a temporary file for remove_registered_temporaries while it lives; RAII.
class RegisteredTemporary {
 public:
  explicit RegisteredTemporary(const std::string& path);
  ~RegisteredTemporary();
  RegisteredTemporary(const RegisteredTemporary&) = delete;
  RegisteredTemporary& operator=(const RegisteredTemporary&) = delete;

 private:
  int slot_ = -1;
};

}  // namespace detail

// Unlinks every registered temporary file. Async-signal-safe: for a signal handler that is about to end
// the process.
void remove_registered_temporaries() noexcept;

}  // namespace keff
