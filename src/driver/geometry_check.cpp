// The sampled geometry check: the device walks the points in chunks, the host collects the faults of a
// chunk (only when it has any) into findings, in the order of the points, and rank 0 merges the ranks'
// findings. Only one chunk's verdicts are held at a time, so any number of points fits in memory.
#include "src/driver/geometry_check.hpp"

#include "io/input/geometry_bounds.hpp"
#include "kernels/device.hpp"
#include "kernels/geometry_check.hpp"
#include "src/params/build_geometry.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <tuple>
#include <vector>

namespace keff {

namespace {

// Points per kernel launch: enough to fill a GPU, and 4 MB of verdicts.
constexpr std::int64_t chunk_points = std::int64_t{1} << 16;

using FindingKey = std::tuple<int, int, int>;  // kind, a, b

FindingKey key_of(const GeometryFault& f) { return {static_cast<int>(f.kind), f.a, f.b}; }

bool is_fault(GeometryFaultKind kind) { return kind != GeometryFaultKind::none && kind != GeometryFaultKind::on_surface; }

// Findings in order of first point, each key once.
class Findings {
 public:
  // Counts `points` more points of the finding `f` (its first point if it is new).
  void add(const GeometryFinding& f) {
    const auto [it, added] = index_.try_emplace(key_of(f.fault), list_.size());
    if (added) {
      list_.push_back(f);
    } else {
      list_[it->second].points += f.points;
    }
  }
  const std::vector<GeometryFinding>& list() const { return list_; }

 private:
  std::map<FindingKey, std::size_t> index_;
  std::vector<GeometryFinding> list_;
};

SampleBox sample_box(const model::Box& b) {
  SampleBox box;
  for (int axis = 0; axis < 3; ++axis) {
    box.lower[axis] = b.lower[static_cast<std::size_t>(axis)];
    box.width[axis] = b.upper[static_cast<std::size_t>(axis)] - b.lower[static_cast<std::size_t>(axis)];
  }
  return box;
}

// Rank 0 gets every rank's findings (GeometryFinding is plain data) and merges them in rank order: the
// ranks hold ascending ranges of points, so each finding keeps the first point of the lowest rank.
std::vector<GeometryFinding> merge_over_ranks(const Communicator& comm, const std::vector<GeometryFinding>& local) {
  const std::vector<char> bytes =
      comm.gather_bytes(local.data(), static_cast<std::int64_t>(local.size() * sizeof(GeometryFinding)));
  if (!comm.is_root()) return {};
  std::vector<GeometryFinding> all(bytes.size() / sizeof(GeometryFinding));
  std::memcpy(all.data(), bytes.data(), all.size() * sizeof(GeometryFinding));
  Findings merged;
  for (const GeometryFinding& f : all) merged.add(f);
  std::vector<GeometryFinding> out = merged.list();
  std::stable_sort(out.begin(), out.end(),
                   [](const GeometryFinding& a, const GeometryFinding& b) { return a.first_point < b.first_point; });
  return out;
}

}  // namespace

GeometryCheck check_geometry(const model::Problem& problem, const Communicator& comm, std::int64_t points) {
  Kokkos::Profiling::ScopedRegion region("keff::geometry::check");
  const auto start = std::chrono::steady_clock::now();
  const DeviceExec exec;
  const GeometryParams<DeviceMem> geometry = build_geometry(exec, problem);
  GeometryCheck check;
  const auto bounds = geometry_bounding_box(problem);
  check.box = bounds ? *bounds : problem.settings.source;
  check.box_is_source = !bounds;
  check.points = points;
  const SampleBox box = sample_box(check.box);

  const IndexRange mine = EvenSplit(points, comm.size()).part(comm.rank());
  const std::int64_t chunk = std::clamp<std::int64_t>(mine.count, 1, chunk_points);
  const Kokkos::View<GeometryFault*, DeviceMem> verdicts(
      Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "keff::geometry::check_verdicts"), chunk);
  const auto host = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, verdicts);
  Findings local;
  std::int64_t counts[2] = {0, 0};  // fault points, on-surface points
  for (std::int64_t first = mine.first; first < mine.end(); first += chunk) {
    const IndexRange part{first, std::min(chunk, mine.end() - first)};
    const GeometryCheckCounts c = check_geometry_points(exec, geometry, box, part, verdicts);
    counts[0] += c.faults;
    counts[1] += c.on_surface;
    if (c.faults == 0) continue;
    Kokkos::deep_copy(exec, host, verdicts);
    exec.fence("keff::geometry::check_verdicts");
    for (std::int64_t i = 0; i < part.count; ++i) {
      if (is_fault(host(i).kind)) local.add({host(i), box.point(part.first + i), part.first + i, 1});
    }
  }
  comm.sum(counts, 2);
  check.fault_points = counts[0];
  check.on_surface_points = counts[1];
  check.findings = merge_over_ranks(comm, local.list());
  check.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return check;
}

}  // namespace keff
