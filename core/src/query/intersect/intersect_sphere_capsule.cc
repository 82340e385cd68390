// Intersect sphere vs capsule: a point core against a segment core (round/round_pair.h).
#include "query/kernels_round.h"
#include "query/round/round_pair.h"

namespace collide::internal {

bool IntersectSphereCapsule(const Sphere& a, const Capsule& b) { return RoundIntersect(a, b); }

}  // namespace collide::internal
