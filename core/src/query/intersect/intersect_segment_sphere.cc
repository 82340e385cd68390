// Intersect segment vs sphere: a segment core against a point core (round/round_pair.h).
#include "query/kernels_round.h"
#include "query/round/round_pair.h"

namespace collide::internal {

bool IntersectSegmentSphere(const Segment& a, const Sphere& b) { return RoundIntersect(a, b); }

}  // namespace collide::internal
