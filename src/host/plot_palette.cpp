#include "src/host/plot_palette.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace keff {

namespace {

// FNV-1a, then MurmurHash3's finaliser so names one letter apart land far apart in every bit: a fixed
// hash, the same on every machine and compiler (std::hash is not).
std::uint64_t name_hash(const std::string& s) {
  std::uint64_t h = 14695981039346656037ull;
  for (const unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

Rgb hsv_to_rgb(double hue, double saturation, double value) {
  const double c = value * saturation;
  const double h = hue / 60.0;
  const double x = c * (1 - std::fabs(std::fmod(h, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  switch (static_cast<int>(h) % 6) {
    case 0: r = c, g = x; break;
    case 1: r = x, g = c; break;
    case 2: g = c, b = x; break;
    case 3: g = x, b = c; break;
    case 4: r = x, b = c; break;
    default: r = c, b = x; break;
  }
  const double m = value - c;
  const auto byte = [&](double v) { return static_cast<std::uint8_t>(std::lround(255 * (v + m))); };
  return {byte(r), byte(g), byte(b)};
}

std::string hex(const Rgb& c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c[0], c[1], c[2]);
  return buf;
}

}  // namespace

Rgb PlotPalette::color_of(std::int32_t pixel) const {
  switch (pixel) {
    case plot_pixel::void_material: return void_material;
    case plot_pixel::outside: return outside;
    case plot_pixel::overlap: return overlap;
    case plot_pixel::gap: return gap;
    default: return colors[static_cast<std::size_t>(pixel)];
  }
}

Rgb name_color(const std::string& name) {
  const std::uint64_t h = name_hash(name);
  const double hue = 360.0 * static_cast<double>(h & 0xffff) / 65536.0;
  const double saturation = 0.45 + 0.35 * static_cast<double>((h >> 16) & 0xff) / 255.0;
  const double value = 0.65 + 0.30 * static_cast<double>((h >> 24) & 0xff) / 255.0;
  return hsv_to_rgb(hue, saturation, value);
}

PlotPalette plot_palette(const model::Problem& problem, const model::Plot& plot) {
  PlotPalette palette;
  palette.color_by = plot.color_by;
  if (plot.color_by == PlotColorBy::material) {
    for (const auto& m : problem.materials) palette.names.push_back(m.name);
  } else {
    for (std::size_t i = 0; i < problem.cells.size(); ++i) {
      const auto& name = problem.cells[i].name;
      palette.names.push_back(name.empty() ? "cell#" + std::to_string(i + 1) : name);
    }
  }
  for (const auto& name : palette.names) palette.colors.push_back(name_color(name));
  for (const auto& c : plot.colors) palette.colors[static_cast<std::size_t>(c.index)] = c.rgb;
  return palette;
}

RgbImage color_pixels(const std::vector<std::int32_t>& pixels, std::int64_t nx, std::int64_t ny,
                      const PlotPalette& palette) {
  RgbImage image;
  image.width = nx;
  image.height = ny;
  image.rgb.resize(static_cast<std::size_t>(3 * nx * ny));
  std::uint8_t* out = image.rgb.data();
  for (const std::int32_t p : pixels) {
    const Rgb c = palette.color_of(p);
    *out++ = c[0];
    *out++ = c[1];
    *out++ = c[2];
  }
  return image;
}

std::string plot_legend(const std::vector<std::int32_t>& pixels, const PlotPalette& palette, const std::string& title) {
  // Counts by value, the special values first (index value + special_count).
  std::vector<std::int64_t> count(palette.names.size() + plot_pixel::special_count, 0);
  for (const std::int32_t p : pixels) ++count[static_cast<std::size_t>(p + plot_pixel::special_count)];
  const double total = static_cast<double>(std::max<std::size_t>(pixels.size(), 1));
  std::string out = "# " + title + "\n# colour  pixels      share    " +
                    std::string(palette.color_by == PlotColorBy::material ? "material" : "cell") + "\n";
  const auto line = [&](const Rgb& c, std::int64_t n, const std::string& what) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s %11lld %7.3f%%  ", hex(c).c_str(), static_cast<long long>(n),
                  100.0 * static_cast<double>(n) / total);
    out += buf + what + "\n";
  };
  for (std::size_t i = 0; i < palette.names.size(); ++i) {
    const std::int64_t n = count[i + plot_pixel::special_count];
    if (n > 0) line(palette.colors[i], n, palette.names[i]);
  }
  const auto special = [&](std::int32_t v) { return count[static_cast<std::size_t>(v + plot_pixel::special_count)]; };
  if (special(plot_pixel::void_material) > 0) line(palette.void_material, special(plot_pixel::void_material), "(void)");
  if (special(plot_pixel::outside) > 0) line(palette.outside, special(plot_pixel::outside), "(outside the model)");
  if (special(plot_pixel::overlap) > 0) {
    line(palette.overlap, special(plot_pixel::overlap), "(OVERLAP: two cells of one universe hold the point)");
  }
  if (special(plot_pixel::gap) > 0) {
    line(palette.gap, special(plot_pixel::gap), "(GAP: no cell of the universe placed there holds the point)");
  }
  return out;
}

}  // namespace keff
