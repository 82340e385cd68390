#include "query/halfspace/halfspace.h"

namespace collide::internal {

PairResult QueryConvexHalfspace(QueryLevel level, const ConvexCore& a, const Halfspace& b) {
  // The normal is unit only within kUnitTolerance: {x : dot(n, x) <= d} is
  // the same set as {x : dot(n / |n|, x) <= d / |n|}, whose distances are in
  // world units.
  const double len = Length(b.normal);
  const Vec3 n = b.normal / len;
  const double offset = b.offset / len;
  const Vec3 deepest = a.Support(-n) - n * a.radius();
  const double s = Dot(n, deepest) - offset;
  PairResult r;
  r.hit = s <= 0.0;
  if (level == QueryLevel::kIntersect) return r;
  if (level == QueryLevel::kDistance && r.hit) {
    // The deepest point of A lies in B.
    r.point_a = r.point_b = deepest;
    return r;
  }
  r.distance = s == 0.0 ? 0.0 : s;
  r.point_a = deepest;
  r.point_b = deepest - n * s;
  r.normal = -n;
  return r;
}

}  // namespace collide::internal
