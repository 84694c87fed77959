// [[plot]]: the slices `keff plot` draws (examples/INPUT.md, "[[plot]]"). Read once the materials and the
// geometry are, since colours name materials and cells; what is left out is worked out when the slice
// is drawn (src/host/plot_frame.hpp), where the geometry's bounding box is known.
#include "io/input/input_parts.hpp"

#include <set>

namespace keff::detail {

namespace {

constexpr std::string_view rgb_rule = "[r, g, b], integers in [0, 255]";

std::array<std::uint8_t, 3> read_rgb(const Section& colors, const toml::node& n, std::string_view key) {
  const auto* arr = n.as_array();
  if (!arr || arr->size() != 3) colors.fail_at(n, key, "expected 3 integers, got " + type_name(n), rgb_rule);
  std::array<std::uint8_t, 3> rgb{};
  for (std::size_t c = 0; c < 3; ++c) {
    const auto* v = (*arr)[c].as_integer();
    if (!v || v->get() < 0 || v->get() > 255) colors.fail_at(n, key, "invalid colour component", rgb_rule);
    rgb[c] = static_cast<std::uint8_t>(v->get());
  }
  return rgb;
}

// colors = { <material or cell name> = [r, g, b], ... }, by what the plot colours by.
std::vector<model::PlotColor> read_colors(const Section& s, const model::Problem& p, PlotColorBy by) {
  const auto colors = s.table("colors");
  if (!colors) return {};
  const bool materials = by == PlotColorBy::material;
  std::vector<std::string> names;
  if (materials) {
    for (const auto& m : p.materials) names.push_back(m.name);
  } else {
    for (const auto& c : p.cells) names.push_back(c.name);
  }
  std::vector<model::PlotColor> out;
  for (const auto& [key, node] : colors->raw()) {
    const auto it = std::find(names.begin(), names.end(), key.str());
    if (it == names.end()) {
      colors->fail_at(node, key.str(),
                      std::string(materials ? "material " : "cell ") + in_quotes(key.str()) + " is not defined",
                      std::string(materials ? "defined materials: " : "defined cells: ") + join(names));
    }
    out.push_back({static_cast<int>(it - names.begin()), read_rgb(*colors, node, key.str())});
  }
  return out;
}

model::Plot read_plot(Section s, const model::Problem& p, std::size_t index) {
  s.allow_only({"name", "basis", "origin", "width", "pixels", "color_by", "file", "colors"});
  model::Plot plot;
  plot.where = s.loc();
  plot.name = s.string("name").value_or("plot" + std::to_string(index + 1));
  if (!valid_name(plot.name)) s.fail("name", "invalid name " + in_quotes(plot.name), name_rule);
  s.set_path("plot[" + plot.name + "]");
  plot.basis = s.choice("basis", plot.basis);
  plot.color_by = s.choice("color_by", plot.color_by);
  if (s.has("origin")) {
    const auto v = s.numbers("origin", 3, 3, "[x, y, z] in cm");
    plot.origin = {v[0], v[1], v[2]};
  }
  if (s.has("width")) {
    constexpr std::string_view allowed = "[across, up] in cm, each > 0";
    const auto v = s.numbers("width", 2, 2, allowed);
    if (!(v[0] > 0 && v[1] > 0)) s.fail("width", "a width is not above 0", allowed);
    plot.width = {v[0], v[1]};
  }
  if (s.has("pixels")) {
    const std::string allowed = limits::plot_pixels_allowed();
    const auto v = s.integers("pixels", 2, allowed);
    if (v[0] < 1 || v[1] < 1) {
      s.fail("pixels", "invalid value [" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + "]", allowed);
    }
    if (!limits::plot_pixels_fit(v[0], v[1])) {
      s.fail("pixels", limits::plot_size_text(v[0], v[1]), allowed);
    }
    plot.pixels = {v[0], v[1]};
  }
  plot.file = s.string("file").value_or(plot.name + ".png");
  if (plot.file.empty()) s.fail("file", "an empty file name", "a path for the PNG");
  plot.colors = read_colors(s, p, plot.color_by);
  return plot;
}

}  // namespace

void read_plots(const Section& root, model::Problem& p) {
  std::set<std::string> names, files;
  for (const Section& s : array_of_tables(root, "plot")) {
    model::Plot plot = read_plot(s, p, p.plots.size());
    if (!names.insert(plot.name).second) s.fail("name", "duplicate plot name " + in_quotes(plot.name), "a unique name");
    if (!files.insert(plot.file).second) {
      s.fail("file", "file " + in_quotes(plot.file) + " is another plot's", "one file per plot");
    }
    p.plots.push_back(std::move(plot));
  }
}

}  // namespace keff::detail
