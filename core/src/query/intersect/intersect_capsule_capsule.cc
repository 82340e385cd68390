// Intersect capsule vs capsule: a segment core against a segment core (round/round_pair.h).
#include "query/kernels_round.h"
#include "query/round/round_pair.h"

namespace collide::internal {

bool IntersectCapsuleCapsule(const Capsule& a, const Capsule& b) { return RoundIntersect(a, b); }

}  // namespace collide::internal
