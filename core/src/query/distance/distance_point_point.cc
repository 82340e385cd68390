// Distance point vs point: a point core against a point core (round/round_pair.h).
#include "query/kernels_round.h"
#include "query/round/round_pair.h"

namespace collide::internal {

PairResult DistancePointPoint(const Point& a, const Point& b) { return RoundDistance(a, b); }

}  // namespace collide::internal
