// Every load strategy gives every rank the same library, bit for bit, as generating it in memory; and
// a bad library is the same DataError on every rank, without a hang. Run at 1, 2 and 4 ranks.
#include "io/library/data_error.hpp"
#include "io/library/hdf5_library.hpp"
#include "io/library/library_loader.hpp"
#include "io/library/text_library.hpp"
#include "library_fixture.hpp"
#include "mpi/bulk_transfer.hpp"

namespace keff {
namespace {

namespace fs = std::filesystem;

class LoadStrategies : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const Communicator comm;
    dir_ = test::scratch_dir("load_strategies_np" + std::to_string(comm.size()));
    generated_ = new NuclideLibrary(generate_synthetic_library(test::small_spec()));
    if (comm.is_root()) {
      fs::remove_all(dir_);
      fs::create_directories(dir_);
      write_hdf5_library((dir_ / "lib.h5").string(), *generated_);
      write_text_library((dir_ / "text").string(), *generated_);
      fs::copy_file(dir_ / "lib.h5", dir_ / "truncated.h5");
      fs::resize_file(dir_ / "truncated.h5", fs::file_size(dir_ / "lib.h5") / 3);
    }
    comm.barrier();
  }
  static void TearDownTestSuite() { delete generated_; }

  static std::vector<LoadSpec> strategies() {
    return {{LoadStrategy::all, 1},     {LoadStrategy::root, 1},    {LoadStrategy::readers, 1},
            {LoadStrategy::readers, 2}, {LoadStrategy::readers, 3}, {LoadStrategy::readers, 4},
            {LoadStrategy::readers, 9}, {LoadStrategy::node, 1}};
  }
  static std::string describe(const LoadSpec& s) {
    return std::string(name_of(s.strategy)) + (s.strategy == LoadStrategy::readers ? "=" + std::to_string(s.readers) : "");
  }

  static inline fs::path dir_;
  static inline NuclideLibrary* generated_ = nullptr;
};

TEST_F(LoadStrategies, EveryStrategyGivesTheGeneratedDataOnEveryRank) {
  const Communicator comm;
  const std::uint64_t expected = library_checksum(*generated_);
  for (const char* file : {"lib.h5", "text"}) {
    for (const LoadSpec& spec : strategies()) {
      SCOPED_TRACE(std::string(file) + " " + describe(spec) + " rank " + std::to_string(comm.rank()));
      LoadReport report;
      const NuclideLibrary lib = load_library((dir_ / file).string(), spec, comm, &report);
      EXPECT_EQ(report.format, std::string(file) == "text" ? "text" : "hdf5");
      EXPECT_EQ(library_checksum(lib), expected);
      if (spec.strategy == LoadStrategy::readers) {
        EXPECT_EQ(report.readers, std::min(spec.readers, comm.size()));
      }
    }
  }
  // Field by field once, so a failure says what differs.
  test::expect_identical(load_library((dir_ / "lib.h5").string(), {LoadStrategy::readers, 3}, comm), *generated_);
}

TEST_F(LoadStrategies, BadLibraryIsTheSameErrorOnEveryRank) {
  const Communicator comm;
  for (const char* file : {"no_such_library.h5", "truncated.h5"}) {
    for (const LoadSpec& spec : strategies()) {
      SCOPED_TRACE(std::string(file) + " " + describe(spec));
      std::string msg;
      try {
        (void)load_library((dir_ / file).string(), spec, comm);
      } catch (const DataError& e) {
        msg = e.what();
      }
      EXPECT_NE(msg.find((dir_ / file).string()), std::string::npos) << msg;
      // Rank 0's message, everywhere.
      EXPECT_EQ(broadcast(msg, 0, comm.get()), msg);
    }
  }
}

TEST_F(LoadStrategies, ZeroReadersIsAnError) {
  const Communicator comm;
  EXPECT_THROW((void)load_library((dir_ / "lib.h5").string(), {LoadStrategy::readers, 0}, comm), DataError);
}

}  // namespace
}  // namespace keff
