#pragma once
// The parts of the TOML reader (io/input.cpp), one file per area of the schema.
#include "io/toml_section.hpp"

#include <map>
#include <string>
#include <vector>

namespace keff::detail {

// io/input_data.cpp
model::NuclearDataSpec read_nuclear_data(const Section& root, model::PhysicsMode mode);
int read_groups(const Section& root, model::PhysicsMode mode);
std::vector<model::Material> read_materials(const Section& root, model::PhysicsMode mode, int groups,
                                            std::map<std::string, int>& index_of_name);

// io/input_geometry.cpp
std::vector<model::Surface> read_surfaces(const Section& root, std::map<int, int>& index_of_id);
void read_geometry(const Section& root, const std::map<int, int>& surface_index, model::Problem& p);

}  // namespace keff::detail
