#pragma once
// Files keff reads. Every input goes through here before it is opened: the TOML problem, a restart
// statepoint, an HDF5 nuclear-data library, a text library's directory, index and nuclide files.
//
//  - Only a regular file is read (symbolic links followed). A FIFO blocks open() until a writer comes,
//    for ever; a character device (/dev/zero, /dev/urandom) gives bytes without end, and opening some
//    devices does something (a watchdog, a tape). So the kind is checked with stat(), before any open(),
//    and again on the opened descriptor (what the path names may change in between).
//  - A regular file is read only up to a size its reader states (io/limits.hpp): the bytes of a file
//    are no bound on what a reader would otherwise allocate for them.
//
// The messages name the path, what it is and what is allowed:
//   "'in.toml': it is a FIFO (named pipe) (allowed: a regular file; symbolic links are followed)"
// Readers put their own context in front ("cannot open input file ...") and throw their own error type.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace keff {

// A path that cannot be read as the file it should be; what() is the message above.
class InputFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "a directory", "a character device", "a FIFO (named pipe)", ... for a stat() st_mode: what the
// input and output checks both call a file that is not a regular one.
const char* file_kind_text(unsigned mode);

// What `path` names, links followed: nothing, a regular file, a directory, or something else (a FIFO,
// a device, a socket) or a path that cannot be examined.
enum class FileKind { missing, regular, directory, other };
FileKind file_kind(const std::string& path);

// The kind of file `path` names (links followed), as a message says it: "" for a regular file, else
// "it is a directory", "it is a FIFO (named pipe)", "it is a character device", "it does not exist", ...
std::string file_kind_problem(const std::string& path);

// Throws InputFileError unless `path` (links followed) is a regular file. For readers that open the
// file themselves (HDF5).
void require_regular_file(const std::string& path);

// Throws InputFileError unless `path` (links followed) is a directory (a text library).
void require_directory(const std::string& path);

// The whole content of the regular file `path`, which must hold at most `max_bytes` bytes. Throws
// InputFileError naming the path and the kind, the size and the limit, or the system's reason.
std::string read_regular_file(const std::string& path, std::int64_t max_bytes);

}  // namespace keff
