// A problem that names a library: the input keys, relative paths, a nuclide the library lacks, and the
// same k in every batch whether the data comes from memory, an HDF5 file or a text directory.
#include "io/input/input.hpp"
#include "io/library/data_error.hpp"
#include "io/library/hdf5_library.hpp"
#include "io/library/text_library.hpp"
#include "library_fixture.hpp"
#include "run_problem.hpp"
#include "src/params/build_problem.hpp"

#include <cstring>
#include <fstream>

namespace keff {
namespace {

namespace fs = std::filesystem;

// A reflected box of fuel pins in water, small enough to run in a second. `data` is the body of
// [nuclear_data].
std::string pin_cell(const std::string& data) {
  return R"(
[settings]
particles = 400
batches = 6
inactive = 2
seed = 11
energy_grid = "hash"
statepoint = ""
[settings.source]
lower_left = [-0.63, -0.63, -1.0]
upper_right = [0.63, 0.63, 1.0]
[nuclear_data]
)" + data + R"(
[[surface]]
id = 1
type = "x-plane"
coeffs = [-0.63]
boundary = "reflective"
[[surface]]
id = 2
type = "x-plane"
coeffs = [0.63]
boundary = "reflective"
[[surface]]
id = 3
type = "y-plane"
coeffs = [-0.63]
boundary = "reflective"
[[surface]]
id = 4
type = "y-plane"
coeffs = [0.63]
boundary = "reflective"
[[surface]]
id = 5
type = "z-plane"
coeffs = [-1.0]
boundary = "reflective"
[[surface]]
id = 6
type = "z-plane"
coeffs = [1.0]
boundary = "reflective"
[[surface]]
id = 10
type = "z-cylinder"
coeffs = [0.0, 0.0, 0.41]
[[cell]]
name = "fuel"
region = "-10 +1 -2 +3 -4 +5 -6"
material = "fuel"
[[cell]]
name = "water"
region = "+10 +1 -2 +3 -4 +5 -6"
material = "water"
[[material]]
name = "fuel"
nuclides = { U235 = 7.2e-4, U238 = 2.2e-2, O16 = 4.6e-2 }
trace_nuclides = 4
[[material]]
name = "water"
nuclides = { H1 = 6.7e-2, O16 = 3.3e-2 }
)";
}

std::string synthetic_keys() {
  const auto s = test::small_spec();
  return "nuclides = " + std::to_string(s.nuclides) + "\ngridpoints = " + std::to_string(s.gridpoints) +
         "\nseed = " + std::to_string(s.seed);
}

class LibraryRun : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = test::scratch_dir("library_run");
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    const NuclideLibrary lib = generate_synthetic_library(test::small_spec());
    write_hdf5_library((dir_ / "lib.h5").string(), lib);
    write_text_library((dir_ / "text").string(), lib);
    NuclideLibrary few = lib;
    few.nuclides.resize(6);  // H1 ... U235: no U238
    write_hdf5_library((dir_ / "few.h5").string(), few);
  }
  // Writes the input next to the libraries, so relative paths resolve against it.
  static model::Problem problem(const std::string& name, const std::string& data) {
    const fs::path path = dir_ / name;
    std::ofstream(path) << pin_cell(data);
    return read_problem_file(path.string());
  }
  static inline fs::path dir_;
};

void expect_same_batches(const RunResults& a, const RunResults& b) {
  ASSERT_EQ(a.batch.size(), b.batch.size());
  for (std::size_t i = 0; i < a.batch.size(); ++i) {
    EXPECT_EQ(std::memcmp(&a.batch[i].k, &b.batch[i].k, sizeof(double)), 0) << "batch " << i + 1;
    EXPECT_EQ(std::memcmp(&a.batch[i].entropy, &b.batch[i].entropy, sizeof(double)), 0) << "batch " << i + 1;
  }
  EXPECT_EQ(a.k_combined.mean, b.k_combined.mean);
}

TEST_F(LibraryRun, RelativePathResolvesAgainstInputAndStrategyIsRead) {
  const auto p = problem("relative.toml", "library = \"lib.h5\"\nload = \"readers\"\nreaders = 3");
  EXPECT_EQ(p.nuclear_data.library, (dir_ / "lib.h5").lexically_normal().string());
  EXPECT_EQ(p.nuclear_data.load.strategy, LoadStrategy::readers);
  EXPECT_EQ(p.nuclear_data.load.readers, 3);
  const auto q = problem("default_load.toml", "library = \"" + (dir_ / "text").string() + "\"");
  EXPECT_EQ(q.nuclear_data.library, (dir_ / "text").string());
  EXPECT_EQ(q.nuclear_data.load.strategy, LoadStrategy::root);
}

TEST_F(LibraryRun, BadLibraryKeysAreInputErrors) {
  const auto fails = [&](const std::string& data, const std::string& expected) {
    try {
      problem("bad_keys.toml", data);
      ADD_FAILURE() << "accepted: " << data;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  fails("library = \"lib.h5\"\nload = \"some\"",
        "nuclear_data.load: invalid value 'some' (allowed: all, root, readers, node)");
  fails("library = \"lib.h5\"\nload = \"root\"\nreaders = 2", "nuclear_data.readers: only with load = \"readers\"");
  fails("library = \"lib.h5\"\nload = \"readers\"\nreaders = 0", "nuclear_data.readers: invalid value 0");
  fails("library = \"lib.h5\"\nnuclides = 20", "nuclear_data.nuclides: only for synthetic data, but library is set");
  fails("load = \"all\"", "nuclear_data.load: only with a library");
}

TEST_F(LibraryRun, SameKFromMemoryHdf5AndText) {
  const auto memory = test::run_quietly(problem("memory.toml", synthetic_keys()), 400, 6, 2);
  for (const char* data : {"library = \"lib.h5\"\nload = \"all\"", "library = \"lib.h5\"\nload = \"node\"",
                           "library = \"text\"\nload = \"root\""}) {
    SCOPED_TRACE(data);
    expect_same_batches(test::run_quietly(problem("from_library.toml", data), 400, 6, 2), memory);
  }
}

TEST_F(LibraryRun, NuclideMissingFromLibraryIsNamed) {
  const auto p = problem("missing_nuclide.toml", "library = \"few.h5\"");
  try {
    (void)build_problem(DeviceExec(), p, Communicator());
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("missing_nuclide.toml"), std::string::npos) << msg;
    EXPECT_NE(msg.find("nuclide 'U238' is not in the nuclear data library '" + (dir_ / "few.h5").string() + "'"),
              std::string::npos)
        << msg;
  }
}

TEST_F(LibraryRun, MissingLibraryIsADataError) {
  const auto p = problem("missing_library.toml", "library = \"nowhere.h5\"");
  EXPECT_THROW((void)load_nuclear_data(p, Communicator()), DataError);
}

}  // namespace
}  // namespace keff
