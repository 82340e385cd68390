// Closest points of two infinite lines.
#include "query/closest/closest.h"

namespace collide::internal {

LinePoints ClosestPointsLines(const Line& l1, const Line& l2) {
  const Vec3& d1 = l1.direction;
  const Vec3& d2 = l2.direction;
  const Vec3 r = l2.point - l1.point;  // relative to line 1 for round-off.
  const Vec3 n = Cross(d1, d2);
  const double nn = Dot(n, n);
  LinePoints out;
  // |d1 x d2|^2 = |d1|^2 |d2|^2 sin^2(angle), without the cancellation of
  // a*e - b*b.
  if (nn > kParallelSinSquared * Dot(d1, d1) * Dot(d2, d2)) {
    out.s = CommonPerpendicularNumerator(r, d2, n) / nn;
    out.t = CommonPerpendicularNumerator(r, d1, n) / nn;
  } else {
    // Every point of line 1 is equally close: take l1.point.
    out.parallel = true;
    out.t = -Dot(r, d2) / Dot(d2, d2);
  }
  out.point1 = l1.point + d1 * out.s;
  out.point2 = l2.point + d2 * out.t;
  return out;
}

}  // namespace collide::internal
