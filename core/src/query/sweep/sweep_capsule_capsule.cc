// Segment and capsule against segment and capsule: capsule A (segment S =
// [a, a + d], radius ra) moved by t v touches capsule B (segment T, radius
// rb) exactly when a + t v lies in the parallelogram {q - s d : q in T, s in
// [0, 1]} grown by R = ra + rb (T minus S, Minkowski). That grown
// parallelogram is the union of its two triangles grown by R, so the sweep
// is the ray from a along v against two rounded triangles
// (sweep_sphere_triangle.cc): parallel axes make the triangles degenerate,
// which the rounded-triangle cast covers by its edge capsules. The contact
// point is on A's surface, ra along the normal from the closest point of
// A's axis at t to B's axis.
#include "query/closest/closest_segments.h"
#include "query/sweep/sweep_ball.h"
#include "query/sweep/sweep_kernels.h"

namespace collide::internal {

namespace {

SweepResult SweepRoundSegments(const Vec3& a0, const Vec3& a1, double ra, const Vec3& v, const Vec3& b0,
                               const Vec3& b1, double rb) {
  const Vec3 d = a1 - a0;
  const double r = ra + rb;
  SweepResult s = SweepBall(a0, 0.0, v, [&](const Ray& ray) {
    RayHit best;
    KeepNearest(RayCastRoundedTriangle(ray, Triangle{b0, b1, b1 - d}, r), best);
    KeepNearest(RayCastRoundedTriangle(ray, Triangle{b0, b1 - d, b0 - d}, r), best);
    return best;
  });
  if (s.hit) {
    const Vec3 offset = v * s.t;
    s.point = ClosestPointsSegments(a0 + offset, a1 + offset, b0, b1).point1 + s.normal * ra;
  }
  return s;
}

}  // namespace

SweepResult SweepSegmentSegment(const Segment& a, const Vec3& v, const Segment& b) {
  return SweepRoundSegments(a.a, a.b, 0.0, v, b.a, b.b, 0.0);
}
SweepResult SweepSegmentCapsule(const Segment& a, const Vec3& v, const Capsule& b) {
  return SweepRoundSegments(a.a, a.b, 0.0, v, b.a, b.b, b.radius);
}
SweepResult SweepCapsuleCapsule(const Capsule& a, const Vec3& v, const Capsule& b) {
  return SweepRoundSegments(a.a, a.b, a.radius, v, b.a, b.b, b.radius);
}

}  // namespace collide::internal
