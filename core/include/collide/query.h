// Entry points of the collision library: pair queries between any two
// shapes, and ray casts. See result.h for what every field means.
//
// Dispatch: each supported (A, B) kind pair has a specialized kernel, its
// mirror (B, A) answered by the same kernel with the result Flipped(), and
// every convex pair without a kernel falls back to GJK (distance) and EPA
// (penetration) over support functions. Halfspace vs halfspace has no
// bounded answer and reports QueryStatus::kUnsupported.
//
// All functions are pure: thread-safe, deterministic (the same inputs give
// bit-identical outputs), never throwing, and bounded in time for valid
// input (see validate.h). Results for invalid input are unspecified.
#ifndef COLLIDE_QUERY_H_
#define COLLIDE_QUERY_H_

#include "collide/result.h"
#include "collide/shapes.h"

namespace collide {

PairResult Query(QueryLevel level, const Shape& a, const Shape& b);

inline PairResult Intersect(const Shape& a, const Shape& b) { return Query(QueryLevel::kIntersect, a, b); }
inline PairResult Distance(const Shape& a, const Shape& b) { return Query(QueryLevel::kDistance, a, b); }
inline PairResult Contact(const Shape& a, const Shape& b) { return Query(QueryLevel::kContact, a, b); }

// True when Query answers kinds (a, b) (status other than kUnsupported).
bool IsSupported(ShapeKind a, ShapeKind b);

// Casts `ray` against the solid `shape`.
RayHit RayCast(const Ray& ray, const Shape& shape);

}  // namespace collide

#endif  // COLLIDE_QUERY_H_
