// Box-box distance. Apart (by the separating-axis test, the same decision as
// IntersectObbObb): exact closest points of the edges (closest_box_box.h).
// Overlapping: a point of an edge of one box inside the other (the deepest
// points need not lie in the other box: a tilted thin plate poking into a
// face has its deepest edge's partner on the face outside the plate).
#include "query/box/box_box_exact_edges.h"
#include "query/box/box_box_sat.h"
#include "query/box/closest_box_box.h"
#include "query/box/closest_point_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

PairResult DistanceObbObb(const Obb& a, const Obb& b) {
  const BoxPairFrame f = MakeBoxPairFrame(a, b);
  BoxAxes x;
  BoxBoxClosest apart;
  if (SeparatedBoxBox(f, x, apart)) return ApartResult(a, apart);
  // A gap along nearly parallel edges the rounded axes cannot see: the
  // exact edge axes decide, the edge search gives the closest points.
  if (EdgeAxesUncertain(f, x, false) && ComputeExactEdgeAxes(a, b).separated) [[unlikely]]
    return ApartResult(a, ClosestBoxBoxFrame(f));
  Vec3 common;
  if (CommonPointBoxBox(f, common)) {
    const Vec3 p = FromBoxFrame(a, common);
    return {QueryStatus::kOk, true, 0.0, p, p, {}};
  }
  return DistanceFromContact(ContactObbObb(a, b));
}

}  // namespace collide::internal
