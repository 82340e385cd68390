// Textbook kernels: the plain scalar algorithms of Ericson, Real-Time Collision
// Detection (2005), as the book writes them, for the pair kinds whose speed
// targets collide misses. Timed in the same run as collide's kernels and the
// peers, they show what the computation itself costs on the machine, without
// collide's degenerate, touching and round-off handling (so their answers are
// not collide's result convention: no normal rule when touching, no witness
// correction, undefined for degenerate shapes). Benchmark reference only.
#ifndef COLLIDE_BENCH_TEXTBOOK_KERNELS_H_
#define COLLIDE_BENCH_TEXTBOOK_KERNELS_H_

#include "collide/result.h"
#include "collide/shapes.h"

namespace collide::bench {

// Sphere vs triangle from ClosestPtPointTriangle (5.1.5).
bool TextbookIntersectSphereTriangle(const Sphere& a, const Triangle& b);
PairResult TextbookDistanceSphereTriangle(const Sphere& a, const Triangle& b);
PairResult TextbookContactSphereTriangle(const Sphere& a, const Triangle& b);

// Capsule vs capsule from ClosestPtSegmentSegment (5.1.9).
bool TextbookIntersectCapsuleCapsule(const Capsule& a, const Capsule& b);
PairResult TextbookDistanceCapsuleCapsule(const Capsule& a, const Capsule& b);
PairResult TextbookContactCapsuleCapsule(const Capsule& a, const Capsule& b);

}  // namespace collide::bench

#endif  // COLLIDE_BENCH_TEXTBOOK_KERNELS_H_
