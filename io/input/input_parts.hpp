#pragma once
// The parts of the TOML reader (io/input/input.cpp), one file per area of the schema.
#include "io/input/toml_section.hpp"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace keff::detail {

// io/input/input.cpp: `lower_left`/`upper_right` (each defaulting to `fallback`'s) and `shape` (defaulting to
// `fallback_shape`) of a table, checked: upper above lower, finite widths, at most limits::max_mesh_bins.
model::Box read_box(const Section& s, const model::Box& fallback);
model::Mesh read_mesh(const Section& s, const model::Box& fallback_box, std::array<int, 3> fallback_shape);

// io/input/input_data.cpp
model::NuclearDataSpec read_nuclear_data(const Section& root, model::PhysicsMode mode);
int read_groups(const Section& root, model::PhysicsMode mode);
std::vector<model::Material> read_materials(const Section& root, const model::Settings& settings, int groups,
                                            std::map<std::string, int>& index_of_name, std::vector<std::string>& notes);
// `temperature` of a [settings] or [[material]] table, in K (0 < T <= limits::max_temperature).
double read_temperature(const Section& s, double fallback);

// io/input/input_geometry.cpp
std::vector<model::Surface> read_surfaces(const Section& root, std::map<int, int>& index_of_id);
void read_geometry(const Section& root, const std::map<int, int>& surface_index, model::Problem& p);

// io/input/input_cmfd.cpp: [cmfd], once the settings, groups and geometry are read.
std::optional<model::Cmfd> read_cmfd(const Section& root, const model::Problem& p);

// io/input/input_tally.cpp: [settings.tally_mesh] (a shorthand), [[mesh]] and [[tally]], once the materials
// and the geometry are read; then that settings.max_batches and the triggers go together.
void read_tallies(const Section& root, model::Problem& p);
void check_triggers(const Section& root, const model::Problem& p);

// io/input/input_plot.cpp: [[plot]], once the materials and the geometry are read.
void read_plots(const Section& root, model::Problem& p);

}  // namespace keff::detail
