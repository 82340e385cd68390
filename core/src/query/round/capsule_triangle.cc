#include "query/round/capsule_triangle.h"

#include <algorithm>
#include <cmath>

#include "query/closest/closest_segment_triangle.h"
#include "query/round/ball_triangle.h"

namespace collide::internal {
namespace {

PairResult BareResult(QueryStatus status, bool hit) { return {status, hit, 0.0, {}, {}, {}}; }

// The core touches the triangle: its crossing, or a gap at rounding level.
bool Touching(const SegmentTriangleClosest& c) { return c.crossing || c.d2 <= c.touch2; }

}  // namespace

std::optional<bool> IntersectCapsuleCoreTriangle(const Vec3& p, const Vec3& q, double radius,
                                                 const Triangle& t) {
  // The bounding boxes' gap on an axis is a lower bound of the distance.
  // Beyond the radius by a margin far above the closest points' rounding
  // (and the touch tolerance, 16 eps of the sizes), the pair certainly
  // misses at every level.
  double gap = 0.0, extent = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double tlo = std::min({t.a[i], t.b[i], t.c[i]}), thi = std::max({t.a[i], t.b[i], t.c[i]});
    const double slo = std::min(p[i], q[i]), shi = std::max(p[i], q[i]);
    gap = std::max({gap, tlo - shi, slo - thi});
    extent = std::max(extent, (thi - tlo) + (shi - slo));
  }
  if (gap > radius + 1e-12 * (extent + gap)) return false;
  // An endpoint's ball touching the triangle decides a hit by the ball's
  // separating-axis test, whose hit is QueryBallTriangle's: the endpoint's
  // closest point, the same value as the endpoint candidate here, within the
  // radius, or within the touch tolerance of the triangle's size (below the
  // one here).
  if (radius > 0.0) {
    for (const Vec3* e : {&p, &q}) {
      const std::optional<bool> ball = IntersectBallTriangle(*e, radius, t);
      if (ball.value_or(false)) return true;
    }
  }
  const std::optional<SegmentTriangleClosest> c = ClosestSegmentTriangle(p, q, t);
  if (!c) return std::nullopt;
  return Touching(*c) || std::sqrt(c->d2) <= radius;
}

PairResult QueryCapsuleCoreTriangle(QueryLevel level, const Vec3& p, const Vec3& q, double radius,
                                    const Triangle& t) {
  const std::optional<SegmentTriangleClosest> c = ClosestSegmentTriangle(p, q, t);
  if (!c) return BareResult(QueryStatus::kUnsupported, false);
  const Vec3 on_triangle = p + c->on_triangle;
  if (Touching(*c)) {
    if (level == QueryLevel::kContact) return BareResult(QueryStatus::kUnsupported, true);
    if (level == QueryLevel::kIntersect) return BareResult(QueryStatus::kOk, true);
    // The triangle's point is on the core (to rounding): in both shapes.
    return {QueryStatus::kOk, true, 0.0, on_triangle, on_triangle, {}};
  }
  // Not touching, so d2 > 0.
  const double gap = LengthAndUnitOf(c->diff, c->d2).length;
  const bool hit = gap <= radius;
  if (level == QueryLevel::kIntersect) return BareResult(QueryStatus::kOk, hit);
  // Overlapping at kDistance: the triangle's point is within the radius of
  // the core's.
  if (hit && level == QueryLevel::kDistance)
    return {QueryStatus::kOk, true, 0.0, on_triangle, on_triangle, {}};
  const Vec3 normal = LengthAndUnitOf(c->direction, LengthSquared(c->direction)).unit;
  // gap - radius is +0 when touching exactly, and its sign is hit's.
  return {QueryStatus::kOk, hit, gap - radius, p + c->on_segment + normal * radius, on_triangle, normal};
}

}  // namespace collide::internal
