// Separating-axis test over the 15 axes, in A's frame.
#include "query/box/box_box_exact_edges.h"
#include "query/box/box_box_sat.h"
#include "query/kernels_box.h"

namespace collide::internal {

namespace {

// An edge axis within the slack of touching: the exact edge axes decide
// when it is not a parallel pair's (BoxSatVerdict).
[[gnu::noinline]] bool IntersectNearTouching(const Obb& a, const Obb& b) {
  return !EdgeAxisNearTouching(MakeBoxPairFrame(a, b)) || !ComputeExactEdgeAxes(a, b).separated;
}

}  // namespace

bool IntersectObbObb(const Obb& a, const Obb& b) {
  const BoxSatVerdict v = BoxPairVerdict(MakeBoxPairFrame(a, b));
  if (v == BoxSatVerdict::kNearTouching) [[unlikely]]
    return IntersectNearTouching(a, b);
  return v == BoxSatVerdict::kOverlapping;
}

}  // namespace collide::internal
