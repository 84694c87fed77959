// The checked HDF5 wrapper. Each public call silences HDF5's automatic error printing for its duration
// and, on failure, turns the innermost message of HDF5's error stack into the OutputError's reason.
#include "io/hdf5_file.hpp"

#include "io/atomic_write.hpp"
#include "io/input_file.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace keff {

namespace detail {

H5Handle& H5Handle::operator=(H5Handle&& other) noexcept {
  if (this != &other) {
    (void)close();
    id_ = std::exchange(other.id_, H5I_INVALID_HID);
    close_ = other.close_;
  }
  return *this;
}

herr_t H5Handle::close() {
  if (id_ < 0 || !close_) return 0;
  // Kept on failure: a file that refused to close (objects still open) can be closed again later.
  const herr_t status = close_(id_);
  if (status >= 0) id_ = H5I_INVALID_HID;
  return status;
}

}  // namespace detail

namespace {

// Turns HDF5's automatic error printing off while keff is inside an HDF5 call, and restores the
// caller's setting afterwards (other code in the process may rely on it).
class QuietErrors {
 public:
  QuietErrors() {
    H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

// The most specific message on HDF5's error stack (e.g. "unable to open file: ... No such file or
// directory"), then the stack is cleared.
std::string hdf5_reason() {
  std::string reason;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned n, const H5E_error2_t* err, void* out) -> herr_t {
        if (n == 0 && err && err->desc) *static_cast<std::string*>(out) = err->desc;
        return 0;
      },
      &reason);
  H5Eclear2(H5E_DEFAULT);
  return reason.empty() ? "unknown HDF5 error" : reason;
}

std::vector<hsize_t> dims_of(std::size_t count, const std::vector<std::size_t>& shape) {
  if (shape.empty()) return {static_cast<hsize_t>(count)};
  return std::vector<hsize_t>(shape.begin(), shape.end());
}

}  // namespace

// ---------------------------------------------------------------------------------------------------
// H5Group

void H5Group::fail(const std::string& what, const std::string& object) const {
  throw OutputError("HDF5: cannot " + what + " '" + object + "' in '" + file_ + "': " + hdf5_reason());
}

std::string H5Group::child_path(const std::string& name) const {
  return path_ == "/" ? "/" + name : path_ + "/" + name;
}

H5Group H5Group::create_group(const std::string& name) const {
  QuietErrors quiet;
  const hid_t id = H5Gcreate2(id_.get(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (id < 0) fail("create group", child_path(name));
  return H5Group(detail::H5Handle(id, H5Gclose), file_, child_path(name));
}

H5Group H5Group::open_group(const std::string& name) const {
  QuietErrors quiet;
  const hid_t id = H5Gopen2(id_.get(), name.c_str(), H5P_DEFAULT);
  if (id < 0) fail("open group", child_path(name));
  return H5Group(detail::H5Handle(id, H5Gclose), file_, child_path(name));
}

bool H5Group::contains(const std::string& name) const {
  QuietErrors quiet;
  const htri_t exists = H5Lexists(id_.get(), name.c_str(), H5P_DEFAULT);
  if (exists < 0) fail("look up", child_path(name));
  return exists > 0;
}

void H5Group::write_array(const std::string& name, hid_t file_type, hid_t mem_type, const void* data,
                          std::size_t count, std::vector<std::size_t> shape) const {
  QuietErrors quiet;
  const auto dims = dims_of(count, shape);
  const auto product = std::accumulate(dims.begin(), dims.end(), hsize_t{1}, std::multiplies<>());
  if (product != count) {
    throw OutputError("HDF5: cannot write dataset '" + child_path(name) + "' in '" + file_ +
                      "': its shape holds " + std::to_string(product) + " values, the data " + std::to_string(count));
  }
  detail::H5Handle space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
  if (!space.valid()) fail("create the dataspace of", child_path(name));
  detail::H5Handle dset(H5Dcreate2(id_.get(), name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                        H5Dclose);
  if (!dset.valid()) fail("create dataset", child_path(name));
  // An empty dataset has nothing to write (and HDF5 rejects a null buffer).
  if (count > 0 && H5Dwrite(dset.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) {
    fail("write dataset", child_path(name));
  }
  if (dset.close() < 0) fail("close dataset", child_path(name));
}

void H5Group::write(const std::string& name, std::span<const double> data, std::vector<std::size_t> shape) const {
  write_array(name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, data.data(), data.size(), std::move(shape));
}

void H5Group::write(const std::string& name, std::span<const std::int64_t> data, std::vector<std::size_t> shape) const {
  write_array(name, H5T_STD_I64LE, H5T_NATIVE_INT64, data.data(), data.size(), std::move(shape));
}

std::vector<std::size_t> H5Group::shape(const std::string& name) const {
  QuietErrors quiet;
  detail::H5Handle dset(H5Dopen2(id_.get(), name.c_str(), H5P_DEFAULT), H5Dclose);
  if (!dset.valid()) fail("open dataset", child_path(name));
  detail::H5Handle space(H5Dget_space(dset.get()), H5Sclose);
  if (!space.valid()) fail("get the dataspace of", child_path(name));
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) fail("get the rank of", child_path(name));
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  if (rank > 0 && H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr) < 0) {
    fail("get the shape of", child_path(name));
  }
  return std::vector<std::size_t>(dims.begin(), dims.end());
}

void H5Group::read_array(const std::string& name, hid_t mem_type, void* data, std::size_t count) const {
  QuietErrors quiet;
  detail::H5Handle dset(H5Dopen2(id_.get(), name.c_str(), H5P_DEFAULT), H5Dclose);
  if (!dset.valid()) fail("open dataset", child_path(name));
  if (count > 0 && H5Dread(dset.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) {
    fail("read dataset", child_path(name));
  }
}

std::vector<double> H5Group::read_doubles(const std::string& name) const {
  const auto s = shape(name);
  std::vector<double> out(std::accumulate(s.begin(), s.end(), std::size_t{1}, std::multiplies<>()));
  read_array(name, H5T_NATIVE_DOUBLE, out.data(), out.size());
  return out;
}

std::vector<std::int64_t> H5Group::read_int64s(const std::string& name) const {
  const auto s = shape(name);
  std::vector<std::int64_t> out(std::accumulate(s.begin(), s.end(), std::size_t{1}, std::multiplies<>()));
  read_array(name, H5T_NATIVE_INT64, out.data(), out.size());
  return out;
}

void H5Group::read_into(const std::string& name, std::span<double> out) const {
  // One open for the size check and the read: with thousands of small datasets (a nuclear-data
  // library) the opens, not the bytes, are what a load spends its time on.
  QuietErrors quiet;
  detail::H5Handle dset(H5Dopen2(id_.get(), name.c_str(), H5P_DEFAULT), H5Dclose);
  if (!dset.valid()) fail("open dataset", child_path(name));
  detail::H5Handle space(H5Dget_space(dset.get()), H5Sclose);
  const hssize_t count = space.valid() ? H5Sget_simple_extent_npoints(space.get()) : -1;
  if (count < 0) fail("get the size of", child_path(name));
  if (static_cast<std::size_t>(count) != out.size()) {
    throw OutputError("HDF5: dataset '" + child_path(name) + "' in '" + file_ + "' holds " + std::to_string(count) +
                      " values, expected " + std::to_string(out.size()));
  }
  if (count > 0 && H5Dread(dset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0) {
    fail("read dataset", child_path(name));
  }
}

void H5Group::write(const std::string& name, std::span<const std::string> data) const {
  QuietErrors quiet;
  std::size_t width = 1;  // HDF5 refuses a string type of size zero
  for (const auto& s : data) width = std::max(width, s.size());
  std::string packed(width * data.size(), '\0');
  for (std::size_t i = 0; i < data.size(); ++i) packed.replace(i * width, data[i].size(), data[i]);
  detail::H5Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  if (!type.valid() || H5Tset_size(type.get(), width) < 0 || H5Tset_strpad(type.get(), H5T_STR_NULLPAD) < 0 ||
      H5Tset_cset(type.get(), H5T_CSET_UTF8) < 0) {
    fail("create the string type of", child_path(name));
  }
  write_array(name, type.get(), type.get(), packed.data(), data.size(), {});
}

std::vector<std::string> H5Group::read_strings(const std::string& name) const {
  const auto s = shape(name);
  QuietErrors quiet;
  if (s.size() != 1) {
    throw OutputError("HDF5: dataset '" + child_path(name) + "' in '" + file_ + "' is not one-dimensional");
  }
  const std::size_t count = s[0];
  detail::H5Handle dset(H5Dopen2(id_.get(), name.c_str(), H5P_DEFAULT), H5Dclose);
  if (!dset.valid()) fail("open dataset", child_path(name));
  detail::H5Handle type(H5Dget_type(dset.get()), H5Tclose);
  if (!type.valid()) fail("get the type of", child_path(name));
  if (H5Tget_class(type.get()) != H5T_STRING) {
    throw OutputError("HDF5: dataset '" + child_path(name) + "' in '" + file_ + "' does not hold strings");
  }
  const htri_t variable = H5Tis_variable_str(type.get());
  if (variable < 0) fail("get the type of", child_path(name));
  std::vector<std::string> out(count);
  if (count == 0) return out;
  if (variable > 0) {
    std::vector<char*> values(count, nullptr);
    if (H5Dread(dset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0) {
      fail("read dataset", child_path(name));
    }
    for (std::size_t i = 0; i < count; ++i) {
      out[i] = values[i] ? values[i] : "";
      H5free_memory(values[i]);
    }
    return out;
  }
  const std::size_t width = H5Tget_size(type.get());
  std::string packed(width * count, '\0');
  if (H5Dread(dset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, packed.data()) < 0) {
    fail("read dataset", child_path(name));
  }
  for (std::size_t i = 0; i < count; ++i) {
    std::string v = packed.substr(i * width, width);
    v.erase(std::find(v.begin(), v.end(), '\0'), v.end());
    out[i] = std::move(v);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Attributes

namespace {

// Creates (replacing any old one) a scalar attribute of `type` and writes `value`; false on failure.
bool write_scalar_attribute(hid_t owner, const std::string& name, hid_t file_type, hid_t mem_type, const void* value) {
  if (H5Aexists(owner, name.c_str()) > 0 && H5Adelete(owner, name.c_str()) < 0) return false;
  detail::H5Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  if (!space.valid()) return false;
  detail::H5Handle attr(H5Acreate2(owner, name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!attr.valid()) return false;
  if (H5Awrite(attr.get(), mem_type, value) < 0) return false;
  return attr.close() >= 0;
}

}  // namespace

void H5Group::set_attribute(const std::string& name, double value) const {
  QuietErrors quiet;
  if (!write_scalar_attribute(id_.get(), name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value)) {
    fail("write attribute", path_ + "@" + name);
  }
}

void H5Group::set_int64_attribute(const std::string& name, std::int64_t value) const {
  QuietErrors quiet;
  if (!write_scalar_attribute(id_.get(), name, H5T_STD_I64LE, H5T_NATIVE_INT64, &value)) {
    fail("write attribute", path_ + "@" + name);
  }
}

void H5Group::set_attribute(const std::string& name, std::string_view value) const {
  QuietErrors quiet;
  // A fixed-length, null-padded string; HDF5 refuses a size of zero, so "" is stored as one NUL.
  const std::string text(value);
  detail::H5Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  bool ok = type.valid() && H5Tset_size(type.get(), std::max<std::size_t>(text.size(), 1)) >= 0 &&
            H5Tset_strpad(type.get(), H5T_STR_NULLPAD) >= 0 && H5Tset_cset(type.get(), H5T_CSET_UTF8) >= 0;
  const std::string padded = text.empty() ? std::string(1, '\0') : text;
  ok = ok && write_scalar_attribute(id_.get(), name, type.get(), type.get(), padded.data());
  if (!ok) fail("write attribute", path_ + "@" + name);
}

bool H5Group::has_attribute(const std::string& name) const {
  QuietErrors quiet;
  const htri_t exists = H5Aexists(id_.get(), name.c_str());
  if (exists < 0) fail("look up attribute", path_ + "@" + name);
  return exists > 0;
}

double H5Group::attribute_double(const std::string& name) const {
  QuietErrors quiet;
  detail::H5Handle attr(H5Aopen(id_.get(), name.c_str(), H5P_DEFAULT), H5Aclose);
  double value = 0;
  if (!attr.valid() || H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &value) < 0) fail("read attribute", path_ + "@" + name);
  return value;
}

std::int64_t H5Group::attribute_int64(const std::string& name) const {
  QuietErrors quiet;
  detail::H5Handle attr(H5Aopen(id_.get(), name.c_str(), H5P_DEFAULT), H5Aclose);
  std::int64_t value = 0;
  if (!attr.valid() || H5Aread(attr.get(), H5T_NATIVE_INT64, &value) < 0) fail("read attribute", path_ + "@" + name);
  return value;
}

std::string H5Group::attribute_string(const std::string& name) const {
  QuietErrors quiet;
  const std::string object = path_ + "@" + name;
  detail::H5Handle attr(H5Aopen(id_.get(), name.c_str(), H5P_DEFAULT), H5Aclose);
  if (!attr.valid()) fail("open attribute", object);
  detail::H5Handle type(H5Aget_type(attr.get()), H5Tclose);
  if (!type.valid()) fail("get the type of attribute", object);
  if (H5Tget_class(type.get()) != H5T_STRING) {
    throw OutputError("HDF5: attribute '" + object + "' in '" + file_ + "' is not a string");
  }
  // Variable-length strings (as h5py writes them) and fixed-length ones (as keff writes them).
  const htri_t variable = H5Tis_variable_str(type.get());
  if (variable < 0) fail("get the type of attribute", object);
  if (variable > 0) {
    char* value = nullptr;
    if (H5Aread(attr.get(), type.get(), &value) < 0) fail("read attribute", object);
    std::string out = value ? value : "";
    H5free_memory(value);
    return out;
  }
  std::string out(H5Tget_size(type.get()), '\0');
  if (H5Aread(attr.get(), type.get(), out.data()) < 0) fail("read attribute", object);
  out.erase(std::find(out.begin(), out.end(), '\0'), out.end());
  return out;
}

std::vector<std::string> H5Group::attribute_names() const {
  QuietErrors quiet;
  std::vector<std::string> names;
  hsize_t index = 0;
  const herr_t status = H5Aiterate2(
      id_.get(), H5_INDEX_NAME, H5_ITER_INC, &index,
      [](hid_t, const char* name, const H5A_info_t*, void* out) -> herr_t {
        static_cast<std::vector<std::string>*>(out)->emplace_back(name);
        return 0;
      },
      &names);
  if (status < 0) fail("list the attributes of", path_);
  return names;
}

// ---------------------------------------------------------------------------------------------------
// H5File

namespace {

// File access with "semi" close: closing a file that still has open objects fails instead of leaving
// the file open behind the caller's back (which would let a rename publish a half-written file).
detail::H5Handle semi_close_access() {
  detail::H5Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  if (fapl.valid() && H5Pset_fclose_degree(fapl.get(), H5F_CLOSE_SEMI) < 0) return {};
  return fapl;
}

}  // namespace

H5File H5File::create(const std::string& path) {
  QuietErrors quiet;
  auto fapl = semi_close_access();
  // HDF5's core driver: the file grows in memory by this much at a time, and nothing reaches the disk
  // (no backing store) until close() or close_to_image() hands its bytes over.
  constexpr std::size_t increment = std::size_t{16} << 20;
  if (fapl.valid() && H5Pset_fapl_core(fapl.get(), increment, 0) < 0) fapl = {};
  const hid_t id = fapl.valid() ? H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()) : H5I_INVALID_HID;
  if (id < 0) throw OutputError("HDF5: cannot create file '" + path + "': " + hdf5_reason());
  H5File file(detail::H5Handle(id, H5Fclose), path);
  file.in_memory_ = true;
  return file;
}

H5File H5File::open(const std::string& path) {
  // HDF5 opens the path itself: only a regular file gets that far (io/input_file.hpp), since a FIFO
  // would block the open for ever and a device be read without end.
  try {
    require_regular_file(path);
  } catch (const InputFileError& e) {
    throw OutputError(std::string("HDF5: cannot open file ") + e.what());
  }
  QuietErrors quiet;
  const auto fapl = semi_close_access();
  const hid_t id = fapl.valid() ? H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()) : H5I_INVALID_HID;
  if (id < 0) throw OutputError("HDF5: cannot open file '" + path + "': " + hdf5_reason());
  return H5File(detail::H5Handle(id, H5Fclose), path);
}

std::string H5File::close_to_image() {
  QuietErrors quiet;
  if (!in_memory_) throw OutputError("HDF5: '" + file_ + "' was opened for reading: it has no image to write");
  if (H5Fflush(id_.get(), H5F_SCOPE_GLOBAL) < 0) throw OutputError("HDF5: cannot flush file '" + file_ + "': " + hdf5_reason());
  const ssize_t size = H5Fget_file_image(id_.get(), nullptr, 0);
  if (size < 0) throw OutputError("HDF5: cannot take the image of file '" + file_ + "': " + hdf5_reason());
  std::string image(static_cast<std::size_t>(size), '\0');
  if (size > 0 && H5Fget_file_image(id_.get(), image.data(), image.size()) != size) {
    throw OutputError("HDF5: cannot take the image of file '" + file_ + "': " + hdf5_reason());
  }
  // Closed after the image is taken, so that a group still open makes close fail (semi close degree)
  // before anything is written.
  if (id_.close() < 0) throw OutputError("HDF5: cannot close file '" + file_ + "': " + hdf5_reason());
  return image;
}

void H5File::close() {
  if (in_memory_) {
    detail::write_file(file_, close_to_image(), "the HDF5 file");
    return;
  }
  QuietErrors quiet;
  if (id_.close() < 0) throw OutputError("HDF5: cannot close file '" + file_ + "': " + hdf5_reason());
}

void close_hdf5() noexcept {
  // Not QuietErrors, whose restoring call after H5close would start the library again.
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  (void)H5close();
}

}  // namespace keff
