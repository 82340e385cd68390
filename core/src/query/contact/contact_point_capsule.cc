// Contact point vs capsule: a point core against a segment core (round/round_pair.h).
#include "query/kernels_round.h"
#include "query/round/round_pair.h"

namespace collide::internal {

PairResult ContactPointCapsule(const Point& a, const Capsule& b) { return RoundContact(a, b); }

}  // namespace collide::internal
