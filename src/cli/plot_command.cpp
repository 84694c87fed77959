// `keff plot`: every rank reads the input and agrees that the slices are good, then rank 0 draws them
// (a slice is one kernel; more ranks would only split a few seconds of work) and writes each picture
// with its legend beside it.
#include "src/cli/plot_command.hpp"

#include "io/input/input.hpp"
#include "io/output/png_image.hpp"
#include "io/atomic_write.hpp"
#include "io/limits.hpp"
#include "io/output_error.hpp"
#include "io/output_path.hpp"
#include "io/printable.hpp"
#include "src/cli/run_options.hpp"
#include "src/driver/plot_slice.hpp"
#include "src/host/interrupt.hpp"
#include "src/host/plot_frame.hpp"
#include "src/host/plot_palette.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iostream>
#include <optional>
#include <string>

namespace keff {

namespace {

constexpr const char* plot_usage_head =
    "usage: keff plot [input.toml] [options]\n"
    "\n"
    "Draws slices of the geometry as PNG pictures: each pixel is located in the model on the device, as\n"
    "transport locates a neutron, and coloured by its material or cell (a colour per name, the same in\n"
    "every picture; [[plot]] colors = { name = [r, g, b] } sets one). Overlaps (a point two cells of one\n"
    "universe hold) are magenta and gaps (a point no cell of a filled universe holds) black, and both are\n"
    "counted; outside the model is white, void cells light grey. Beside each FILE.png, FILE.legend.txt says\n"
    "what each colour is and how many pixels show it.\n"
    "\n"
    "Without slice options, draws every [[plot]] of the input (examples/INPUT.md), or one xy slice through the\n"
    "middle of the geometry when it has none. --plot NAME draws that [[plot]] alone, with any of the options\n"
    "below in place of its keys; without --plot, the options draw one slice of their own:\n";
constexpr const char* plot_usage_tail =
    "Without an input file, draws the embedded default benchmark. Exit status: 0 pictures written,\n"
    "1 a picture could not be written, 2 bad usage or input.\n";

// "A,B[,C]" as `n` finite numbers.
template <std::size_t n>
std::array<double, n> parse_numbers(std::string_view flag, std::string_view text, std::string_view allowed) {
  std::array<double, n> out{};
  std::string_view rest = text;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t comma = rest.find(',');
    if ((i + 1 < n) != (comma != std::string_view::npos)) {
      throw UsageError(std::string(flag) + ": '" + printable(text) + "' is not allowed (allowed: " + std::string(allowed) + ")");
    }
    const std::string_view part = rest.substr(0, comma);
    const std::string copy(part);  // std::from_chars for double: GCC 12 has it
    double v = 0;
    const auto [ptr, ec] = std::from_chars(copy.data(), copy.data() + copy.size(), v);
    if (ec != std::errc() || ptr != copy.data() + copy.size() || !std::isfinite(v)) {
      throw UsageError(std::string(flag) + ": '" + printable(text) + "' is not allowed (allowed: " + std::string(allowed) + ")");
    }
    out[i] = v;
    if (comma != std::string_view::npos) rest = rest.substr(comma + 1);
  }
  return out;
}

// The slice flags, each set only when given: they override a [[plot]] table's keys (--plot NAME) or the
// defaults of a slice of their own.
struct SliceFlags {
  std::optional<PlotBasis> basis;
  std::optional<std::array<double, 3>> origin;
  std::optional<std::array<double, 2>> width;
  std::optional<std::array<std::int64_t, 2>> pixels;
  std::optional<PlotColorBy> color_by;
  std::optional<std::string> file;
  bool any() const { return basis || origin || width || pixels || color_by || file; }
};

struct PlotRequest {
  std::optional<std::string> input;
  std::optional<std::string> table;  // --plot NAME: that [[plot]] of the input
  SliceFlags flags;
};

// `plot` with the flags given set over it. A new colour-by drops the table's colours (they name
// materials or cells by the old one).
model::Plot with_flags(model::Plot plot, const SliceFlags& f) {
  if (f.basis) plot.basis = *f.basis;
  if (f.origin) plot.origin = f.origin;
  if (f.width) plot.width = f.width;
  if (f.pixels) plot.pixels = f.pixels;
  if (f.color_by && *f.color_by != plot.color_by) {
    plot.color_by = *f.color_by;
    plot.colors.clear();
  }
  if (f.file) plot.file = *f.file;
  if (f.basis && !f.width && plot.width) plot.width.reset();  // the table's width was across its own plane
  if (f.basis && !f.pixels && plot.pixels) plot.pixels.reset();
  return plot;
}

// One option of `keff plot`: its spellings, its value's name, its words (the help's column) and how it
// sets the request. The parser and `keff plot --help` both read the table below.
struct PlotFlag {
  std::string_view name, alias, value, help;
  void (*set)(std::string_view flag, std::string_view value, PlotRequest& r);
};

constexpr PlotFlag plot_flags[] = {
    {"--basis", "", "xy|xz|yz", "the plane, named by the axes across and up the picture (default xy)",
     [](std::string_view f, std::string_view v, PlotRequest& r) { r.flags.basis = parse_choice<PlotBasis>(f, v); }},
    {"--origin", "", "X,Y,Z", "its centre in cm (default: the centre of the geometry's bounding box)",
     [](std::string_view f, std::string_view v, PlotRequest& r) {
       r.flags.origin = parse_numbers<3>(f, v, "X,Y,Z in cm, e.g. 0,0,0");
     }},
    {"--width", "", "W,H", "its extent across and up in cm (default: the bounding box's)",
     [](std::string_view f, std::string_view v, PlotRequest& r) {
       const auto w = parse_numbers<2>(f, v, "W,H in cm, each above 0, e.g. 42.84,42.84");
       if (!(w[0] > 0 && w[1] > 0)) throw UsageError("--width: a width is not above 0 (allowed: W,H in cm, each above 0)");
       r.flags.width = w;
     }},
    {"--pixels", "", "NX,NY",
     "pixels across and up (default: 1000 along the longer side, square pixels;\n"
     "at most 65536 a side and 10^8 in all, about 11 bytes each)",
     [](std::string_view f, std::string_view v, PlotRequest& r) {
       const auto n = parse_numbers<2>(f, v, limits::plot_pixels_allowed());
       const auto nx = static_cast<std::int64_t>(n[0]), ny = static_cast<std::int64_t>(n[1]);
       if (static_cast<double>(nx) != n[0] || static_cast<double>(ny) != n[1] || nx < 1 || ny < 1) {
         throw UsageError("--pixels: '" + printable(v) + "' is not allowed (allowed: " + limits::plot_pixels_allowed() + ")");
       }
       if (!limits::plot_pixels_fit(nx, ny)) {
         throw UsageError("--pixels: " + limits::plot_size_text(nx, ny) + " is not allowed (allowed: " +
                          limits::plot_pixels_allowed() + ")");
       }
       r.flags.pixels = std::array<std::int64_t, 2>{nx, ny};
     }},
    {"--color", "", "material|cell", "",
     [](std::string_view f, std::string_view v, PlotRequest& r) { r.flags.color_by = parse_choice<PlotColorBy>(f, v); }},
    {"--output", "-o", "FILE", "the picture (default plot.png)",
     [](std::string_view f, std::string_view v, PlotRequest& r) {
       if (v.empty()) throw UsageError(std::string(f) + ": an empty file name (allowed: a path for the PNG)");
       r.flags.file = std::string(v);
     }},
    {"--plot", "", "NAME", "that [[plot]] of the input alone, these options over its keys",
     [](std::string_view, std::string_view v, PlotRequest& r) { r.table = std::string(v); }},
};

}  // namespace

std::string plot_usage_text() {
  std::string out = plot_usage_head;
  for (const PlotFlag& f : plot_flags) {
    std::string lead = "  ";
    if (!f.alias.empty()) lead.append(f.alias).append(", ");
    lead.append(f.name).append(" ").append(f.value);
    if (lead.size() < 23) lead.resize(23, ' ');
    else if (!f.help.empty()) lead.append(" ");
    out.append(lead);
    for (const char c : f.help) {
      out.push_back(c);
      if (c == '\n') out.append(23, ' ');  // a help line goes on under its column
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out.append("\n");
  }
  return out + plot_usage_tail;
}

namespace {

PlotRequest parse_plot_args(const std::vector<std::string_view>& args) {
  PlotRequest r;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    const auto flag = std::find_if(std::begin(plot_flags), std::end(plot_flags),
                                   [&](const PlotFlag& f) { return f.name == a || (!f.alias.empty() && f.alias == a); });
    if (flag != std::end(plot_flags)) {
      if (i + 1 >= args.size()) throw UsageError("plot: " + std::string(a) + " needs a value");
      flag->set(a, args[++i], r);
    } else if (a.starts_with("-")) {
      throw UsageError("plot: unknown option '" + printable(a) + "'");
    } else if (!r.input) {
      r.input = std::string(a);
    } else {
      throw UsageError("plot: more than one input file ('" + printable(*r.input) + "', '" + printable(a) + "')");
    }
  }
  return r;
}

std::string legend_path(const std::string& png) {
  const std::string stem = png.ends_with(".png") ? png.substr(0, png.size() - 4) : png;
  return stem + ".legend.txt";
}

// The slices to draw, completed and with their outputs checked (writable, none the input file), before
// anything is drawn.
std::vector<model::Plot> plan_plots(const PlotRequest& request, const model::Problem& problem) {
  std::vector<model::Plot> plots;
  model::Plot fresh;
  fresh.name = "plot";
  fresh.file = "plot.png";
  if (request.table) {
    const auto it = std::find_if(problem.plots.begin(), problem.plots.end(),
                                 [&](const model::Plot& p) { return p.name == *request.table; });
    if (it == problem.plots.end()) {
      std::string names;
      for (const auto& p : problem.plots) names += (names.empty() ? "" : ", ") + p.name;
      throw UsageError("--plot: " + printable(problem.source_name) + " has no [[plot]] named '" +
                       printable(*request.table) + "' (allowed: " + (names.empty() ? "none defined" : names) + ")");
    }
    plots.push_back(with_flags(*it, request.flags));
  } else if (request.flags.any()) {
    plots.push_back(with_flags(fresh, request.flags));
  } else if (!problem.plots.empty()) {
    plots = problem.plots;
  } else {
    plots.push_back(fresh);
  }
  std::vector<InputFile> inputs;
  if (request.input) inputs.push_back({*request.input, "the input file"});
  // Every picture and legend is an output of the command: none may replace an input or another one (a
  // plot's `file` naming another plot's legend).
  std::vector<OutputFile> outputs;
  for (auto& plot : plots) {
    plot = complete_plot(problem, plot);
    outputs.push_back({plot.file, "the picture of plot '" + plot.name + "'"});
    outputs.push_back({legend_path(plot.file), "the legend of plot '" + plot.name + "'"});
  }
  check_command_outputs(outputs, inputs);
  return plots;
}

void draw(const model::Problem& problem, const model::Plot& plot, std::ostream& out) {
  const SliceFrame frame = slice_frame(plot);
  const SliceImage slice = render_slice(problem, frame, plot.color_by);
  const PlotPalette palette = plot_palette(problem, plot);
  write_png(plot.file, color_pixels(slice.pixels, frame.nx, frame.ny, palette), "the picture of plot '" + plot.name + "'");
  const std::string title = printable(problem.source_name) + ": " + describe_slice(plot);
  const std::string legend = plot_legend(slice.pixels, palette, title);
  detail::write_file_atomically(legend_path(plot.file), legend, "the legend of plot '" + plot.name + "'");

  char times[96];
  std::snprintf(times, sizeof times, "pixel kernel %.3f s, geometry and copy %.3f s", slice.kernel_seconds,
                slice.total_seconds - slice.kernel_seconds);
  out << "keff: plot '" << plot.name << "': " << describe_slice(plot) << "\n  " << printable(plot.file) << " ("
      << times << "), legend " << printable(legend_path(plot.file)) << "\n";
  const std::int64_t all = frame.nx * frame.ny;
  if (slice.counts.overlap > 0) {
    out << "  warning: " << slice.counts.overlap << " pixels show overlapping cells (magenta): keff check-geometry "
        << printable(problem.source_name) << " names the cells\n";
  }
  if (slice.counts.gap > 0) {
    out << "  warning: " << slice.counts.gap << " pixels show gaps (black): points no cell of a filled universe "
        << "holds; keff check-geometry names the universes\n";
  }
  if (slice.counts.outside == all) {
    out << "  warning: no pixel of the slice is inside the model, so the picture is blank (white): ";
    if (!slice_meets_model(problem, plot)) {
      out << "the slice lies outside the geometry's bounding box; move --origin or widen --width\n";
    } else if (model_within_a_pixel(problem, plot)) {
      out << "the model is narrower than one pixel, so no pixel's centre falls in it; narrow --width or give "
             "more --pixels\n";
    } else {
      out << "the slice meets the bounding box only where no cell is; move --origin or widen --width\n";
    }
  }
}

}  // namespace

int plot_command(const std::vector<std::string_view>& args, const Communicator& comm) {
  // As in `keff run`: what can fail on one rank alone is agreed on before rank 0 draws.
  PlotRequest request;
  model::Problem problem;
  std::vector<model::Plot> plots;
  std::string failure;
  bool usage = false, output = false;
  try {
    request = parse_plot_args(args);
    const std::string text = request.input ? read_input_file(*request.input) : std::string(default_problem_toml());
    problem = read_problem_string(text, request.input ? *request.input : "<default>");
    plots = plan_plots(request, problem);
    if (!png_supported()) {
      throw OutputError("keff plot cannot write PNG: this keff was built without libpng (Debian: apt install "
                        "libpng-dev, then rebuild)");
    }
  } catch (const UsageError& e) {
    failure = e.what();
    usage = true;
  } catch (const InputError& e) {
    failure = e.what();
  } catch (const OutputError& e) {
    failure = e.what();
    output = true;
  }
  failure = comm.first_error(failure);
  if (!failure.empty()) {
    if (comm.any(usage)) throw UsageError(failure);
    if (comm.any(output)) throw OutputError(failure);
    throw InputError(failure);
  }
  stop_if_interrupted(comm, input_read_phase);
  if (!comm.is_root()) return 0;
  for (const auto& plot : plots) draw(problem, plot, std::cout);
  return 0;
}

}  // namespace keff
