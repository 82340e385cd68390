// Contact of two axis-aligned boxes. Apart: the distance kernel. Overlapping:
// the axis of least overlap; moving B by +e_i separates after a.max_i -
// b.min_i, by -e_i after b.max_i - a.min_i, and the least of those six is the
// depth (containment included). Ties: PreferredNormal.
#include "query/box/closest_point_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

PairResult ContactAabbAabb(const Aabb& a, const Aabb& b) {
  if (!IntersectAabbAabb(a, b)) return DistanceAabbAabb(a, b);
  double best = kInfinity;
  int axis = 0;
  double sign = 1.0;
  for (int i = 0; i < 3; ++i) {
    const double depth[2] = {a.max[i] - b.min[i], b.max[i] - a.min[i]};
    for (int s = 0; s < 2; ++s) {
      const double cand_sign = s == 0 ? 1.0 : -1.0;
      if (depth[s] < best || (depth[s] == best && PreferredNormal(Axis(i, cand_sign), Axis(axis, sign)))) {
        best = depth[s];
        axis = i;
        sign = cand_sign;
      }
    }
  }
  // Deepest points: on the contact axis the faces that pass through each
  // other; on the others the middle of the overlap.
  Vec3 pa, pb;
  for (int i = 0; i < 3; ++i) {
    pa[i] = pb[i] =
        0.5 * ((a.min[i] > b.min[i] ? a.min[i] : b.min[i]) + (a.max[i] < b.max[i] ? a.max[i] : b.max[i]));
  }
  pa[axis] = sign > 0.0 ? a.max[axis] : a.min[axis];
  pb[axis] = sign > 0.0 ? b.min[axis] : b.max[axis];
  Vec3 n;
  n[axis] = sign;
  return {QueryStatus::kOk, true, -best, pa, pb, n};
}

}  // namespace collide::internal
