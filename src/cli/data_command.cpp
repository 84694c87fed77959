// `keff data generate|convert|info|ace`. Rank 0 does the work (one writer, one reader); the other ranks
// wait for its verdict, so under mpiexec every rank exits with the same status.
#include "src/cli/data_command.hpp"

#include "src/cli/ace_info.hpp"

#include "io/input_file.hpp"
#include "io/library/ace/xsdir.hpp"
#include "io/library/data_error.hpp"
#include "io/library/hdf5_library.hpp"
#include "io/library/library_reader.hpp"
#include "io/library/packed_library.hpp"
#include "io/library/text_library.hpp"
#include "io/limits.hpp"
#include "io/output_error.hpp"
#include "io/output_path.hpp"
#include "io/printable.hpp"
#include "mpi/bulk_transfer.hpp"
#include "src/host/interrupt.hpp"
#include "src/host/memory_check.hpp"
#include "src/host/run_error.hpp"
#include "src/host/synthetic_data.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>
#include <string>

namespace keff {

namespace {

constexpr const char* data_usage =
    "usage: keff data <command> ...\n"
    "\n"
    "Nuclear-data library tools (formats: io/library/LIBRARY_FORMAT.md).\n"
    "\n"
    "  keff data generate --format h5|text --out PATH [--nuclides N] [--gridpoints G] [--seed S] [--flat]\n"
    "                     [--moderators C12,C13,H2,Be9]\n"
    "      write the synthetic library (defaults: 68 nuclides x 11303 points, seed 20251; 355 nuclides is\n"
    "      Hoogenboom-Martin large) as one HDF5 file or as a text-library directory; --moderators appends\n"
    "      those light moderators after them, as a run does for the ones its materials name\n"
    "  keff data convert TEXT_DIR OUT.h5\n"
    "      convert a text library to an HDF5 library (the same doubles, bit for bit)\n"
    "  keff data info PATH\n"
    "      read and verify a library (HDF5 file or text directory) and describe it\n"
    "  keff data ace [XSDIR] [NUCLIDE...] [--reactions]\n"
    "      read and verify the neutron tables of an ACE library (default: $KEFF_ACE_LIBRARY) and describe\n"
    "      them; --reactions lists each reaction's Q, threshold, frame, neutrons and energy laws\n"
    "\n"
    "Each estimates the memory it needs first and stops if the host has less available, unless given\n"
    "--allow-oversubscribed-memory.\n";

// The memory a library takes on the host, and an HDF5 file of it built in memory (io/hdf5_file.hpp):
// four doubles per point, and per nuclide its name, scalars and (in HDF5) its group and attributes.
double library_bytes(double nuclides, double points) { return 32.0 * points + 256.0 * nuclides; }
double hdf5_image_bytes(double nuclides, double points) {
  return library_bytes(nuclides, points) + 4096.0 * nuclides + 16.0 * (1 << 20);
}
constexpr const char* allow_flag = "--allow-oversubscribed-memory";

// Removes `flag` from `args`; whether it was there.
bool take_flag(std::vector<std::string_view>& args, std::string_view flag) {
  const auto at = std::find(args.begin(), args.end(), flag);
  if (at == args.end()) return false;
  args.erase(at);
  return true;
}

// Runs `work` on rank 0 and makes its failure every rank's: an output that could not be written (a full
// disk) or memory that is not there fail like a run (RunError, status 1), a signal stops every rank
// (Interrupted, 128 + the signal), anything else is a DataError (status 2).
void on_root(const Communicator& comm, const std::function<void()>& work) {
  std::optional<std::string> error;
  bool failed = false;  // the work failed (status 1), rather than its input (status 2)
  int signal = 0;
  if (comm.is_root()) {
    try {
      work();
    } catch (const OutputError& e) {
      error = e.what();
      failed = true;
    } catch (const RunError& e) {  // not enough memory
      error = e.what();
      failed = true;
    } catch (const Interrupted& e) {
      error = e.during();
      signal = e.signal();
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  const auto first = first_error(error, comm.get());
  if (const int sig = static_cast<int>(comm.max(signal))) throw Interrupted(sig, *first);
  if (comm.any(failed)) throw RunError(*first);
  if (first) throw DataError(*first);
}

// An output path refused before anything is generated or read: a usage error (status 2).
void check_out(const std::string& path, const std::string& what) {
  try {
    check_output_path(path, what);
  } catch (const OutputError& e) {
    throw DataError(e.what());
  }
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// `--moderators C12,H2`: each a synthetic moderator (src/host/synthetic_data.hpp), once.
std::vector<std::string> moderator_list(std::string_view text) {
  std::vector<std::string> names;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    const std::string name(text.substr(begin, end - begin));
    if (synthetic_moderator_index(name) < 0) {
      throw UsageError("data generate: --moderators: '" + printable(name) +
                       "' is not a synthetic moderator (allowed: C12, C13, H2, Be9, comma-separated)");
    }
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      throw UsageError("data generate: --moderators: '" + name + "' is named twice (allowed: each once)");
    }
    names.push_back(name);
    begin = end + 1;
  }
  return names;
}

int generate(std::vector<std::string_view> args, const Communicator& comm) {
  const bool allow = take_flag(args, allow_flag);
  SyntheticDataSpec spec;
  std::optional<std::string> format, out;
  std::vector<std::string> moderators;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    const auto value = [&]() -> std::string_view {
      if (i + 1 >= args.size()) throw UsageError("data generate: " + std::string(a) + " needs a value");
      return args[++i];
    };
    if (a == "--format") {
      format = std::string(value());
      if (*format != "h5" && *format != "text") {
        throw UsageError("data generate: --format '" + printable(*format) + "' is not allowed (allowed: h5, text)");
      }
    } else if (a == "--out") {
      out = std::string(value());
    } else if (a == "--nuclides") {
      spec.nuclides = static_cast<int>(parse_integer(a, value(), 1, limits::max_nuclides));
    } else if (a == "--gridpoints") {
      spec.gridpoints = static_cast<int>(parse_integer(a, value(), 2, limits::max_gridpoints));
    } else if (a == "--seed") {
      spec.seed = static_cast<std::uint64_t>(parse_integer(a, value(), 0, limits::int64_max));
    } else if (a == "--flat") {
      spec.flat = true;
    } else if (a == "--moderators") {
      moderators = moderator_list(value());
    } else {
      throw UsageError("data generate: unknown argument '" + printable(a) + "'");
    }
  }
  if (!format) throw UsageError("data generate: --format is required (allowed: h5, text)");
  if (!out || out->empty()) throw UsageError("data generate: --out PATH is required (allowed: a non-empty path)");
  if (!limits::checked_product(limits::max_total_gridpoints, spec.nuclides, spec.gridpoints)) {
    throw UsageError("data generate: " + std::to_string(spec.nuclides) + " nuclides x " +
                     std::to_string(spec.gridpoints) + " points are too many (allowed: nuclides x gridpoints <= " +
                     limits::number_text(limits::max_total_gridpoints) + ")");
  }
  on_root(comm, [&] {
    if (*format == "h5") check_out(*out, "data generate: --out");
    if (*format == "text" && file_kind(*out) != FileKind::missing && file_kind(*out) != FileKind::directory) {
      throw DataError("data generate: --out '" + printable(*out) + "': " + file_kind_problem(*out) +
                      " (allowed: a directory for a text library, new or existing)");
    }
    // 65536 nuclides x 32767 points is within every limit and still 69 GB: estimated before generating.
    const double n = spec.nuclides + static_cast<double>(moderators.size()), points = n * spec.gridpoints;
    if (*format == "h5") {
      check_memory_here("data generate", {{"generated nuclides", library_bytes(n, points)},
                                          {"HDF5 file image", hdf5_image_bytes(n, points)}},
                        static_cast<double>(host_memory_available()), allow, allow_flag);
    } else {
      check_memory_here("data generate", {{"generated nuclides", library_bytes(n, points)},
                                          {"text of one nuclide", 128.0 * spec.gridpoints}},
                        static_cast<double>(host_memory_available()), allow, allow_flag);
    }
    const auto start = std::chrono::steady_clock::now();
    const NuclideLibrary lib = generate_synthetic_library(spec, moderators);
    if (*format == "h5") {
      write_hdf5_library(*out, lib);
    } else {
      write_text_library(*out, lib);
    }
    std::printf("wrote %s library '%s': %d nuclides x %d points (seed %llu%s) in %.2f s\n",
                format->c_str(), out->c_str(), static_cast<int>(lib.nuclides.size()), spec.gridpoints,
                static_cast<unsigned long long>(spec.seed), spec.flat ? ", flat" : "", seconds_since(start));
  });
  return 0;
}

// The points a library's index announces, and its nuclides.
std::pair<double, double> index_size(const LibraryReader& reader) {
  double points = 0;
  for (const auto& e : reader.index()) points += static_cast<double>(e.points);
  return {static_cast<double>(reader.size()), points};
}

int convert(std::vector<std::string_view> args, const Communicator& comm) {
  const bool allow = take_flag(args, allow_flag);
  if (args.size() != 2) throw UsageError("data convert: expected TEXT_DIR OUT.h5");
  const std::string in(args[0]), out(args[1]);
  on_root(comm, [&] {
    const auto start = std::chrono::steady_clock::now();
    std::error_code ec;
    if (!std::filesystem::is_directory(in, ec)) throw DataError(in + ": not a text-library directory");
    const auto reader = open_text_library(in);
    // Every file of the library is read before the output is written, but replacing one would still
    // destroy the library the user converts.
    check_out(out, "data convert: OUT.h5");
    try {
      check_not_an_input(out, "data convert: OUT.h5", reader->input_files());
    } catch (const OutputError& e) {
      throw DataError(e.what());
    }
    const auto [n, points] = index_size(*reader);
    check_memory_here("data convert", {{"library read", library_bytes(n, points)},
                                       {"HDF5 file image", hdf5_image_bytes(n, points)}},
                      static_cast<double>(host_memory_available()), allow, allow_flag);
    const NuclideLibrary lib = reader->read_all();
    write_hdf5_library(out, lib);
    std::printf("converted text library '%s' to '%s': %zu nuclides in %.2f s (checksum %016llx)\n", in.c_str(),
                out.c_str(), lib.nuclides.size(), seconds_since(start),
                static_cast<unsigned long long>(library_checksum(lib)));
  });
  return 0;
}

int info(std::vector<std::string_view> args, const Communicator& comm) {
  const bool allow = take_flag(args, allow_flag);
  if (args.size() != 1) throw UsageError("data info: expected PATH");
  const std::string path(args[0]);
  on_root(comm, [&] {
    const auto start = std::chrono::steady_clock::now();
    const auto reader = open_library(path);
    const auto [nuclides, points] = index_size(*reader);
    check_memory_here("data info", {{"library read", library_bytes(nuclides, points)}},
                      static_cast<double>(host_memory_available()), allow, allow_flag);
    const NuclideLibrary lib = reader->read_all();
    const double seconds = seconds_since(start);
    std::int64_t total = 0, fissile = 0, hi = 0;
    auto lo = static_cast<std::int64_t>(lib.nuclides.front().energy.size());
    for (const auto& n : lib.nuclides) {
      const auto p = static_cast<std::int64_t>(n.energy.size());
      total += p;
      lo = std::min(lo, p);
      hi = std::max(hi, p);
      if (n.fissile) ++fissile;
    }
    const PackedSizes s = packed_sizes(lib);
    std::printf("library        %s\n", path.c_str());
    std::printf("format         %s, version %lld\n", reader->format(), static_cast<long long>(reader->format_version()));
    std::printf("nuclides       %zu (%lld fissile)\n", lib.nuclides.size(), static_cast<long long>(fissile));
    if (lo == hi) {
      std::printf("grid points    %lld per nuclide, %lld in all\n", static_cast<long long>(lo), static_cast<long long>(total));
    } else {
      std::printf("grid points    %lld to %lld per nuclide, %lld in all\n", static_cast<long long>(lo),
                  static_cast<long long>(hi), static_cast<long long>(total));
    }
    std::printf("in memory      %.1f MB\n", 1e-6 * static_cast<double>(s.ints * 8 + s.reals * 8));
    std::printf("verified       every nuclide read and checked in %.3f s\n", seconds);
    std::printf("checksum       %016llx (of the data as loaded; equal for equal libraries in any format)\n",
                static_cast<unsigned long long>(library_checksum(lib)));
    std::string names;
    const std::size_t shown = std::min<std::size_t>(lib.nuclides.size(), 12);
    for (std::size_t i = 0; i < shown; ++i) {
      names += (i ? ", " : "") + lib.nuclides[i].name + " (" + std::to_string(lib.nuclides[i].id) + ")";
    }
    if (shown < lib.nuclides.size()) names += ", ...";
    std::printf("first          %s\n", names.c_str());
  });
  return 0;
}

int ace_tables(std::vector<std::string_view> args, const Communicator& comm) {
  const bool reactions = take_flag(args, "--reactions");
  std::string xsdir;
  std::vector<std::string> nuclides;
  for (std::string_view a : args) {
    if (a.substr(0, 2) == "--") throw UsageError("data ace: unknown flag '" + printable(a) + "' (allowed: --reactions)");
    if (xsdir.empty() && nuclides.empty() && ace::za_of_name(std::string(a)) == 0) {
      xsdir = a;
    } else {
      nuclides.emplace_back(a);
    }
  }
  if (xsdir.empty()) {
    const char* env = std::getenv("KEFF_ACE_LIBRARY");
    if (!env || !*env) throw UsageError("data ace: expected an xsdir (or set KEFF_ACE_LIBRARY)");
    xsdir = env;
  }
  on_root(comm, [&] { describe_ace_library(xsdir, nuclides, reactions); });
  return 0;
}

}  // namespace

const char* data_usage_text() { return data_usage; }

int data_command(const std::vector<std::string_view>& args, const Communicator& comm) {
  if (args.empty()) throw UsageError("'keff data' needs a command (allowed: generate, convert, info, ace)");
  const std::string_view cmd = args[0];
  const std::vector<std::string_view> rest(args.begin() + 1, args.end());
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    if (comm.is_root()) std::cout << data_usage;
    return 0;
  }
  if (cmd == "generate") return generate(rest, comm);
  if (cmd == "convert") return convert(rest, comm);
  if (cmd == "info") return info(rest, comm);
  if (cmd == "ace") return ace_tables(rest, comm);
  throw UsageError("unknown command 'keff data " + printable(cmd) + "' (allowed: generate, convert, info, ace)");
}

}  // namespace keff
