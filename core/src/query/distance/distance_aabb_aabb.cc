// Distance of two axis-aligned boxes: the length of the per-axis gap vector.
// On an axis where the intervals overlap both points take the middle of
// the overlap, so overlapping boxes get the centre of their intersection.
#include "query/kernels_box.h"

namespace collide::internal {

PairResult DistanceAabbAabb(const Aabb& a, const Aabb& b) {
  Vec3 pa, pb;
  for (int i = 0; i < 3; ++i) {
    if (b.min[i] > a.max[i]) {
      pa[i] = a.max[i];
      pb[i] = b.min[i];
    } else if (a.min[i] > b.max[i]) {
      pa[i] = a.min[i];
      pb[i] = b.max[i];
    } else {
      pa[i] = pb[i] =
          0.5 * ((a.min[i] > b.min[i] ? a.min[i] : b.min[i]) + (a.max[i] < b.max[i] ? a.max[i] : b.max[i]));
    }
  }
  const Vec3 gap = pb - pa;
  const double d2 = LengthSquared(gap);
  if (d2 == 0.0) return {QueryStatus::kOk, true, 0.0, pa, pb, {}};
  const double d = std::sqrt(d2);
  return {QueryStatus::kOk, false, d, pa, pb, gap / d};
}

}  // namespace collide::internal
