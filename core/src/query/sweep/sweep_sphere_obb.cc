// Ball against a box: the ray from the center against the box grown by the
// radius. That rounded box is the union of the box grown by r along each of
// its three axes (the face slabs) and of the twelve capsules of radius r on
// its edges (the corner balls are the capsules' ends), so its first entry is
// the nearest first entry into one of those fifteen solids (sweep_ball.h).
#include <cmath>

#include "query/kernels_box.h"
#include "query/kernels_round.h"
#include "query/sweep/sweep_ball.h"
#include "query/sweep/sweep_kernels.h"

namespace collide::internal {

RayHit RayCastRoundedBox(const Ray& ray, const Obb& box, double r) {
  if (r == 0.0) return RayCastObb(ray, box);
  const Vec3 h = box.half_extents;
  const double half[3] = {h.x, h.y, h.z};
  // The box grown by r on every axis holds the rounded box: a ray that
  // misses it misses, and one that enters it through a face's middle (the
  // entry point within the box's extent on the other two axes, so on a face
  // slab) enters the rounded box there (Ericson, "Real-Time Collision
  // Detection", 5.5.7). Only edge and corner entries, and rays starting
  // inside, need the fifteen solids: one ray cast instead of fifteen for
  // most misses and face hits.
  Obb grown = box;
  grown.half_extents = h + Vec3{r, r, r};
  const RayHit outer = RayCastObb(ray, grown);
  if (!outer.hit) return outer;
  if (outer.distance > 0.0) {
    const Vec3 p = outer.point - box.center;
    int outside = 0;
    for (int i = 0; i < 3; ++i) outside += std::fabs(Dot(box.rotation.col[i], p)) > half[i];
    if (outside <= 1) return outer;
  }
  RayHit best;
  for (int i = 0; i < 3; ++i) {
    Obb slab = box;
    double grown[3] = {half[0], half[1], half[2]};
    grown[i] += r;
    slab.half_extents = {grown[0], grown[1], grown[2]};
    KeepNearest(RayCastObb(ray, slab), best);
  }
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3;
    const int k = (i + 2) % 3;
    const Vec3 along = box.rotation.col[i] * half[i];
    for (const double sj : {-1.0, 1.0}) {
      for (const double sk : {-1.0, 1.0}) {
        const Vec3 mid =
            box.center + box.rotation.col[j] * (sj * half[j]) + box.rotation.col[k] * (sk * half[k]);
        KeepNearest(RayCastCapsule(ray, Capsule{mid - along, mid + along, r}), best);
      }
    }
  }
  return best;
}

SweepResult SweepPointObb(const Point& a, const Vec3& v, const Obb& b) {
  return SweepBall(a.position, 0.0, v, [&](const Ray& ray) { return RayCastObb(ray, b); });
}
SweepResult SweepSphereObb(const Sphere& a, const Vec3& v, const Obb& b) {
  return SweepBall(a.center, a.radius, v,
                   [&](const Ray& ray) { return RayCastRoundedBox(ray, b, a.radius); });
}

}  // namespace collide::internal
