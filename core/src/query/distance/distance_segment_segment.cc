// Distance segment vs segment: a segment core against a segment core (round/round_pair.h).
#include "query/kernels_round.h"
#include "query/round/round_pair.h"

namespace collide::internal {

PairResult DistanceSegmentSegment(const Segment& a, const Segment& b) { return RoundDistance(a, b); }

}  // namespace collide::internal
