// Output paths and the HDF5 wrapper: links followed and kept, special files refused and left alone,
// temporaries of killed runs removed; attributes and datasets round-trip, failures name file and object.
#include "output_samples.hpp"

#include "io/hdf5_file.hpp"
#include "io/output/output.hpp"
#include "io/output_path.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace keff {
namespace {

using namespace test_output;

// ---------------------------------------------------------------------------------------------------
// Output paths: links followed, special files refused, temporaries of killed runs removed

std::string output_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const OutputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no OutputError";
  return {};
}

// The file type as `stat` sees it without following a final link.
mode_t file_type(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode & S_IFMT;
}

// A process id that no longer exists: a child that has exited and been reaped.
long dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  return static_cast<long>(child);
}

TEST(OutputPath, SymbolicLinksAreFollowedAndKept) {
  TempDir dir;
  fs::create_directories(dir.file("real"));
  fs::create_symlink("real/target.json", dir.file("link.json"));   // dangling: the target is created
  fs::create_symlink("link.json", dir.file("link2.json"));         // a chain
  EXPECT_EQ(resolve_output_path(dir.file("link2.json"), "--json"), dir.file("real/target.json"));
  write_summary_json(dir.file("link2.json"), sample_results());
  EXPECT_EQ(file_type(dir.file("link.json")), S_IFLNK);
  EXPECT_EQ(file_type(dir.file("link2.json")), S_IFLNK);
  EXPECT_EQ(file_type(dir.file("real/target.json")), S_IFREG);
  write_statepoint(dir.file("link2.json"), sample_results());  // replaces the target again, through the links
  EXPECT_EQ(file_type(dir.file("link2.json")), S_IFLNK);
  EXPECT_EQ(H5File::open(dir.file("real/target.json")).attribute_string("filetype"), "statepoint");
  EXPECT_EQ(dir.entries().size(), 3u);  // real, link.json, link2.json: no temporary left

  fs::create_symlink("loop_b", dir.file("loop_a"));
  fs::create_symlink("loop_a", dir.file("loop_b"));
  EXPECT_NE(output_error([&] { resolve_output_path(dir.file("loop_a"), "--json"); }).find("too many levels"),
            std::string::npos);
}

TEST(OutputPath, SpecialFilesAreRefusedAndLeftAlone) {
  TempDir dir;
  ASSERT_EQ(::mkfifo(dir.file("fifo").c_str(), 0644), 0);
  fs::create_directories(dir.file("adir"));
  fs::create_symlink("fifo", dir.file("to_fifo"));
  std::vector<std::pair<std::string, std::string>> cases = {
      {"fifo", "it is a FIFO (named pipe)"},
      {"adir", "it is a directory"},
      {"to_fifo", "which is a FIFO (named pipe)"}};
  // A device node (as the device itself would be, e.g. /dev/null or /dev/full) when allowed to make one.
  if (::mknod(dir.file("null").c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) cases.push_back({"null", "it is a character device"});
  for (const auto& [name, reason] : cases) {
    const auto before = file_type(dir.file(name));
    for (const auto& write : {std::function<void()>([&] { write_summary_json(dir.file(name), sample_results()); }),
                              std::function<void()>([&] { write_statepoint(dir.file(name), sample_results()); }),
                              std::function<void()>([&] { check_output_path(dir.file(name), "--json"); })}) {
      const std::string msg = output_error(write);
      EXPECT_NE(msg.find(reason), std::string::npos) << name << ": " << msg;
      EXPECT_NE(msg.find("allowed: a regular file"), std::string::npos) << msg;
      EXPECT_EQ(file_type(dir.file(name)), before) << name;
    }
  }
  EXPECT_NE(output_error([] { check_output_path("", "--json"); }).find("the path is empty"), std::string::npos);
  EXPECT_NE(output_error([&] { check_output_path(dir.file("none/x.json"), "--json"); }).find("its directory"),
            std::string::npos);
}

TEST(OutputPath, TemporariesOfKilledRunsAreRemoved) {
  TempDir dir;
  const std::string target = dir.file("sp.h5");
  const std::string mine = detail::temporary_path(target);  // "<target>.tmp.<host>.<this pid>"
  const std::string stem = mine.substr(0, mine.find_last_of('.') + 1);
  const std::string stale = stem + std::to_string(dead_pid());
  // A live writer is a live process of this same program: a child of this test, asleep until killed.
  const pid_t writer = ::fork();
  if (writer == 0) {
    ::pause();
    ::_exit(0);
  }
  const std::string live = stem + std::to_string(static_cast<long>(writer));
  // A live process of another program (the launcher) holds that pid now: the pid was reused.
  const std::string reused = stem + std::to_string(static_cast<long>(::getppid()));
  const std::string other_host = target + ".tmp.some-other-host." + std::to_string(dead_pid());
  for (const auto& f : {stale, live, reused, other_host}) std::ofstream(f) << "half a statepoint";
  fs::create_directories(stem + "1");  // a directory by that name is not ours to remove
  write_statepoint(target, sample_results());
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(live));        // its process may still be writing
  EXPECT_FALSE(fs::exists(reused));
  ::kill(writer, SIGKILL);
  int status = 0;
  ::waitpid(writer, &status, 0);
  EXPECT_TRUE(fs::exists(other_host));  // whether that one is alive cannot be told from here
  EXPECT_TRUE(fs::is_directory(stem + "1"));
  EXPECT_FALSE(fs::exists(mine));

  std::ofstream(stale) << "again";
  check_output_path(target, "--statepoint");  // the check before a run removes them too
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_FALSE(fs::exists(mine));  // nor does the check leave its probe behind
}

// ---------------------------------------------------------------------------------------------------
// The HDF5 wrapper on its own

TEST(Hdf5File, AttributesAndDatasetsRoundTrip) {
  TempDir dir;
  const std::string path = dir.file("w.h5");
  {
    auto f = H5File::create(path);
    f.set_attribute("i", std::numeric_limits<std::int64_t>::min());
    f.set_attribute("d", -0.0);
    f.set_attribute("s", "hello");
    f.set_attribute("empty", "");
    f.set_attribute("s", "replaced");
    {
      const auto g = f.create_group("g");
      const auto sub = g.create_group("sub");
      EXPECT_EQ(sub.path(), "/g/sub");
      const std::vector<std::int64_t> ints{1, -2, 3, std::numeric_limits<std::int64_t>::max(), 5, 6};
      sub.write("m", ints, {2, 3});
      g.write("v", std::vector<double>{1.5, -2.25});
    }
    f.close();
  }
  const auto f = H5File::open(path);
  EXPECT_EQ(f.attribute_int64("i"), std::numeric_limits<std::int64_t>::min());
  EXPECT_TRUE(same_bits(f.attribute_double("d"), -0.0));
  EXPECT_EQ(f.attribute_string("s"), "replaced");
  EXPECT_EQ(f.attribute_string("empty"), "");
  EXPECT_EQ(f.attribute_names(), (std::vector<std::string>{"d", "empty", "i", "s"}));
  EXPECT_TRUE(f.has_attribute("i"));
  EXPECT_FALSE(f.has_attribute("j"));
  EXPECT_TRUE(f.contains("g"));
  EXPECT_FALSE(f.contains("h"));
  const auto sub = f.open_group("g").open_group("sub");
  EXPECT_EQ(sub.shape("m"), (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(sub.read_int64s("m")[3], std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(f.open_group("g").read_doubles("v"), (std::vector<double>{1.5, -2.25}));
}

TEST(Hdf5File, FailuresNameFileAndObject) {
  TempDir dir;
  const std::string path = dir.file("e.h5");
  {
    auto f = H5File::create(path);
    f.create_group("g");
    f.close();
  }
  const auto f = H5File::open(path);
  auto message = [](const auto& call) -> std::string {
    try {
      call();
    } catch (const OutputError& e) {
      return e.what();
    }
    return "no OutputError";
  };
  const std::string missing = message([&] { f.open_group("g").read_doubles("nothing"); });
  EXPECT_NE(missing.find("'/g/nothing'"), std::string::npos) << missing;
  EXPECT_NE(missing.find(path), std::string::npos) << missing;
  const std::string read_only = message([&] { f.create_group("new"); });  // opened read-only
  EXPECT_NE(read_only.find("create group '/new'"), std::string::npos) << read_only;
  const std::string no_attr = message([&] { f.attribute_string("absent"); });
  EXPECT_NE(no_attr.find("/@absent"), std::string::npos) << no_attr;
  const std::string no_file = message([&] { H5File::open(dir.file("absent.h5")); });
  EXPECT_NE(no_file.find("cannot open file '" + dir.file("absent.h5") + "'"), std::string::npos) << no_file;
  const std::string shape = message([&] {
    auto w = H5File::create(dir.file("shape.h5"));
    w.write("x", std::vector<double>{1, 2, 3}, {2, 2});
  });
  EXPECT_NE(shape.find("'/x'"), std::string::npos) << shape;
}

TEST(Hdf5File, CloseFailsWhileAGroupIsOpen) {
  TempDir dir;
  auto f = H5File::create(dir.file("c.h5"));
  {
    const auto g = f.create_group("g");
    EXPECT_THROW(f.close(), OutputError);  // would otherwise leave the file open behind our back
  }
  EXPECT_NO_THROW(f.close());
  EXPECT_NO_THROW(H5File::open(dir.file("c.h5")).open_group("g"));
}

}  // namespace
}  // namespace keff
