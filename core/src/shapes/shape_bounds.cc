#include "shapes/shape_bounds.h"

#include <cmath>

namespace collide::internal {
namespace {

Aabb Around(const Vec3& lo, const Vec3& hi, double r) {
  // center +- r is rounded: widen by a relative 2^-50 of the magnitudes.
  const Vec3 pad = (Abs(lo) + Abs(hi)) * 0x1p-50 + Vec3{r, r, r} * (1.0 + 0x1p-50);
  return {lo - pad, hi + pad};
}

struct Visitor {
  Aabb operator()(const Point& s) const { return {s.position, s.position}; }
  Aabb operator()(const Segment& s) const { return {Min(s.a, s.b), Max(s.a, s.b)}; }
  Aabb operator()(const Sphere& s) const { return Around(s.center, s.center, s.radius); }
  Aabb operator()(const Capsule& s) const { return Around(Min(s.a, s.b), Max(s.a, s.b), s.radius); }
  Aabb operator()(const Aabb& s) const { return s; }
  Aabb operator()(const Obb& s) const {
    // |R| h: the half extents of the rotated box along the world axes.
    Vec3 e;
    for (int i = 0; i < 3; ++i) {
      e[i] = std::fabs(s.rotation.col[0][i]) * s.half_extents.x +
             std::fabs(s.rotation.col[1][i]) * s.half_extents.y +
             std::fabs(s.rotation.col[2][i]) * s.half_extents.z;
    }
    return Around(s.center - e, s.center + e, 0.0);
  }
  Aabb operator()(const Triangle& s) const { return {Min(s.a, Min(s.b, s.c)), Max(s.a, Max(s.b, s.c))}; }
  Aabb operator()(const ConvexHull& s) const {
    Aabb b{s.vertices[0], s.vertices[0]};
    for (const Vec3& v : s.vertices) b.min = Min(b.min, v), b.max = Max(b.max, v);
    return b;
  }
  Aabb operator()(const Halfspace&) const {
    return {{-kInfinity, -kInfinity, -kInfinity}, {kInfinity, kInfinity, kInfinity}};
  }
};

}  // namespace

Aabb BoundsOf(const Shape& shape) {
  if (const auto* hull = std::get_if<ConvexHull>(&shape); hull && hull->vertices.empty()) {
    return {{kInfinity, kInfinity, kInfinity}, {-kInfinity, -kInfinity, -kInfinity}};
  }
  return std::visit(Visitor{}, shape);
}

}  // namespace collide::internal
