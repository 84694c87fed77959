// Geometry slices (`keff plot`): the pixel kernel's values where the geometry alone says what they are,
// overlaps drawn and counted where they are, the colours and the PNG read back with the library that
// wrote it, and the [[plot]] input and slice sizes refused with their reasons.
#include "io/input/input.hpp"
#include "io/output/png_image.hpp"
#include "src/driver/plot_slice.hpp"
#include "src/host/plot_frame.hpp"
#include "src/host/plot_palette.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace keff::plot_test {

namespace fs = std::filesystem;

std::string input(const std::string& name) { return std::string(KEFF_TEST_INPUTS) + "/" + name; }

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(KEFF_TEST_SCRATCH) / "plot";
  fs::create_directories(dir);
  return dir / name;
}

model::Plot plot_named(const model::Problem& p, const std::string& name) {
  for (const auto& plot : p.plots) {
    if (plot.name == name) return complete_plot(p, plot);
  }
  ADD_FAILURE() << "no plot " << name;
  return {};
}

std::string error_of(const std::string& toml) {
  try {
    read_problem_string(toml, "plot.toml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// The checkerboard's input with `plot` in place of its [[plot]] tables.
std::string with_plot(const std::string& plot) {
  std::ifstream in(input("plot_2x2.toml"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text.substr(0, text.find("# 4 x 4 pixels")) + plot;
}

TEST(PlotSlice, CheckerboardPixelsFollowTheLattice) {
  const model::Problem p = read_problem_file(input("plot_2x2.toml"));
  const model::Plot plot = plot_named(p, "checkerboard");
  const SliceImage slice = render_slice(p, slice_frame(plot), plot.color_by);
  // Rows from the top: the lattice's top row is a b, its bottom row b a; 2 x 2 pixels per element.
  constexpr int a = 0, b = 1;
  const std::vector<std::int32_t> expected = {a, a, b, b, a, a, b, b, b, b, a, a, b, b, a, a};
  EXPECT_EQ(slice.pixels, expected);
  EXPECT_EQ(slice.counts.outside, 0);
  EXPECT_EQ(slice.counts.overlap, 0);
  EXPECT_EQ(slice.counts.gap, 0);
}

TEST(PlotSlice, SideSliceByCell) {
  const model::Problem p = read_problem_file(input("plot_2x2.toml"));
  const model::Plot plot = plot_named(p, "side");
  const SliceImage slice = render_slice(p, slice_frame(plot), plot.color_by);
  // yz at x = 0.25: across is y, up is z. Elements (0, 0) = ub for y < 1, (0, 1) = ua for y > 1, and z
  // does not matter: every row reads b b a a, in the cells that hold x < 1 in each universe.
  const auto index_of = [&](const std::string& name) {
    for (std::size_t i = 0; i < p.cells.size(); ++i) {
      if (p.cells[i].name == name) return static_cast<std::int32_t>(i);
    }
    return std::int32_t{-100};
  };
  const std::int32_t a = index_of("cell_a"), b = index_of("cell_b");
  for (int row = 0; row < 4; ++row) {
    const std::vector<std::int32_t> got(slice.pixels.begin() + 4 * row, slice.pixels.begin() + 4 * row + 4);
    EXPECT_EQ(got, (std::vector<std::int32_t>{b, b, a, a})) << "row " << row;
  }
}

TEST(PlotSlice, PictureHasTheColoursAndSize) {
  const model::Problem p = read_problem_file(input("plot_2x2.toml"));
  const model::Plot plot = plot_named(p, "checkerboard");
  const SliceImage slice = render_slice(p, slice_frame(plot), plot.color_by);
  const PlotPalette palette = plot_palette(p, plot);
  const fs::path file = scratch("checkerboard.png");
  write_png(file.string(), color_pixels(slice.pixels, 4, 4, palette), "the test picture");

  const RgbImage back = read_png(file.string());
  ASSERT_EQ(back.width, 4);
  ASSERT_EQ(back.height, 4);
  const Rgb set_by_input{200, 30, 40};  // colors = { a = [200, 30, 40] }
  const Rgb by_name = name_color("b");
  const auto at = [&](int i, int j) { return Rgb{back.pixel(i, j)[0], back.pixel(i, j)[1], back.pixel(i, j)[2]}; };
  EXPECT_EQ(at(0, 0), set_by_input);  // top left: a
  EXPECT_EQ(at(3, 0), by_name);       // top right: b
  EXPECT_EQ(at(0, 3), by_name);       // bottom left: b
  EXPECT_EQ(at(3, 3), set_by_input);  // bottom right: a
  EXPECT_NE(by_name, palette.overlap);

  const std::string legend = plot_legend(slice.pixels, palette, "title");
  EXPECT_NE(legend.find("#c81e28           8  50.000%  a"), std::string::npos) << legend;
}

TEST(PlotSlice, OverlapDrawnWhereItIsAndCounted) {
  const model::Problem p = read_problem_file(input("bad/plot_overlap.toml"));
  const model::Plot plot = plot_named(p, "overlap");
  const SliceImage slice = render_slice(p, slice_frame(plot), plot.color_by);
  // Pixel centres at x = 0.1, 0.3, ..., 1.9: only x = 1.1 lies in 1 < x < 1.2, in both rows.
  EXPECT_EQ(slice.counts.overlap, 2);
  for (int row = 0; row < 2; ++row) {
    for (int i = 0; i < 10; ++i) {
      EXPECT_EQ(slice.pixels[static_cast<std::size_t>(10 * row + i)], i == 5 ? plot_pixel::overlap : 0) << i;
    }
  }
  const PlotPalette palette = plot_palette(p, plot);
  const fs::path file = scratch("overlap.png");
  write_png(file.string(), color_pixels(slice.pixels, 10, 2, palette), "the test picture");
  const RgbImage back = read_png(file.string());
  EXPECT_EQ((Rgb{back.pixel(5, 1)[0], back.pixel(5, 1)[1], back.pixel(5, 1)[2]}), (Rgb{255, 0, 255}));
}

TEST(PlotSlice, SliceOutsideTheModelIsBlank) {
  const model::Problem p = read_problem_file(input("plot_2x2.toml"));
  model::Plot plot = plot_named(p, "checkerboard");
  plot.origin = std::array<double, 3>{10, 10, 0};
  const SliceImage slice = render_slice(p, slice_frame(plot), plot.color_by);
  EXPECT_EQ(slice.counts.outside, 16);
  EXPECT_FALSE(slice_meets_model(p, plot));
}

TEST(PlotSlice, DefaultsComeFromTheGeometry) {
  const model::Problem p = read_problem_file(input("plot_2x2.toml"));
  model::Plot plot;
  plot.basis = PlotBasis::xz;
  plot = complete_plot(p, plot);
  EXPECT_EQ(*plot.origin, (std::array<double, 3>{1, 1, 0}));
  EXPECT_EQ(*plot.width, (std::array<double, 2>{2, 2}));
  EXPECT_EQ(*plot.pixels, (std::array<std::int64_t, 2>{default_plot_pixels, default_plot_pixels}));
  plot.width = std::array<double, 2>{4, 1};
  plot.pixels.reset();
  EXPECT_EQ(*complete_plot(p, plot).pixels, (std::array<std::int64_t, 2>{1000, 250}));
}

TEST(PlotInput, BadPlotsAreRefusedWithTheirKey) {
  EXPECT_NE(error_of(with_plot("[[plot]]\nbasis = \"ab\"\n")).find("plot[plot1].basis: invalid value 'ab' (allowed: xy, xz, yz)"),
            std::string::npos);
  EXPECT_NE(error_of(with_plot("[[plot]]\npixels = [0, 4]\n")).find("plot[plot1].pixels: invalid value [0, 4]"), std::string::npos);
  EXPECT_NE(error_of(with_plot("[[plot]]\npixels = [65536, 65536]\n")).find("65536 x 65536 pixels (about 47.2 GB)"), std::string::npos);
  EXPECT_NE(error_of(with_plot("[[plot]]\nwidth = [1.0, -1.0]\n")).find("plot[plot1].width"), std::string::npos);
  EXPECT_NE(error_of(with_plot("[[plot]]\ncolors = { c = [1, 2, 3] }\n")).find("material 'c' is not defined"),
            std::string::npos);
  EXPECT_NE(error_of(with_plot("[[plot]]\ncolors = { a = [1, 2, 300] }\n")).find("integers in [0, 255]"),
            std::string::npos);
  EXPECT_NE(error_of(with_plot("[[plot]]\ncolor_by = \"cell\"\ncolors = { a = [1, 2, 3] }\n")).find("cell 'a' is not defined"),
            std::string::npos);
  EXPECT_NE(error_of(with_plot("[[plot]]\nname = \"p\"\n[[plot]]\nname = \"p\"\n")).find("duplicate plot name 'p'"),
            std::string::npos);
  EXPECT_NE(error_of(with_plot("[[plot]]\nfile = \"x.png\"\n[[plot]]\nfile = \"x.png\"\n")).find("another plot's"),
            std::string::npos);
  EXPECT_NE(error_of(with_plot("[[plot]]\nscale = 2\n")).find("plot[#1].scale: unknown key"), std::string::npos);
}

TEST(PlotPng, TruncatedOrForeignFilesAreRefused) {
  RgbImage image;
  image.width = 64;
  image.height = 64;
  image.rgb.resize(64 * 64 * 3);
  for (std::size_t i = 0; i < image.rgb.size(); ++i) image.rgb[i] = static_cast<std::uint8_t>(i * 7919 % 251);
  const fs::path file = scratch("noise.png");
  write_png(file.string(), image, "the test picture");
  const RgbImage back = read_png(file.string());
  EXPECT_EQ(back.rgb, image.rgb);

  const auto size = fs::file_size(file);
  fs::resize_file(file, size / 2);
  EXPECT_THROW(read_png(file.string()), InputError);
  std::ofstream(scratch("text.png")) << "not a picture\n";
  EXPECT_THROW(read_png(scratch("text.png").string()), InputError);
}

}  // namespace keff::plot_test
