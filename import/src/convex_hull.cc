#include "convex_hull.h"

#include <cmath>
#include <cstdint>
#include <utility>

#include "absl/container/flat_hash_map.h"

namespace collide::importer {
namespace {

using Grid = std::array<std::int64_t, 3>;

// Sign of the determinant [b - a, c - a, d - a]: > 0 when d is on the side
// of the plane (a, b, c) that Cross(b - a, c - a) points to. Exact.
int Orient(const Grid& a, const Grid& b, const Grid& c, const Grid& d) {
  __int128 u[3], v[3], w[3];
  for (int k = 0; k < 3; ++k) u[k] = b[k] - a[k], v[k] = c[k] - a[k], w[k] = d[k] - a[k];
  const __int128 det = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
                       u[2] * (v[0] * w[1] - v[1] * w[0]);
  return (det > 0) - (det < 0);
}

}  // namespace

std::vector<std::array<std::size_t, 3>> ConvexHull(std::span<const Vec3> points, double flatness) {
  const std::size_t n = points.size();
  if (n < 4) return {};
  std::vector<Grid> grid(n);
  for (std::size_t k = 0; k < n; ++k) {
    for (int axis = 0; axis < 3; ++axis) {
      if (!(std::fabs(points[k][axis]) <= kHullMaxCoordinate)) return {};
      grid[k][axis] = std::llround(points[k][axis] / kHullGrid);
    }
  }
  // A first tetrahedron of far apart points: the farthest from points[0],
  // then from their line, then from their plane; none beyond `flatness`
  // means no volume.
  const auto farthest = [&](auto distance) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < n; ++k) {
      if (distance(points[k]) > distance(points[best])) best = k;
    }
    return best;
  };
  const std::size_t i0 = 0;
  const std::size_t i1 = farthest([&](const Vec3& p) { return Length(p - points[i0]); });
  const Vec3 axis = NormalizedOr(points[i1] - points[i0], Vec3{});
  const auto from_line = [&](const Vec3& p) { return Length(Cross(p - points[i0], axis)); };
  const std::size_t i2 = farthest(from_line);
  if (!(from_line(points[i2]) > flatness)) return {};
  const Vec3 normal = NormalizedOr(Cross(points[i1] - points[i0], points[i2] - points[i0]), Vec3{});
  const auto from_plane = [&](const Vec3& p) { return std::fabs(Dot(p - points[i0], normal)); };
  const std::size_t i3 = farthest(from_plane);
  if (!(from_plane(points[i3]) > flatness)) return {};

  std::vector<std::array<std::size_t, 3>> faces;
  std::vector<char> alive;
  // Directed edge (a, b) -> the face holding it.
  absl::flat_hash_map<std::pair<std::size_t, std::size_t>, std::size_t> face_of;
  const auto add = [&](std::size_t a, std::size_t b, std::size_t c) {
    faces.push_back({a, b, c});
    alive.push_back(1);
    face_of[{a, b}] = face_of[{b, c}] = face_of[{c, a}] = faces.size() - 1;
  };
  // Whether p sees face f: strictly outside its plane.
  const auto sees = [&](std::size_t p, std::size_t f) {
    return Orient(grid[faces[f][0]], grid[faces[f][1]], grid[faces[f][2]], grid[p]) > 0;
  };
  // Outward faces: i3 must be on the inner side of each.
  if (Orient(grid[i0], grid[i1], grid[i2], grid[i3]) < 0) {
    add(i0, i1, i2), add(i0, i3, i1), add(i1, i3, i2), add(i2, i3, i0);
  } else {
    add(i0, i2, i1), add(i0, i1, i3), add(i1, i2, i3), add(i2, i0, i3);
  }

  std::vector<std::size_t> seen;
  std::vector<std::pair<std::size_t, std::size_t>> rim;
  std::vector<char> visible;
  for (std::size_t p = 0; p < n; ++p) {
    if (p == i0 || p == i1 || p == i2 || p == i3) continue;
    std::size_t start = 0;
    while (start < faces.size() && !(alive[start] && sees(p, start))) ++start;
    if (start == faces.size()) continue;  // inside or on the hull
    // The faces p sees, from `start` across their edges (one disk).
    visible.assign(faces.size(), 0);
    visible[start] = 1;
    seen = {start};
    for (std::size_t next = 0; next < seen.size(); ++next) {
      const std::array<std::size_t, 3> f = faces[seen[next]];
      for (int e = 0; e < 3; ++e) {
        const std::size_t g = face_of.at({f[(e + 1) % 3], f[e]});
        if (!visible[g] && sees(p, g)) {
          visible[g] = 1;
          seen.push_back(g);
        }
      }
    }
    rim.clear();
    for (std::size_t f : seen) {
      for (int e = 0; e < 3; ++e) {
        const std::size_t a = faces[f][e], b = faces[f][(e + 1) % 3];
        if (!visible[face_of.at({b, a})]) rim.push_back({a, b});
      }
    }
    for (std::size_t f : seen) {
      alive[f] = 0;
      for (int e = 0; e < 3; ++e) face_of.erase({faces[f][e], faces[f][(e + 1) % 3]});
    }
    for (const auto& [a, b] : rim) add(a, b, p);
  }
  std::vector<std::array<std::size_t, 3>> out;
  for (std::size_t f = 0; f < faces.size(); ++f) {
    if (alive[f]) out.push_back(faces[f]);
  }
  return out;
}

}  // namespace collide::importer
