// Contact sphere vs sphere: a point core against a point core (round/round_pair.h).
#include "query/kernels_round.h"
#include "query/round/round_pair.h"

namespace collide::internal {

PairResult ContactSphereSphere(const Sphere& a, const Sphere& b) { return RoundContact(a, b); }

}  // namespace collide::internal
