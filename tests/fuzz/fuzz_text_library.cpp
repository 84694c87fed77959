// libFuzzer target: any bytes as a text nuclear-data library: up to the first NUL the index.txt, after
// it the file of the index's first nuclide (wherever the index puts it, within the library directory).
// Opening and reading the library must return it or throw DataError; anything else (another exception,
// a crash, a hang, a sanitizer report, an allocation the announced sizes would not bound) is a bug.
#include "io/library/data_error.hpp"
#include "io/library/text_library.hpp"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace {

namespace fs = std::filesystem;

const fs::path& library_dir() {
  static const fs::path dir = fs::temp_directory_path() / ("keff_fuzz_text_" + std::to_string(::getpid()));
  return dir;
}

void write(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The file column of the index's first entry line ("<name> <id> <points> <file>"), if it is a plain
// relative path inside the directory.
std::string first_file(std::string_view index) {
  std::size_t at = 0;
  while (at < index.size()) {
    const std::size_t end = std::min(index.find('\n', at), index.size());
    const std::string_view line = index.substr(at, end - at);
    at = end + 1;
    if (line.empty() || line.front() == '#' || line.starts_with("nuclides")) continue;
    const std::size_t last = line.find_last_of(" \t");
    if (last == std::string_view::npos) return {};
    std::string file(line.substr(last + 1));
    if (!file.empty() && file.back() == '\r') file.pop_back();
    if (file.empty() || file.front() == '/' || file.find("..") != std::string::npos || file.find('\0') != std::string::npos) {
      return {};
    }
    return file;
  }
  return {};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = bytes.find('\0');
  const std::string_view index = bytes.substr(0, nul);
  const std::string_view nuclide = nul == std::string_view::npos ? std::string_view() : bytes.substr(nul + 1);
  const fs::path& dir = library_dir();
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir, ec);
  write(dir / "index.txt", index);
  if (const std::string file = first_file(index); !file.empty()) {
    const fs::path path = dir / file;
    fs::create_directories(path.parent_path(), ec);
    if (!ec) write(path, nuclide);
  }
  try {
    const auto reader = keff::open_text_library(dir.string());
    (void)reader->input_files();
    (void)reader->read_all();
  } catch (const keff::DataError&) {
  }
  return 0;
}
