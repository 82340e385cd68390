// An exact-to-binary128 reference for the accuracy tests (issue 14): signed
// distances between boxes, triangles and spheres computed in __float128 on
// the exact double inputs, by brute force and with algorithms unlike the
// kernels'. Round-off here is ~1e-34 of the scene scale, so against the
// kernels' double results it is exact.
//  - Polytope pairs (Aabb, Obb, Triangle): the separating-axis theorem over
//    every candidate axis (face normals, edge-edge cross products) decides
//    overlap and gives the depth when overlapping (for polytopes the minimum
//    translation is along one of those axes); when separated, the distance is
//    the least over every feature pair: each vertex against the other solid,
//    each edge against each edge.
//  - A sphere: the distance from its center to the other shape, minus the
//    radius.
// Boxes are taken as center + R l with R's double columns as given (R is
// orthonormal to ~1e-16; the reference treats it as exactly orthonormal,
// an error of a few ulp of the box size, far below the tests' tolerances).
#ifndef COLLIDE_TESTS_SUPPORT_EXACT_REFERENCE_H_
#define COLLIDE_TESTS_SUPPORT_EXACT_REFERENCE_H_

#include "collide/math.h"
#include "collide/shapes.h"

namespace collide::testing {

// Signed distance of A and B (< 0: minus the penetration depth), rounded to
// double. Kinds: Aabb, Obb, Triangle, and Sphere against a Triangle.
double ExactSignedDistance(const Shape& a, const Shape& b);

// Distance from p to the solid shape (0 inside or on it). Kinds as above.
double ExactPointDistance(const Shape& s, const Vec3& p);

// min over B of dot(n, x) - max over A of dot(n, x) for unit n: the gap
// along n from A to B (< 0: minus the overlap along n). Polytopes only.
double ExactGapAlong(const Shape& a, const Shape& b, const Vec3& n);

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_EXACT_REFERENCE_H_
