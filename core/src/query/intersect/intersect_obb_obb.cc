// Separating-axis test over the 15 axes, in A's frame.
#include "query/contact/box_box_exact_edges.h"
#include "query/contact/box_box_sat.h"
#include "query/kernels_box.h"

namespace collide::internal {

bool IntersectObbObb(const Obb& a, const Obb& b) {
  const BoxSatVerdict v = BoxPairVerdict(MakeBoxPairFrame(a, b));
  if (v == BoxSatVerdict::kUncertain) [[unlikely]]
    return !ComputeExactEdgeAxes(a, b).separated;
  return v == BoxSatVerdict::kOverlapping;
}

}  // namespace collide::internal
