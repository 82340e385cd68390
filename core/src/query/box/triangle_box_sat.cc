#include "query/box/triangle_box_sat.h"

#include <cmath>

namespace collide::internal {

bool SeparatedTriangleBox(const TriangleBox& f) {
  bool separated = false;
  ForEachTriangleBoxAxis<false>(f, [&](int, const Vec3&, double plus, double minus, double) {
    separated = (plus < 0.0) | (minus < 0.0);
    return separated;
  });
  return separated;
}

TriangleBoxOverlap LeastOverlapTriangleBox(const TriangleBox& f) {
  TriangleBoxOverlap o{false, kInfinity, Vec3{1, 0, 0}, 0};
  Vec3 axis{1, 0, 0};
  // One division per new least, none per axis: least / length < depth as
  // least < depth * length. (An axis whose squared length underflowed to 0
  // compares false and is left out: its Minkowski face is narrower than
  // 1e-154 of the size.)
  ForEachTriangleBoxAxis<true>(f, [&](int index, const Vec3& l, double plus, double minus, double length) {
    o.separated = (plus < 0.0) | (minus < 0.0);
    const double least = MinBranchFree(plus, minus);
    if (least < o.depth * length && length > 0.0)
      o.depth = least / length, o.axis = index, axis = plus <= minus ? l : -l;
    return o.separated;
  });
  o.normal = o.axis < 3 ? axis : LengthAndUnitOf(axis, LengthSquared(axis)).unit;
  return o;
}

}  // namespace collide::internal
