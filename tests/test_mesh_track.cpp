// The mesh walk of track-length mesh tallies (kernels/tally/mesh_track.hpp) on its own: a flight split at
// the mesh planes it crosses, each piece in its bin, in order; and the walker under it, which CMFD also
// uses (kernels/mesh_walk.hpp), with the faces it reports. Hand-made flights check the cases a walk
// gets wrong (a corner crossed at once, a start on a plane heading back, a flight entering from outside,
// one wholly outside, one ending within the slack past a plane); 2000 random flights through and around
// the mesh are checked against a plain reference: every plane crossing collected and sorted, each piece
// given the bin of its midpoint.
#include <gtest/gtest.h>

#include "kernels/mesh_walk.hpp"
#include "kernels/regular_mesh.hpp"
#include "kernels/tally/mesh_track.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace keff {
namespace {

struct Piece {
  int bin;
  double length;
};

// 4 x 3 x 1 bins of 1 x 1 x 10 cm from the origin.
RegularMesh test_mesh() {
  RegularMesh m;
  m.shape[0] = 4, m.shape[1] = 3, m.shape[2] = 1;
  m.inv_width[0] = 1, m.inv_width[1] = 1, m.inv_width[2] = 0.1;
  return m;
}

std::vector<Piece> walk(const RegularMesh& mesh, Vec3 r0, Vec3 u, double d) {
  std::vector<Piece> pieces;
  for_each_mesh_piece(mesh, r0, u, d, [&](int bin, Real length) { pieces.push_back({bin, length}); });
  return pieces;
}

Vec3 unit(double x, double y, double z) {
  const double n = std::sqrt(x * x + y * y + z * z);
  return Vec3{x / n, y / n, z / n};
}

// The reference: the flight cut at every plane it crosses inside [0, d], each piece given the bin of its
// midpoint; pieces outside the mesh dropped, neighbours in one bin merged.
std::vector<Piece> reference_walk(const RegularMesh& mesh, Vec3 r0, Vec3 u, double d) {
  std::vector<double> cuts = {0.0, d};
  for (int a = 0; a < 3; ++a) {
    if (u[a] == 0) continue;
    for (int i = 0; i <= mesh.shape[a]; ++i) {
      const double t = (mesh.edge(a, i) - r0[a]) / u[a];
      if (t > 0 && t < d) cuts.push_back(t);
    }
  }
  std::sort(cuts.begin(), cuts.end());
  std::vector<Piece> pieces;
  for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
    const double length = cuts[c + 1] - cuts[c];
    if (!(length > 0)) continue;
    const int bin = mesh.bin(r0 + (0.5 * (cuts[c] + cuts[c + 1])) * u);
    if (bin < 0) continue;
    if (!pieces.empty() && pieces.back().bin == bin) {
      pieces.back().length += length;
    } else {
      pieces.push_back({bin, length});
    }
  }
  return pieces;
}

void expect_pieces(const std::vector<Piece>& got, const std::vector<Piece>& want, double tolerance) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].bin, want[i].bin) << "piece " << i;
    EXPECT_NEAR(got[i].length, want[i].length, tolerance) << "piece " << i;
  }
}

TEST(MeshTrack, FlightInsideOneBinIsOnePiece) {
  expect_pieces(walk(test_mesh(), Vec3{0.2, 0.3, 5}, unit(1, 0, 0), 0.5), {{0, 0.5}}, 0);
}

TEST(MeshTrack, CrossesPlanesInOrder) {
  // From (0.5, 0.5) along (1, 0.5): x = 1 at t' = 0.5, y = 1 at t' = 1, x = 2 at t' = 1.5, x = 3 at 2.5
  // (t' the distance along x; the flight's length is sqrt(1.25) t').
  const double s = std::sqrt(1.25);
  expect_pieces(walk(test_mesh(), Vec3{0.5, 0.5, 5}, unit(1, 0.5, 0), 2.8 * s),
                {{0, 0.5 * s}, {1, 0.5 * s}, {5, 0.5 * s}, {6, 1.0 * s}, {7, 0.3 * s}}, 1e-12);
}

TEST(MeshTrack, ThroughACornerSkipsTheBinsBesideIt) {
  // Through (1, 1) diagonally: bin 0, then bin 5, never bins 1 or 4 (no piece of zero length).
  const double s = std::sqrt(2.0);
  expect_pieces(walk(test_mesh(), Vec3{0.5, 0.5, 5}, unit(1, 1, 0), 1.0 * s), {{0, 0.5 * s}, {5, 0.5 * s}}, 1e-12);
}

TEST(MeshTrack, StartOnAPlaneHeadingBackScoresTheBinBehind) {
  expect_pieces(walk(test_mesh(), Vec3{2.0, 0.5, 5}, unit(-1, 0, 0), 1.5), {{1, 1.0}, {0, 0.5}}, 1e-12);
}

TEST(MeshTrack, EnteringFromOutsideScoresOnlyTheInside) {
  expect_pieces(walk(test_mesh(), Vec3{-1.0, 0.5, 5}, unit(1, 0, 0), 3.0), {{0, 1.0}, {1, 1.0}}, 1e-12);
  // And leaving through the far face.
  expect_pieces(walk(test_mesh(), Vec3{3.5, 2.5, 5}, unit(1, 0, 0), 2.0), {{11, 0.5}}, 1e-12);
}

TEST(MeshTrack, WhollyOutsideScoresNothing) {
  EXPECT_TRUE(walk(test_mesh(), Vec3{-2.0, 0.5, 5}, unit(1, 0, 0), 1.0).empty());
  EXPECT_TRUE(walk(test_mesh(), Vec3{1.5, 0.5, 12}, unit(1, 0, 0), 1.0).empty());
  // Alongside a face, outside it.
  EXPECT_TRUE(walk(test_mesh(), Vec3{-0.5, -0.5, 5}, unit(0, 1, 0), 0.4).empty());
}

TEST(MeshTrack, EndingWithinTheSlackPastAPlaneIsTheBinsWhole) {
  // The geometry ends flights on its surfaces; one that lands a rounding error past the bin's plane is
  // the bin's, whole (mesh_plane_slack), not split into a piece of 1e-12.
  const double d = 0.8 + 1e-12;
  expect_pieces(walk(test_mesh(), Vec3{0.2, 0.5, 5}, unit(1, 0, 0), d), {{0, d}}, 0);
  // Past the slack it is split.
  expect_pieces(walk(test_mesh(), Vec3{0.2, 0.5, 5}, unit(1, 0, 0), 0.8 + 1e-6), {{0, 0.8}, {1, 1e-6}}, 1e-12);
}

TEST(MeshTrack, RandomFlightsMatchTheReference) {
  const RegularMesh mesh = test_mesh();
  std::mt19937_64 rng(20261127);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  int crossing = 0;
  for (int n = 0; n < 2000; ++n) {
    SCOPED_TRACE("flight " + std::to_string(n));
    // Starts in a box 1 cm wider than the mesh on every side, any direction, up to 6 cm.
    const Vec3 r0{-1 + 6 * uniform(rng), -1 + 5 * uniform(rng), -1 + 12 * uniform(rng)};
    const double mu = 2 * uniform(rng) - 1, phi = 2 * std::acos(-1.0) * uniform(rng);
    const Vec3 u{std::sqrt(1 - mu * mu) * std::cos(phi), std::sqrt(1 - mu * mu) * std::sin(phi), mu};
    const double d = 6 * uniform(rng);
    const auto got = walk(mesh, r0, u, d);
    const auto want = reference_walk(mesh, r0, u, d);
    crossing += want.size() > 1;
    expect_pieces(got, want, 1e-12);
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_GT(crossing, 500);  // the random flights do cross planes
}

// The walker CMFD drives (kernels/mesh_walk.hpp): through a corner of four cells it reports both faces
// at the corner's one distance, a piece of zero length between them, and the cell index it leaves through
// each face; a ray that leaves the mesh says so.
TEST(MeshWalk, ThroughACornerReportsBothFacesAndWhereItLeaves) {
  const RegularMesh mesh = test_mesh();
  struct Face {
    int axis, x, y;
  };
  std::vector<Piece> pieces;
  std::vector<Face> faces;
  int idx[3] = {0, 0, 0};
  const Vec3 r0{0.5, 0.5, 5}, u = unit(1, 1, 0);
  const double d = 3 * std::sqrt(2.0);  // from (0.5, 0.5) to (3.5, 3.5): out through y = 3
  const bool inside = walk_mesh(
      mesh, r0, u, 0, d, idx, [&](const int* i, Real length) { pieces.push_back({mesh.bin_of(i), length}); },
      [&](int axis, const int* i) { faces.push_back({axis, i[0], i[1]}); });
  EXPECT_FALSE(inside);
  EXPECT_EQ(idx[1], 3);  // one past the mesh along y
  // Corners at (1, 1), (2, 2) and (3, 3): x's plane first on each tie (the lower axis), then y's.
  ASSERT_EQ(faces.size(), 6u);
  const Face expected[] = {{0, 0, 0}, {1, 1, 0}, {0, 1, 1}, {1, 2, 1}, {0, 2, 2}, {1, 3, 2}};
  for (std::size_t f = 0; f < faces.size(); ++f) {
    EXPECT_EQ(faces[f].axis, expected[f].axis) << f;
    EXPECT_EQ(faces[f].x, expected[f].x) << f;
    EXPECT_EQ(faces[f].y, expected[f].y) << f;
  }
  ASSERT_EQ(pieces.size(), 6u);
  double total = 0;
  for (std::size_t k = 0; k < pieces.size(); ++k) total += pieces[k].length;
  EXPECT_EQ(pieces[0].bin, 0);
  EXPECT_NEAR(pieces[0].length, std::sqrt(0.5), 1e-12);
  EXPECT_EQ(pieces[1].bin, 1);  // (1, 0): between the two planes of the corner
  EXPECT_NEAR(pieces[1].length, 0, 1e-12);
  EXPECT_EQ(pieces[2].bin, 5);  // (1, 1)
  EXPECT_NEAR(pieces[2].length, std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(total, 2.5 * std::sqrt(2.0), 1e-12);  // to (3, 3), where it leaves
}

// A ray that ends inside: the last cell is where it stopped, and the pieces add up to its length.
TEST(MeshWalk, EndingInsideKeepsTheLastCell) {
  const RegularMesh mesh = test_mesh();
  int idx[3] = {0, 1, 0};
  double total = 0;
  int faces = 0;
  const bool inside = walk_mesh(
      mesh, Vec3{0.25, 1.5, 5}, Vec3{1, 0, 0}, 0, 2.5, idx, [&](const int*, Real length) { total += length; },
      [&](int axis, const int*) { faces += axis == 0 ? 1 : 100; });
  EXPECT_TRUE(inside);
  EXPECT_EQ(idx[0], 2);
  EXPECT_EQ(idx[1], 1);
  EXPECT_EQ(faces, 2);
  EXPECT_DOUBLE_EQ(total, 2.5);
}

// What CMFD scores without a walk (ray_end) is what the walk would give: for 20000 random flights from
// inside a cell, and 2000 that end on a face of their cell (as flights stopped by a surface of the
// geometry on a mesh plane do), wherever ray_end places the end, the walk gives the same pieces, bit for
// bit, and the same crossing; the one-face cases are most of them. A flight ending on the face may leave
// its crossing to the next flight in the walk (rounding decides), never a length beyond rounding.
TEST(MeshWalk, RayEndAgreesWithTheWalk) {
  RegularMesh mesh = test_mesh();
  mesh.lower[0] = -0.3, mesh.lower[1] = 0.7, mesh.lower[2] = -5;
  struct Walked {
    std::vector<Piece> pieces;
    std::vector<int> faces;  // axis of each crossing
    bool inside = false;
    int idx[3] = {0, 0, 0};
  };
  const auto walked = [&](const int start[3], Vec3 r0, Vec3 u, double d) {
    Walked w;
    for (int a = 0; a < 3; ++a) w.idx[a] = start[a];
    w.inside = walk_mesh(
        mesh, r0, u, 0, d, w.idx, [&](const int* i, Real length) { w.pieces.push_back({mesh.bin_of(i), length}); },
        [&](int axis, const int*) { w.faces.push_back(axis); });
    return w;
  };
  std::mt19937_64 rng(20261129);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  int kinds[4] = {0, 0, 0, 0};
  for (int n = 0; n < 22000; ++n) {
    SCOPED_TRACE("flight " + std::to_string(n));
    const int start[3] = {static_cast<int>(4 * uniform(rng)), static_cast<int>(3 * uniform(rng)), 0};
    Vec3 r0;
    for (int a = 0; a < 3; ++a) r0[a] = mesh.lower[a] + (start[a] + uniform(rng)) / mesh.inv_width[a];
    const double mu = 2 * uniform(rng) - 1, phi = 2 * std::acos(-1.0) * uniform(rng);
    const Vec3 u{std::sqrt(1 - mu * mu) * std::cos(phi), std::sqrt(1 - mu * mu) * std::sin(phi), mu};
    double d = 2 * uniform(rng);
    if (n >= 20000) {  // to the nearest plane ahead, as a surface of the geometry there would stop it
      d = std::min({next_plane(mesh, 0, start[0], r0, u), next_plane(mesh, 1, start[1], r0, u),
                    next_plane(mesh, 2, start[2], r0, u)});
    }
    const RayEnd end = ray_end(mesh, start, r0, u, d);
    ++kinds[end.kind];
    if (end.kind == RayEnd::elsewhere) continue;
    const Walked w = walked(start, r0, u, d);
    const int a = end.axis;
    switch (end.kind) {
      case RayEnd::inside:
        ASSERT_EQ(w.pieces.size(), 1u);
        EXPECT_EQ(w.pieces[0].bin, mesh.bin_of(start));
        EXPECT_EQ(w.pieces[0].length, d);
        EXPECT_TRUE(w.faces.empty());
        break;
      case RayEnd::past_face: {
        ASSERT_EQ(w.faces.size(), 1u);
        EXPECT_EQ(w.faces[0], a);
        const double plane = next_plane(mesh, a, start[a], r0, u);
        const double first = plane > 0 ? plane : 0;
        ASSERT_GE(w.pieces.size(), 1u);
        EXPECT_EQ(w.pieces[0].length, first);  // bit for bit: CMFD's sums stay the walk's
        EXPECT_EQ(w.pieces.size(), w.inside ? 2u : 1u);
        if (w.inside) {
          EXPECT_EQ(w.pieces[1].length, d - first);
        }
        int beyond[3] = {start[0], start[1], start[2]};
        beyond[a] += u[a] > 0 ? 1 : -1;
        EXPECT_EQ(w.idx[a], beyond[a]);
        break;
      }
      case RayEnd::on_face: {
        ASSERT_LE(w.faces.size(), 1u);  // now, or left to the next flight
        if (!w.faces.empty()) {
          EXPECT_EQ(w.faces[0], a);
        }
        double total = 0;
        for (const Piece& piece : w.pieces) total += piece.length;
        EXPECT_EQ(w.pieces[0].bin, mesh.bin_of(start));
        EXPECT_NEAR(w.pieces[0].length, d, 1e-12);
        EXPECT_NEAR(total, d, 1e-12);
        break;
      }
      case RayEnd::elsewhere:
        break;
    }
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_GT(kinds[RayEnd::inside], 3000);
  EXPECT_GT(kinds[RayEnd::past_face], 3000);
  EXPECT_GT(kinds[RayEnd::on_face], 1900);  // nearly all of the 2000 stopped on a plane
  EXPECT_GT(kinds[RayEnd::elsewhere], 1000);
}

}  // namespace
}  // namespace keff
