#pragma once
// PNG pictures (`keff plot`), written and read with libpng: 8-bit RGB, rows from the top. Written
// atomically like every output (io/atomic_write.hpp); read back by the tests and by anyone checking a
// picture, so the check uses the library that wrote it.
#include <cstdint>
#include <string>
#include <vector>

namespace keff {

struct RgbImage {
  std::int64_t width = 0, height = 0;
  std::vector<std::uint8_t> rgb;  // width * height * 3 bytes, row-major from the top

  const std::uint8_t* pixel(std::int64_t i, std::int64_t j) const {
    return rgb.data() + 3 * (j * width + i);
  }
};

// Whether this build can write and read PNG (libpng was found when it was configured).
bool png_supported();

// Writes `image` as the PNG `path`; `what` names it in messages. Throws OutputError (the path and the
// reason) when it cannot, and when this build has no libpng.
void write_png(const std::string& path, const RgbImage& image, const std::string& what);

// Reads the PNG `path` as 8-bit RGB. Throws InputError naming the path when it is not a PNG, is
// truncated or corrupt, or when this build has no libpng.
RgbImage read_png(const std::string& path);

}  // namespace keff
