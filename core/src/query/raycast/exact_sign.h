// Exact signs of small polynomials in double inputs, for the rare cases where
// a filtered double evaluation cannot decide (a ray through a triangle's edge
// or vertex, a ray in a triangle's plane, a zero-area triangle), and their
// values rounded to the nearest double where a double evaluation cancels
// (a ray nearly parallel to a triangle's plane).
//
// Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast Robust
// Geometric Predicates" (1997): every difference of two doubles is the exact
// sum of two doubles (TwoDiff), every product of two doubles the exact sum of
// two (TwoProduct, Dekker's split: SSE2 has no FMA), and a sum of doubles is
// kept exactly as a non-overlapping expansion (GrowExpansion), whose sign is
// the sign of its largest component. Valid inputs (validate.h: 0 or
// magnitudes in [1e-50, 1e12]) keep every product of three such terms within
// [1e-230, 1e37]: no overflow, no underflow, so the signs are exact and the
// rounded values are within half an ulp (relative error <= 2^-53).
#ifndef COLLIDE_CORE_SRC_QUERY_RAYCAST_EXACT_SIGN_H_
#define COLLIDE_CORE_SRC_QUERY_RAYCAST_EXACT_SIGN_H_

#include "collide/math.h"

namespace collide::internal {

// sign(det[p, q, r]) = sign(dot(p, cross(q, r))) where p = p1 - p0,
// q = q1 - q0, r = r1 - r0 are exact differences of the given doubles
// (pass a zero vector as the subtrahend for a vector taken as is).
int ExactTripleSign(const Vec3& p1, const Vec3& p0, const Vec3& q1, const Vec3& q0, const Vec3& r1,
                    const Vec3& r0);
// det[p, q, r] itself (same arguments), the exact value rounded to the
// nearest double: 0 exactly when det is 0, and of det's sign.
double ExactTriple(const Vec3& p1, const Vec3& p0, const Vec3& q1, const Vec3& q0, const Vec3& r1,
                   const Vec3& r0);

// True when a, b, c are exactly collinear (or coincident): every component of
// cross(b - a, c - a) is exactly zero.
bool ExactlyCollinear(const Vec3& a, const Vec3& b, const Vec3& c);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_RAYCAST_EXACT_SIGN_H_
