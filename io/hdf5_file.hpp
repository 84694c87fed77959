#pragma once
// A small RAII layer over the HDF5 C API: files, groups, datasets of double and int64 arrays, scalar
// attributes (numbers and strings), for writing and for reading back. Every call is checked: a failure
// throws OutputError naming the file, the object and HDF5's own reason, and HDF5's automatic error
// printing is silenced while keff's calls run, so the exception is the one report.
// The statepoint uses it now; the HDF5 nuclear-data library and restart reading build on the same
// read functions. Files are opened with the default (serial) driver; one rank writes.
#include "io/output_error.hpp"

#include <hdf5.h>

#include <concepts>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace keff {

namespace detail {

// Owns one HDF5 identifier and closes it with the matching H5?close. Move-only.
class H5Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  H5Handle() = default;
  H5Handle(hid_t id, Closer closer) : id_(id), close_(closer) {}
  H5Handle(H5Handle&& other) noexcept : id_(other.id_), close_(other.close_) { other.id_ = H5I_INVALID_HID; }
  H5Handle& operator=(H5Handle&& other) noexcept;
  H5Handle(const H5Handle&) = delete;
  H5Handle& operator=(const H5Handle&) = delete;
  ~H5Handle() { (void)close(); }

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  // Closes now; returns HDF5's status (negative on failure), 0 when there was nothing to close.
  herr_t close();

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer close_ = nullptr;
};

}  // namespace detail

// A group, or a file's root group: creates and reads the datasets, subgroups and attributes in it.
// Dataset data is contiguous and row-major; `shape` gives its dimensions (empty: one dimension of
// data.size()).
class H5Group {
 public:
  H5Group create_group(const std::string& name) const;
  H5Group open_group(const std::string& name) const;
  // Whether a link (dataset or group) called `name` exists here.
  bool contains(const std::string& name) const;

  void write(const std::string& name, std::span<const double> data, std::vector<std::size_t> shape = {}) const;
  void write(const std::string& name, std::span<const std::int64_t> data, std::vector<std::size_t> shape = {}) const;
  // A one-dimensional dataset of fixed-length, null-padded UTF-8 strings (the longest sets the length).
  void write(const std::string& name, std::span<const std::string> data) const;
  std::vector<double> read_doubles(const std::string& name) const;
  std::vector<std::int64_t> read_int64s(const std::string& name) const;
  // Reads into `out`, whose size must equal the dataset's element count (no second allocation).
  void read_into(const std::string& name, std::span<double> out) const;
  // A one-dimensional string dataset, fixed- or variable-length.
  std::vector<std::string> read_strings(const std::string& name) const;
  std::vector<std::size_t> shape(const std::string& name) const;

  // Scalar attributes of this group.
  void set_attribute(const std::string& name, double value) const;
  void set_attribute(const std::string& name, std::string_view value) const;
  template <std::integral T>
  void set_attribute(const std::string& name, T value) const {
    set_int64_attribute(name, static_cast<std::int64_t>(value));
  }
  bool has_attribute(const std::string& name) const;
  double attribute_double(const std::string& name) const;
  std::int64_t attribute_int64(const std::string& name) const;
  std::string attribute_string(const std::string& name) const;
  // Attribute names, in HDF5's (alphabetical) order.
  std::vector<std::string> attribute_names() const;

  const std::string& filename() const { return file_; }
  const std::string& path() const { return path_; }  // "/" for the root group

 protected:
  H5Group(detail::H5Handle id, std::string file, std::string path)
      : id_(std::move(id)), file_(std::move(file)), path_(std::move(path)) {}
  // "cannot <what> '<object>' in '<file>': <HDF5's reason>"
  [[noreturn]] void fail(const std::string& what, const std::string& object) const;
  std::string child_path(const std::string& name) const;

  detail::H5Handle id_;
  std::string file_;
  std::string path_;

 private:
  void set_int64_attribute(const std::string& name, std::int64_t value) const;
  void write_array(const std::string& name, hid_t file_type, hid_t mem_type, const void* data, std::size_t count,
                   std::vector<std::size_t> shape) const;
  void read_array(const std::string& name, hid_t mem_type, void* data, std::size_t count) const;
};

class H5File : public H5Group {
 public:
  // A new file, built in memory (HDF5's core driver) and written to `path` whole by close(), or handed
  // over by close_to_image() (io/atomic_write.hpp writes outputs). HDF5 never writes to the disk itself:
  // a write that failed inside its own flush (a full disk) left a file it could not close, and HDF5
  // crashed closing it again at exit.
  static H5File create(const std::string& path);
  // An existing file, read-only.
  static H5File open(const std::string& path);

  // Closes the file; a created one is written to its path first (replacing any file there). Every group
  // opened from this file must be destroyed first, or closing fails (so nothing is left unwritten). The
  // destructor closes without checking (and writes nothing).
  void close();
  // Closes a created file and returns its bytes instead of writing them.
  std::string close_to_image();

 private:
  H5File(detail::H5Handle id, const std::string& path) : H5Group(std::move(id), path, "/") {}
  bool in_memory_ = false;
};

// Closes every HDF5 object still open and shuts the library down (H5close). main() calls it before
// MPI_Finalize: a file whose write failed (a full disk) may be one HDF5 could not close, and HDF5's own
// clean-up at exit would otherwise run after MPI_Finalize.
void close_hdf5() noexcept;

}  // namespace keff
