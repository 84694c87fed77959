// The HDF5 and text nuclear-data libraries: round trips bit for bit, conversion, the sorted index, and
// every kind of bad data reported with the file and the object.
#include "io/hdf5_file.hpp"
#include "io/library/data_error.hpp"
#include "io/library/hdf5_library.hpp"
#include "io/library/library_reader.hpp"
#include "io/library/text_library.hpp"
#include "library_fixture.hpp"

#include <hdf5.h>

#include <fstream>

namespace keff {
namespace {

namespace fs = std::filesystem;

class LibraryFormat : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = test::scratch_dir("library_format");
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    generated_ = new NuclideLibrary(generate_synthetic_library(test::small_spec()));
    write_hdf5_library((dir_ / "lib.h5").string(), *generated_);
    write_text_library((dir_ / "text").string(), *generated_);
  }
  static void TearDownTestSuite() { delete generated_; }

  static std::string h5() { return (dir_ / "lib.h5").string(); }
  static std::string text() { return (dir_ / "text").string(); }
  // A copy of the HDF5 library to damage.
  static std::string copy_h5(const std::string& name) {
    const auto to = dir_ / name;
    fs::copy_file(h5(), to, fs::copy_options::overwrite_existing);
    return to.string();
  }
  // The message of the DataError `load` throws (the test fails if it throws nothing or something else).
  template <class F>
  static std::string error_of(F&& load) {
    try {
      load();
    } catch (const DataError& e) {
      return e.what();
    }
    ADD_FAILURE() << "no DataError";
    return "";
  }

  static inline fs::path dir_;
  static inline NuclideLibrary* generated_ = nullptr;
};

TEST_F(LibraryFormat, Hdf5RoundTripIsBitForBit) {
  const auto reader = open_library(h5());
  EXPECT_STREQ(reader->format(), "hdf5");
  EXPECT_EQ(reader->size(), generated_->nuclides.size());
  test::expect_identical(reader->read_all(), *generated_);
}

TEST_F(LibraryFormat, TextRoundTripIsBitForBit) {
  const auto reader = open_library(text());
  EXPECT_STREQ(reader->format(), "text");
  test::expect_identical(reader->read_all(), *generated_);
  // Nested directories, one file per nuclide, an index.
  EXPECT_TRUE(fs::exists(fs::path(text()) / "index.txt"));
  EXPECT_TRUE(fs::exists(fs::path(text()) / "z09x" / "Z092" / "U235.txt"));
}

TEST_F(LibraryFormat, ConvertedTextEqualsHdf5) {
  const std::string out = (dir_ / "converted.h5").string();
  write_hdf5_library(out, open_text_library(text())->read_all());
  test::expect_identical(open_library(out)->read_all(), *generated_);
}

TEST_F(LibraryFormat, ReadsAnyNuclideRange) {
  const auto reader = open_library(h5());
  const NuclideLibrary part = reader->read(5, 4);
  ASSERT_EQ(part.nuclides.size(), 4u);
  EXPECT_EQ(part.nuclides[0].name, "U235");
  EXPECT_EQ(part.nuclides[3].name, "Pu240");
}

TEST_F(LibraryFormat, IndexIsSortedById) {
  const H5File f = H5File::open(h5());
  EXPECT_EQ(f.attribute_string("filetype"), hdf5_library_filetype);
  EXPECT_EQ(f.attribute_int64("format_version"), hdf5_library_version);
  const H5Group idx = f.open_group("index");
  const auto ids = idx.read_int64s("id");
  const auto sorted = idx.read_int64s("sorted_id");
  const auto position = idx.read_int64s("sorted_position");
  ASSERT_EQ(sorted.size(), ids.size());
  for (std::size_t k = 0; k < sorted.size(); ++k) {
    if (k > 0) {
      EXPECT_LT(sorted[k - 1], sorted[k]);
    }
    EXPECT_EQ(ids[static_cast<std::size_t>(position[k])], sorted[k]);
  }
}

TEST_F(LibraryFormat, MissingFileIsNamed) {
  const std::string missing = (dir_ / "no_such_library.h5").string();
  const std::string msg = error_of([&] { open_library(missing); });
  EXPECT_NE(msg.find(missing), std::string::npos) << msg;
  EXPECT_NE(msg.find("does not exist"), std::string::npos) << msg;
}

TEST_F(LibraryFormat, WrongFormatVersionIsNamed) {
  const std::string path = copy_h5("version99.h5");
  {
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    const hid_t a = H5Aopen(f, "format_version", H5P_DEFAULT);
    const std::int64_t v = 99;
    ASSERT_GE(H5Awrite(a, H5T_NATIVE_INT64, &v), 0);
    H5Aclose(a);
    H5Fclose(f);
  }
  const std::string msg = error_of([&] { open_library(path); });
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("format_version"), std::string::npos) << msg;
  EXPECT_NE(msg.find("version 99 is not supported (allowed: 1)"), std::string::npos) << msg;
}

TEST_F(LibraryFormat, TruncatedFileIsNamed) {
  const std::string path = copy_h5("truncated.h5");
  fs::resize_file(path, fs::file_size(path) / 2);
  const std::string msg = error_of([&] { open_library(path)->read_all(); });
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("truncated"), std::string::npos) << msg;
}

TEST_F(LibraryFormat, CorruptDatasetIsNamed) {
  const std::string path = copy_h5("corrupt.h5");
  haddr_t offset = HADDR_UNDEF;
  {
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t d = H5Dopen2(f, "/nuclides/U238/capture", H5P_DEFAULT);
    offset = H5Dget_offset(d);
    H5Dclose(d);
    H5Fclose(f);
  }
  ASSERT_NE(offset, HADDR_UNDEF);
  {
    // Flip one bit in the 100th value: a plausible number still, so only the checksum can tell.
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    const auto at = static_cast<std::streamoff>(offset + 100 * sizeof(double));
    file.seekg(at);
    char byte = 0;
    file.read(&byte, 1);
    byte = static_cast<char>(byte ^ 0x01);
    file.seekp(at);
    file.write(&byte, 1);
  }
  const std::string msg = error_of([&] { open_library(path)->read_all(); });
  EXPECT_NE(msg.find(path + ": nuclide 'U238' dataset 'capture': checksum mismatch (file is corrupt)"),
            std::string::npos)
      << msg;
}

TEST_F(LibraryFormat, CorruptAttributeIsNamed) {
  const std::string path = copy_h5("corrupt_awr.h5");
  {
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    const hid_t g = H5Gopen2(f, "/nuclides/O16", H5P_DEFAULT);
    const hid_t a = H5Aopen(g, "awr", H5P_DEFAULT);
    const double awr = 16.5;
    H5Awrite(a, H5T_NATIVE_DOUBLE, &awr);
    H5Aclose(a);
    H5Gclose(g);
    H5Fclose(f);
  }
  const std::string msg = error_of([&] { open_library(path)->read_all(); });
  EXPECT_NE(msg.find(path + ": nuclide 'O16': attributes: checksum mismatch"), std::string::npos) << msg;
}

TEST_F(LibraryFormat, NotAKeffLibraryIsNamed) {
  const std::string path = (dir_ / "other.h5").string();
  {
    H5File f = H5File::create(path);
    f.set_attribute("filetype", std::string_view("statepoint"));
    f.close();
  }
  const std::string msg = error_of([&] { open_library(path); });
  EXPECT_NE(msg.find(path + ": not a keff nuclear-data library"), std::string::npos) << msg;
}

TEST_F(LibraryFormat, MalformedTextLineIsNamed) {
  const fs::path copy = dir_ / "text_bad";
  fs::remove_all(copy);
  fs::copy(text(), copy, fs::copy_options::recursive);
  const fs::path file = copy / "z00x" / "Z008" / "O16.txt";
  std::string content;
  {
    std::ifstream in(file);
    content.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  // Lines 1-8 are the header, line 9 the column heading, data from line 10: the bad line becomes line 12.
  std::size_t at = 0;
  for (int line = 1; line < 12; ++line) at = content.find('\n', at) + 1;
  content.insert(at, "1.0e+00 2.0e+00 oops\n");
  std::ofstream(file, std::ios::trunc) << content;
  const std::string msg = error_of([&] { open_library(copy.string())->read_all(); });
  EXPECT_NE(msg.find(file.string() + ":12: expected 4 numbers"), std::string::npos) << msg;
}

TEST_F(LibraryFormat, TextFileMissingIsNamed) {
  const fs::path copy = dir_ / "text_missing";
  fs::remove_all(copy);
  fs::copy(text(), copy, fs::copy_options::recursive);
  fs::remove(copy / "z09x" / "Z094" / "Pu239.txt");
  const std::string msg = error_of([&] { open_library(copy.string())->read_all(); });
  EXPECT_NE(msg.find("cannot open nuclear-data file '" + (copy / "z09x" / "Z094" / "Pu239.txt").string() + "': it does not exist"), std::string::npos) << msg;
}

TEST_F(LibraryFormat, WriterRejectsBadData) {
  NuclideLibrary lib = generate_synthetic_library(test::small_spec());
  lib.nuclides[2].capture[7] = -1.0;
  const std::string msg = error_of([&] { write_hdf5_library((dir_ / "never.h5").string(), lib); });
  EXPECT_NE(msg.find("nuclide 'B10': capture[7] is not a finite non-negative cross section"), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(dir_ / "never.h5"));
}

// Physics, not only finiteness: each rule with a value just outside it, on a fissile nuclide.
TEST_F(LibraryFormat, UnphysicalDataIsRefused) {
  const NuclideLibrary lib = generate_synthetic_library(test::small_spec());
  const NuclideData& u235 = lib.nuclides[static_cast<std::size_t>(lib.find("U235"))];
  ASSERT_TRUE(u235.fissile);
  EXPECT_NO_THROW(check_nuclide(u235, "lib"));
  const std::pair<void (*)(NuclideData&), const char*> cases[] = {
      {[](NuclideData& n) { n.nu0 = -1.0; n.nu1 = 0.0; }, "nu(1e-05 eV) = -1 + 0 * E[MeV] = -1 (allowed: 0.5 to 10"},
      {[](NuclideData& n) { n.nu0 = 2.0; n.nu1 = 1.0; }, "nu(2e+07 eV) = 2 + 1 * E[MeV] = 22"},
      {[](NuclideData& n) { n.watt_a = 0.0; n.watt_b = 0.0; }, "Watt spectrum a = 0 MeV, b = 0 /MeV"},
      {[](NuclideData& n) { n.watt_a = 4.0; n.watt_b = 4.0; }, "(mean energy 22 MeV"},
      {[](NuclideData& n) { n.watt_b = -1.0; }, "b = -1 /MeV"},
      {[](NuclideData& n) { n.awr = 0.1; }, "awr = 0.1 (allowed: 0.5 to 300"},
      {[](NuclideData& n) { n.fissile = false; }, "has a fission cross section but fissile = 0"},
  };
  for (const auto& [damage, expected] : cases) {
    NuclideData n = u235;
    damage(n);
    const std::string msg = error_of([&] { check_nuclide(n, "lib"); });
    EXPECT_EQ(msg.rfind("lib: nuclide 'U235': ", 0), 0u) << msg;
    EXPECT_NE(msg.find(expected), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace keff
