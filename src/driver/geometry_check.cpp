// The sampled geometry check: the device walks the points in chunks, the host collects the faults of a
// chunk (only when it has any) into findings, in the order of the points, and rank 0 merges the ranks'
// findings. Only one chunk's verdicts are held at a time, so any number of points fits in memory.
#include "src/driver/geometry_check.hpp"

#include "io/input/geometry_bounds.hpp"
#include "io/test_point.hpp"
#include "kernels/device.hpp"
#include "kernels/geometry_check.hpp"
#include "src/host/interrupt.hpp"
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
  if (!all.empty()) std::memcpy(all.data(), bytes.data(), all.size() * sizeof(GeometryFinding));  // no findings: null data
  Findings merged;
  for (const GeometryFinding& f : all) merged.add(f);
  std::vector<GeometryFinding> out = merged.list();
  std::stable_sort(out.begin(), out.end(),
                   [](const GeometryFinding& a, const GeometryFinding& b) { return a.first_point < b.first_point; });
  return out;
}

// Checks the points `part` (verdicts into `verdicts`, copied to `host` when a chunk has faults), adding to
// the fault and on-surface counts and to `found`.
void check_chunk(const DeviceExec& exec, const GeometryParams<DeviceMem>& geometry, const SampleBox& box,
                 const IndexRange& part, const Kokkos::View<GeometryFault*, DeviceMem>& verdicts,
                 const typename Kokkos::View<GeometryFault*, DeviceMem>::host_mirror_type& host,
                 std::int64_t counts[2], Findings& found) {
  const GeometryCheckCounts c = check_geometry_points(exec, geometry, box, part, verdicts);
  counts[0] += c.faults;
  counts[1] += c.on_surface;
  if (c.faults == 0) return;
  Kokkos::deep_copy(exec, host, verdicts);
  exec.fence("keff::geometry::check_verdicts");
  for (std::int64_t i = 0; i < part.count; ++i) {
    if (is_fault(host(i).kind)) found.add({host(i), box.point(part.first + i), part.first + i, 1});
  }
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

  const EvenSplit split(points, comm.size());
  const IndexRange mine = split.part(comm.rank());
  // Every rank runs as many chunks as the largest share needs (part 0), so that the ranks can agree on
  // a signal after each one.
  const std::int64_t chunk = std::clamp<std::int64_t>(split.part(0).count, 1, chunk_points);
  const std::int64_t chunks = (split.part(0).count + chunk - 1) / chunk;
  const Kokkos::View<GeometryFault*, DeviceMem> verdicts(
      Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "keff::geometry::check_verdicts"), chunk);
  const auto host = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, verdicts);
  Findings local;
  std::int64_t counts[2] = {0, 0};  // fault points, on-surface points
  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::int64_t first = mine.first + c * chunk;
    const IndexRange part{first, std::clamp<std::int64_t>(mine.end() - first, 0, chunk)};
    if (part.count > 0) check_chunk(exec, geometry, box, part, verdicts, host, counts, local);
    if (c == 0 && test_points_enabled()) test_point("geometry-check");
    if (agreed_interrupt(comm) != 0) {
      std::int64_t checked = std::min(mine.count, (c + 1) * chunk);
      comm.sum(&checked, 1);
      stop_if_interrupted(comm, "during the geometry check, after " + std::to_string(checked) + " of " +
                                    std::to_string(points) + " points");
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
