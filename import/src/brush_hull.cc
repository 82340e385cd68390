#include "brush_hull.h"

#include <algorithm>
#include <cmath>

#include "convex_hull.h"

namespace collide::importer {
namespace {

// Half the side of the starting square: past the corners of a +-65536 cube.
constexpr double kHalfSize = 1 << 18;
// Points within this distance of a plane are on it while clipping (q3map:
// ON_EPSILON 0.1; finer here because the planes are exact to float precision).
constexpr double kOnPlane = 1e-4;

// Two unit vectors spanning the plane of unit normal n, with Cross(u, v) = n.
void Basis(const Vec3& n, Vec3& u, Vec3& v) {
  const Vec3 axis = std::fabs(n.x) < 0.6 ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
  u = NormalizedOr(Cross(n, axis), Vec3{0, 0, 1});
  v = Cross(n, u);
}

// Keeps the part of `polygon` with Dot(normal, x) <= dist.
std::vector<Vec3> Clip(const std::vector<Vec3>& polygon, const BspPlane& plane) {
  std::vector<Vec3> out;
  const std::size_t n = polygon.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3& a = polygon[i];
    const Vec3& b = polygon[(i + 1) % n];
    const double da = Dot(plane.normal, a) - plane.dist, db = Dot(plane.normal, b) - plane.dist;
    if (da <= kOnPlane) out.push_back(a);
    if ((da < -kOnPlane && db > kOnPlane) || (da > kOnPlane && db < -kOnPlane)) {
      out.push_back(a + (b - a) * (da / (da - db)));
    }
  }
  return out;
}

// The corners of the brush: each side's square clipped by the other sides,
// corners closer than kBrushWeld made one (the first met).
std::vector<Vec3> Corners(const std::vector<BspPlane>& planes) {
  std::vector<Vec3> corners;
  for (std::size_t i = 0; i < planes.size(); ++i) {
    Vec3 u, v;
    Basis(planes[i].normal, u, v);
    const Vec3 c = planes[i].normal * planes[i].dist;
    std::vector<Vec3> polygon = {c + (u + v) * kHalfSize, c + (v - u) * kHalfSize, c - (u + v) * kHalfSize,
                                 c + (u - v) * kHalfSize};
    for (std::size_t j = 0; j < planes.size() && polygon.size() >= 3; ++j) {
      if (j != i) polygon = Clip(polygon, planes[j]);
    }
    if (polygon.size() < 3) continue;
    for (const Vec3& p : polygon) {
      const bool known = std::any_of(corners.begin(), corners.end(), [&](const Vec3& q) {
        return LengthSquared(p - q) <= kBrushWeld * kBrushWeld;
      });
      if (!known) corners.push_back(p);
    }
  }
  return corners;
}

}  // namespace

std::vector<std::array<Vec3, 3>> BrushHull(std::span<const BspPlane> sides) {
  // Unit normals (|normal| taken as Dot(unit, normal), which cannot overflow).
  std::vector<BspPlane> planes;
  for (const BspPlane& side : sides) {
    const Vec3 n = NormalizedOr(side.normal, Vec3{});
    const double length = Dot(n, side.normal);
    if (length > 0.0) planes.push_back({n, side.dist / length});  // a zero normal bounds nothing
  }
  const std::vector<Vec3> corners = Corners(planes);
  for (const Vec3& p : corners) {
    if (std::fabs(p.x) > kBrushWorldLimit || std::fabs(p.y) > kBrushWorldLimit ||
        std::fabs(p.z) > kBrushWorldLimit) {
      return {};
    }
  }
  std::vector<std::array<Vec3, 3>> triangles;
  double volume = 0, area = 0;  // volume by the divergence theorem, from the first corner
  for (const auto& t : ConvexHull(corners, kBrushWeld)) {
    const Vec3 &a = corners[t[0]], &b = corners[t[1]], &c = corners[t[2]], &o = corners[0];
    triangles.push_back({a, b, c});
    volume += Dot(a - o, Cross(b - o, c - o)) / 6;
    area += Length(Cross(b - a, c - a)) / 2;
  }
  // Twice the volume over the area is a slab's thickness.
  if (!(2 * volume > kBrushWeld * area)) return {};
  return triangles;
}

}  // namespace collide::importer
