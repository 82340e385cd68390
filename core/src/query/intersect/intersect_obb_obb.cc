// Separating-axis test over the 15 axes, in A's frame.
#include "query/contact/box_box_sat.h"
#include "query/kernels_box.h"

namespace collide::internal {

bool IntersectObbObb(const Obb& a, const Obb& b) { return !SeparatedBoxPair(MakeBoxPairFrame(a, b)); }

}  // namespace collide::internal
