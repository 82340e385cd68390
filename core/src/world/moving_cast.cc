// The relative-motion sweep of a sphere against moving parts.
#include "world/moving_cast.h"

#include <algorithm>

#include "world/scene_query.h"

namespace collide::internal {

MovingHit CastAgainstMovingBodies(const Scene& scene, double alpha1, const Vec3& c0, const Vec3& c1,
                                  double radius, const QueryFilter& filter) {
  MovingHit best;
  if (scene.s0 == nullptr) return best;
  const Vec3 grow{radius, radius, radius};
  const Aabb box{Min(c0, c1) - grow, Max(c0, c1) + grow};
  Scene end = scene;
  end.alpha = alpha1;
  PosedBody start_pose, end_pose;
  scene.s0->tree.Overlap(box, [&](std::uint32_t i) {
    const BodyState& b = scene.body(i);
    if (!Passes(filter, b.category) || Ignored(filter, b.id)) return;
    scene.Posed(i, start_pose);
    end.Posed(i, end_pose);
    const PartSet& parts = *b.parts;
    for (std::size_t k = 0; k < parts.ids.size(); ++k) {
      const Pose a = Compose(start_pose.pose, (*start_pose.locals)[k]);
      const Pose z = Compose(end_pose.pose, (*end_pose.locals)[k]);
      // The sphere's ends in the part frame (box2d computes in frame A "for
      // round-off"; here the part frame also makes the part fixed).
      const Vec3 q0 = TransposeMul(RotationFromQuat(a.rotation), c0 - a.position);
      const Vec3 q1 = TransposeMul(RotationFromQuat(z.rotation), c1 - z.position);
      const SweepResult s = ShapeCast(Sphere{q0, radius}, q1 - q0, parts.shapes[k]);
      if (!s.hit) continue;
      const HitTarget target{HitTarget::Kind::kBody, b.id, 0, parts.ids[k]};
      if (best.hit && (s.t > best.t || (s.t == best.t && !TargetLess(target, best.target)))) continue;
      const Pose then = Interpolate(a, z, s.t);
      best = {true, s.t, Apply(then, s.point), RotationFromQuat(then.rotation) * s.normal, target};
    }
  });
  return best;
}

}  // namespace collide::internal
