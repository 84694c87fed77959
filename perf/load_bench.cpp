// Nuclear-data loading benchmark: the time for every rank of a run to hold a library in memory, by one
// load strategy. Each repeat is barrier-synchronised (barrier; t0; load; barrier; t1), so it measures
// the slowest rank; rank 0 prints one CSV line with the median, min and max over the repeats and the
// library's checksum (equal for every strategy and rank count, or the loaders disagree).
//
//   load_bench --library PATH [--load all|root|readers|node] [--readers K] [--repeats R] [--header]
#include "io/library/library_loader.hpp"
#include "io/library/packed_library.hpp"
#include "mpi/communicator.hpp"

#include <mpi.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct Options {
  std::string library;
  keff::LoadSpec spec;
  int repeats = 5;
  bool header = false;
};

int to_int(std::string_view flag, std::string_view text) {
  int v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < 1) {
    throw std::invalid_argument(std::string(flag) + ": expected an integer >= 1, got '" + std::string(text) + "'");
  }
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const auto value = [&]() -> std::string_view {
      if (i + 1 >= argc) throw std::invalid_argument(std::string(a) + " needs a value");
      return argv[++i];
    };
    if (a == "--library") {
      o.library = std::string(value());
    } else if (a == "--load") {
      const auto s = keff::enum_from_name<keff::LoadStrategy>(value());
      if (!s) throw std::invalid_argument("--load: allowed: all, root, readers, node");
      o.spec.strategy = *s;
    } else if (a == "--readers") {
      o.spec.readers = to_int(a, value());
    } else if (a == "--repeats") {
      o.repeats = to_int(a, value());
    } else if (a == "--header") {
      o.header = true;
    } else if (!a.starts_with("--kokkos")) {
      throw std::invalid_argument("unknown argument '" + std::string(a) + "'");
    }
  }
  if (o.library.empty()) throw std::invalid_argument("--library PATH is required");
  return o;
}

int run(int argc, char** argv) {
  const keff::Communicator comm;
  const Options o = parse(argc, argv);
  std::vector<double> seconds;
  keff::LoadReport report;
  std::uint64_t checksum = 0;
  for (int r = 0; r < o.repeats; ++r) {
    comm.barrier();
    const double t0 = MPI_Wtime();
    keff::NuclideLibrary lib = keff::load_library(o.library, o.spec, comm, &report);
    comm.barrier();
    seconds.push_back(MPI_Wtime() - t0);
    if (r == 0) {
      // Every rank must hold the same bits: the largest and smallest checksum over ranks must agree.
      checksum = keff::library_checksum(lib);
      const auto mine = static_cast<std::int64_t>(checksum);
      if (comm.max(mine) != -comm.max(-mine)) throw std::runtime_error("ranks loaded different libraries");
    }
  }
  std::sort(seconds.begin(), seconds.end());
  const std::size_t n = seconds.size();
  const double median = n % 2 ? seconds[n / 2] : 0.5 * (seconds[n / 2 - 1] + seconds[n / 2]);
  if (comm.is_root()) {
    if (o.header) std::printf("format,strategy,readers,ranks,repeats,median_s,min_s,max_s,megabytes,checksum\n");
    const std::string strategy = o.spec.strategy == keff::LoadStrategy::readers
                                     ? "readers=" + std::to_string(report.readers)
                                     : std::string(keff::name_of(o.spec.strategy));
    std::printf("%s,%s,%d,%d,%d,%.6f,%.6f,%.6f,%.1f,%016llx\n", report.format.c_str(), strategy.c_str(),
                report.readers, comm.size(), o.repeats, median, seconds.front(), seconds.back(),
                1e-6 * static_cast<double>(report.bytes), static_cast<unsigned long long>(checksum));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int status = 0;
  try {
    status = run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "load_bench: error: %s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}
