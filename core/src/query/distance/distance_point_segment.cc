// Distance point vs segment: a point core against a segment core (round/round_pair.h).
#include "query/kernels_round.h"
#include "query/round/round_pair.h"

namespace collide::internal {

PairResult DistancePointSegment(const Point& a, const Segment& b) { return RoundDistance(a, b); }

}  // namespace collide::internal
