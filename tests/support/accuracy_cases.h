// Seeded generators of the hard configurations of issue 14, one per class,
// for the accuracy tests (tests/core/accuracy_test.cc): the inputs are what
// a game server sends (doubles); their exact answers come from
// support/exact_reference.h, never from the construction, so an imprecise
// construction only moves a case, it cannot make a wrong expectation.
#ifndef COLLIDE_TESTS_SUPPORT_ACCURACY_CASES_H_
#define COLLIDE_TESTS_SUPPORT_ACCURACY_CASES_H_

#include <cstdint>
#include <vector>

#include "collide/shapes.h"

namespace collide::testing {

enum class AccuracyClass {
  // 1. Two boxes whose closest or deepest features are edges 1e-8..1e-4 rad
  //    from parallel, apart or overlapping by 1e-9..1e-3 (A an Aabb when
  //    aabb_first, else an Obb; B an Obb).
  kBoxBoxParallelEdges,
  // 2. A triangle 1e-10..1e-8 rad from parallel to a box face, apart by
  //    1e-10..1e-7 or overlapping by up to 1e-9, over the face or across
  //    its edge.
  kTriangleBoxParallelFace,
  // 3. Plates and needles (half extents 1e-6..1e-3) and sliver triangles
  //    (height 1e-6..1e-3 of their length) near touching, in general
  //    position: edge-edge and vertex-face closest features.
  kTriangleBoxThin,
  // 5. Spheres against sliver triangles, or with the center within 1e-6 of
  //    the triangle, radius within 1e-9 of touching or larger.
  kSphereTriangleThin,
};

struct AccuracyCase {
  Shape a;
  Shape b;
};

// `count` cases of class c from `seed`. box_kind picks the box's form
// (ShapeKind::kAabb or kObb; for box-box, A's form); the pair comes in
// the order the class names it (box first, sphere first), reversed when
// swapped.
std::vector<AccuracyCase> MakeAccuracyCases(AccuracyClass c, ShapeKind box_kind, bool swapped, int count,
                                            uint64_t seed);

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_ACCURACY_CASES_H_
