// Intersect point vs segment: a point core against a segment core (round/round_pair.h).
#include "query/kernels_round.h"
#include "query/round/round_pair.h"

namespace collide::internal {

bool IntersectPointSegment(const Point& a, const Segment& b) { return RoundIntersect(a, b); }

}  // namespace collide::internal
