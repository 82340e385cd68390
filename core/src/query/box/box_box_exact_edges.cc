#include "query/box/box_box_exact_edges.h"

#include <cmath>
#include <limits>

#include "query/box/closest_point_box.h"
#include "query/box/exact_cross.h"

namespace collide::internal {

ExactEdgeAxes ComputeExactEdgeAxes(const Obb& a, const Obb& b) {
  ExactEdgeAxes e;
  e.separated = false;
  const Vec3 d = b.center - a.center;
  // Round-off of an overlap below: a few ulps of the scene's size. Within it
  // the boxes count as touching (overlap 0), as the fast test's slack does.
  const Vec3 ha = a.half_extents, hb = b.half_extents;
  const double slack =
      16.0 * std::numeric_limits<double>::epsilon() *
      (std::fabs(d.x) + std::fabs(d.y) + std::fabs(d.z) + ha.x + ha.y + ha.z + hb.x + hb.y + hb.z);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const int k = 3 * i + j;
      const Vec3 c = ExactCross(a.rotation.col[i], b.rotation.col[j]);
      const double c2 = LengthSquared(c);
      if (!(c2 > 0.0)) {
        // Exactly parallel edges: the face axes cover the pair.
        e.value[k] = kInfinity, e.side[k] = 0.0, e.unit[k] = Vec3{1, 0, 0};
        continue;
      }
      // Scaled before the square root: for edges 1e-161 apart c2 is subnormal
      // and c / sqrt(c2) was 1e-3 off unit (core_fuzz).
      const Vec3 n = NormalizedOr(c, Vec3{1, 0, 0});
      double radii = 0.0;
      for (int m = 0; m < 3; ++m) {
        radii += a.half_extents[m] * std::fabs(Dot(a.rotation.col[m], n)) +
                 b.half_extents[m] * std::fabs(Dot(b.rotation.col[m], n));
      }
      const double s = Dot(d, n);
      const double o = radii - std::fabs(s);
      e.value[k] = o < 0.0 && o >= -slack ? 0.0 : o;
      e.side[k] = s;
      e.unit[k] = TransposeMul(a.rotation, n);
      e.separated |= e.value[k] < 0.0;
    }
  }
  return e;
}

bool EdgeAxesUncertain(const BoxPairFrame& f, const BoxAxes& x, bool least_too) {
  if (least_too && x.least >= 6 && x.edge_length[x.least - 6] < 1.0 / 16.0) return true;
  return x.lowest_edge < f.slack && EdgeAxisNearTouching(f);
}

void UseExactEdgeAxes(const ExactEdgeAxes& e, BoxAxes& x) {
  for (int k = 0; k < 9; ++k) x.value[6 + k] = e.value[k], x.side[6 + k] = e.side[k];
  int least = 0;
  bool separated = false;
  for (int k = 0; k < 15; ++k) {
    if (x.value[k] < x.value[least]) least = k;
    separated |= x.value[k] < 0.0;
  }
  x.least = least;
  x.separated = separated;
}

}  // namespace collide::internal
