// Contact segment vs capsule: a segment core against a segment core (round/round_pair.h).
#include "query/kernels_round.h"
#include "query/round/round_pair.h"

namespace collide::internal {

PairResult ContactSegmentCapsule(const Segment& a, const Capsule& b) { return RoundContact(a, b); }

}  // namespace collide::internal
