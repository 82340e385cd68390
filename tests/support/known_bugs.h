// Kernel bugs found by the verification tests and reported to the kernels'
// owners, not yet fixed. A test that hits one of these prints it loudly
// ("KNOWN BUG <id>") and does not fail; every other failure fails. Remove an
// entry together with its fix: the regression tests named after it then
// must pass.
#ifndef COLLIDE_TESTS_SUPPORT_KNOWN_BUGS_H_
#define COLLIDE_TESTS_SUPPORT_KNOWN_BUGS_H_

#include <string_view>
#include <vector>

namespace collide::testing {

struct KnownBug {
  std::string_view id;
  std::string_view description;
};

// Fixed: "epa-contact-witness" (EPA deepest points off the shape in face-face
// contacts; RegressionTest.AabbTriangleFaceContactWitnessesOnTheShapes passes;
// invariants_test entries naming it are inert and fail again if it recurs).
// Fixed: "distance-common-point" (kDistance common point of overlapping round
// shapes outside A; fixed in e63b86c, regression tests in regression_test.cc).
// Fixed: "box-touching-hit" (box kernels returned hit == false with distance
// == 0 for touching shapes; fixed in 0390764 and 9889044, regression test
// RegressionTest.BoxTouchingSphereDistanceZeroMeansHit now runs).
// Fixed: "box-contact-witness" (box kernels' deepest points off the other
// shape for parallel features: the witnesses are now read from the normal's
// support features, with the middle-of-the-contact rule; regression tests
// RegressionTest.ObbObbFaceContactWitnessesOnTheShapes and
// RegressionTest.CapsuleObbParallelContactWitnessesOnTheShapes run).
// Fixed: "accuracy-triangle-box-parallel-face" (triangle-box nearly parallel
// to a box face went through GJK/EPA, distances off by up to ~1e-9 and
// overlaps of ~1e-10 missed; the triangle-box kernels answer it now and
// AccuracyTest.TriangleBoxNearlyParallelFace enforces it).
inline const std::vector<KnownBug> kKnownBugs = {};

inline const KnownBug* FindKnownBug(std::string_view id) {
  for (const KnownBug& b : kKnownBugs) {
    if (b.id == id) return &b;
  }
  return nullptr;
}

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_KNOWN_BUGS_H_
