#include "src/params/build_tallies.hpp"

#include "io/input/cell_placements.hpp"
#include "src/params/build_problem.hpp"
#include "src/params/to_device.hpp"

#include <vector>

namespace keff {

namespace {

// Everything build_tallies copies to the device, assembled on the host.
struct HostTallies {
  std::vector<TallyLayout> tallies;
  std::vector<TallyFilterParams> filters;
  std::vector<TallyScore> scores;
  std::vector<RegularMesh> meshes;
  std::vector<int> item_bin;
  std::vector<Real> bounds;
  std::vector<CellInstanceTarget> cell_instance;
  std::vector<std::int64_t> instance_offsets;
};

// A cell, material or universe filter: the bin of every item of the problem (-1: not listed).
int add_item_map(HostTallies& h, const std::vector<int>& listed, std::size_t items) {
  const int data = static_cast<int>(h.item_bin.size());
  h.item_bin.resize(h.item_bin.size() + items, -1);
  for (std::size_t b = 0; b < listed.size(); ++b) h.item_bin[static_cast<std::size_t>(data + listed[b])] = static_cast<int>(b);
  return data;
}

// A cell_instance filter: per listed cell, its first bin and its placement offsets
// ([cells][lattice elements][lattice outers], kernels/tally/tally_filters.hpp).
void add_cell_instances(HostTallies& h, const model::Problem& p, const model::TallyFilter& f, TallyFilterParams& out) {
  out.data = static_cast<int>(h.cell_instance.size());
  out.count = static_cast<int>(f.items.size());
  int bins = 0;
  for (const int cell : f.items) {
    const CellPlacements placed = cell_placements(p, cell);
    h.cell_instance.push_back({cell, bins, static_cast<std::int64_t>(h.instance_offsets.size())});
    for (const auto* part : {&placed.cell_offset, &placed.element_offset, &placed.outer_offset}) {
      h.instance_offsets.insert(h.instance_offsets.end(), part->begin(), part->end());
    }
    bins += static_cast<int>(placed.count);
  }
}

TallyFilterParams filter_params(HostTallies& h, const model::Problem& p, const model::TallyFilter& f,
                                const std::vector<std::int64_t>& placed) {
  const TallyFilterInfo& info = info_of(f.kind);
  TallyFilterParams out;
  out.kind = f.kind;
  out.reads_levels = info.reads_levels;
  out.n_bins = static_cast<int>(filter_bins(p, f, placed));  // the reader checked it fits
  switch (info.bins) {
    case FilterBins::mesh: out.mesh = f.mesh; break;
    case FilterBins::names: out.data = add_item_map(h, f.items, item_count(p, info.items)); break;
    case FilterBins::placements: add_cell_instances(h, p, f, out); break;
    case FilterBins::bounds:
      out.data = static_cast<int>(h.bounds.size());
      out.count = static_cast<int>(f.bounds.size());
      h.bounds.insert(h.bounds.end(), f.bounds.begin(), f.bounds.end());
      break;
    case FilterBins::groups: break;
  }
  return out;
}

}  // namespace

TallyParams<DeviceMem> build_tallies(const DeviceExec& exec, const model::Problem& p) {
  HostTallies h;
  for (const auto& m : p.meshes) h.meshes.push_back(make_mesh(m.mesh));
  std::int64_t offset = 0;
  TallyParams<DeviceMem> out;
  const std::vector<std::int64_t> placed = placement_counts(p);
  for (const model::Tally& t : p.tallies) {
    TallyLayout layout;
    layout.first_filter = static_cast<int>(h.filters.size());
    layout.n_filters = static_cast<int>(t.filters.size());
    layout.first_score = static_cast<int>(h.scores.size());
    layout.n_scores = static_cast<int>(t.scores.size());
    layout.estimator = t.estimator;
    layout.offset = offset;
    for (std::size_t j = 0; j < t.filters.size(); ++j) {
      h.filters.push_back(filter_params(h, p, t.filters[j], placed));
      if (info_of(t.filters[j].kind).bins == FilterBins::mesh) layout.mesh_filter = static_cast<int>(j);
    }
    // Strides: the first filter varies slowest.
    std::int64_t stride = 1;
    for (int j = layout.n_filters - 1; j >= 0; --j) {
      TallyFilterParams& f = h.filters[static_cast<std::size_t>(layout.first_filter + j)];
      f.stride = stride;
      stride *= f.n_bins;
    }
    layout.n_bins = stride;
    h.scores.insert(h.scores.end(), t.scores.begin(), t.scores.end());
    offset += layout.n_bins * layout.n_scores;
    h.tallies.push_back(layout);
    out.tracklength |= t.estimator == TallyEstimator::tracklength;
    out.collision |= t.estimator == TallyEstimator::collision;
    out.analog |= t.estimator == TallyEstimator::analog;
    const bool at_collisions = t.estimator != TallyEstimator::tracklength;
    for (const auto& f : t.filters) out.geometry_at_collisions |= at_collisions && info_of(f.kind).reads_levels;
  }
  out.n_values = offset;
  out.n_cells = static_cast<int>(p.cells.size());
  for (const auto& l : p.lattices) out.n_lattice_elements += static_cast<int>(l.universes.size());
  out.tallies = to_device(exec, "keff::tally::layouts", h.tallies);
  out.filters = to_device(exec, "keff::tally::filters", h.filters);
  out.scores = to_device(exec, "keff::tally::scores", h.scores);
  out.meshes = to_device(exec, "keff::tally::meshes", h.meshes);
  out.item_bin = to_device(exec, "keff::tally::item_bins", h.item_bin);
  out.bounds = to_device(exec, "keff::tally::bounds", h.bounds);
  out.cell_instance = to_device(exec, "keff::tally::cell_instances", h.cell_instance);
  out.instance_offsets = to_device(exec, "keff::tally::instance_offsets", h.instance_offsets);
  return out;
}

}  // namespace keff
