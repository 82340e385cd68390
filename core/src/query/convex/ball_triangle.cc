#include "query/convex/ball_triangle.h"

#include <algorithm>
#include <cmath>

#include "query/closest/closest_triangle.h"
#include "query/convex/epa.h"
#include "query/convex/gjk.h"

namespace collide::internal {

std::optional<PairResult> QueryBallTriangle(QueryLevel level, const Vec3& center, double radius,
                                            const Triangle& t) {
  const Vec3 ab = t.b - t.a;
  const Vec3 ac = t.c - t.a;
  const Vec3 n = Cross(ab, ac);
  // The same collinearity test as the GJK sub-algorithm's (sin < ~1e-14).
  if (!(LengthSquared(n) > 1e-28 * LengthSquared(ab) * LengthSquared(ac))) return std::nullopt;
  const Vec3 q = ClosestPointOnTriangle(center, t.a, t.b, t.c);
  const double d = Length(q - center);
  // GJK's touch tolerance, relative to the size of the Minkowski difference
  // (its vertices are center - vertex).
  const double scale = std::sqrt(
      std::max({LengthSquared(t.a - center), LengthSquared(t.b - center), LengthSquared(t.c - center)}));
  const bool touching_core = d <= kGjkTouchTolerance * scale;
  PairResult r;
  r.hit = touching_core || d <= radius;
  if (level == QueryLevel::kIntersect) return r;
  if (touching_core) {
    if (level == QueryLevel::kDistance) {
      r.point_a = r.point_b = center;
      return r;
    }
    // The difference of the cores is flat: depth = radius along the plane
    // normal.
    r.normal = PreferPositiveSign(n / Length(n));
    r.distance = radius > 0.0 ? -radius : 0.0;
    r.point_a = center + r.normal * radius;
    r.point_b = center;
    return r;
  }
  if (level == QueryLevel::kDistance && r.hit) {
    // q is on the triangle and within the radius of the center.
    r.point_a = r.point_b = q;
    return r;
  }
  const double signed_distance = d - radius;
  r.normal = (q - center) / d;
  r.distance = signed_distance == 0.0 ? 0.0 : signed_distance;
  r.point_a = center + r.normal * radius;
  r.point_b = q;
  return r;
}

}  // namespace collide::internal
