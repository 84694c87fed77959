// PNG through libpng's simplified API (png_image_*), which reports every failure as a message in the
// image struct instead of a longjmp across C++ frames.
#include "io/output/png_image.hpp"

#include "io/atomic_write.hpp"
#include "io/input/input.hpp"
#include "io/input_file.hpp"
#include "io/output_error.hpp"
#include "io/printable.hpp"

#if KEFF_HAVE_PNG
#include <png.h>
#endif

#include <string_view>

namespace keff {

#if KEFF_HAVE_PNG

// A picture read back is at most this large on disk (a 65536 x 65536 slice of flat colours is far less).
constexpr std::int64_t max_png_bytes = std::int64_t{1} << 30;

bool png_supported() { return true; }

void write_png(const std::string& path, const RgbImage& image, const std::string& what) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  png.width = static_cast<png_uint_32>(image.width);
  png.height = static_cast<png_uint_32>(image.height);
  png.format = PNG_FORMAT_RGB;
  png_alloc_size_t bytes = 0;
  // A first call with no buffer asks for the size, the second writes.
  if (png_image_write_to_memory(&png, nullptr, &bytes, 0, image.rgb.data(), 0, nullptr)) {
    std::string out(bytes, '\0');
    if (png_image_write_to_memory(&png, out.data(), &bytes, 0, image.rgb.data(), 0, nullptr)) {
      out.resize(bytes);
      detail::write_file_atomically(path, out, what);
      return;
    }
  }
  const std::string why = png.message;
  png_image_free(&png);
  throw OutputError("cannot write " + what + " '" + printable(path) + "': libpng: " + why);
}

RgbImage read_png(const std::string& path) {
  std::string bytes;
  try {
    bytes = read_regular_file(path, max_png_bytes);
  } catch (const InputFileError& e) {
    throw InputError(std::string("cannot read PNG ") + e.what());
  }
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  RgbImage image;
  if (png_image_begin_read_from_memory(&png, bytes.data(), bytes.size())) {
    png.format = PNG_FORMAT_RGB;
    image.width = png.width;
    image.height = png.height;
    image.rgb.resize(PNG_IMAGE_SIZE(png));
    if (png_image_finish_read(&png, nullptr, image.rgb.data(), 0, nullptr)) return image;
  }
  const std::string why = png.message;
  png_image_free(&png);
  throw InputError("'" + printable(path) + "' is not a readable PNG: libpng: " + why);
}

#else

constexpr const char* without_png = "this keff was built without libpng (Debian: apt install libpng-dev, then rebuild)";

bool png_supported() { return false; }

void write_png(const std::string& path, const RgbImage&, const std::string& what) {
  throw OutputError("cannot write " + what + " '" + printable(path) + "': " + without_png);
}

RgbImage read_png(const std::string& path) {
  throw InputError("cannot read PNG '" + printable(path) + "': " + without_png);
}

#endif

}  // namespace keff
