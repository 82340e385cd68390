// The relative-motion sweep of a sphere against moving parts.
#include "world/moving_cast.h"

#include <algorithm>

#include "world/scene_query.h"

namespace collide::internal {
namespace {

// The distance from the origin to the segment [a, b].
double DistanceToOrigin(const Vec3& a, const Vec3& b) {
  const Vec3 d = b - a;
  const double dd = Dot(d, d);
  const double t = dd > 0.0 ? std::clamp(-Dot(a, d) / dd, 0.0, 1.0) : 0.0;
  return Length(a + d * t);
}

}  // namespace

void MovingCandidates(const Scene& scene, const Aabb& box, const QueryFilter& filter,
                      std::vector<std::uint32_t>& out) {
  out.clear();
  if (scene.s0 == nullptr) return;
  scene.s0->tree.Overlap(box, [&](std::uint32_t i) {
    const BodyState& b = scene.body(i);
    if (Passes(filter, b.category) && !Ignored(filter, b.id)) out.push_back(i);
  });
}

MovingHit CastAgainstMovingBodies(const Scene& scene, double alpha1, const Vec3& c0, const Vec3& c1,
                                  double radius, std::span<const std::uint32_t> candidates) {
  MovingHit best;
  if (candidates.empty()) return best;  // most sub-steps, in open air
  Scene end = scene;
  end.alpha = alpha1;
  PosedBody start_pose, end_pose;
  for (const std::uint32_t i : candidates) {
    const BodyState& b = scene.body(i);
    // The body's origin moves straight over the interval (Interpolate's
    // position), and every part stays within the radius of it (of either
    // frame's part set): the sphere's path relative to the origin must come
    // that close.
    const BodyState* n = scene.s1 != nullptr ? scene.s1->Find(b.id) : nullptr;
    if (n != nullptr && n->teleported) n = nullptr;
    const auto origin = [&](double alpha) {
      return n == nullptr || alpha == 0.0 ? b.pose.position
                                          : b.pose.position + (n->pose.position - b.pose.position) * alpha;
    };
    const double reach = std::max(b.radius, n != nullptr ? n->radius : 0.0) + radius;
    if (DistanceToOrigin(c0 - origin(scene.alpha), c1 - origin(alpha1)) > reach) continue;
    scene.Posed(i, start_pose);
    end.Posed(i, end_pose);
    // The sphere's ends in the body frame at each end, then in each part's
    // frame (box2d computes in frame A "for round-off"; here the part frame
    // also makes the part fixed).
    const Vec3 b0 = TransposeMul(start_pose.rotation, c0 - start_pose.pose.position);
    const Vec3 b1 = TransposeMul(end_pose.rotation, c1 - end_pose.pose.position);
    const PartSet& parts = *b.parts;
    for (std::size_t k = 0; k < parts.ids.size(); ++k) {
      const Pose& l0 = (*start_pose.locals)[k];
      const Pose& l1 = (*end_pose.locals)[k];
      const auto in_part = [](const Pose& local, const Vec3& p) {
        return local == Pose{} ? p : TransposeMul(RotationFromQuat(local.rotation), p - local.position);
      };
      const Vec3 q0 = in_part(l0, b0), q1 = in_part(l1, b1);
      // The part's bounding sphere (part frame) first: a closed-form sweep
      // starts with a Contact at t = 0, several times this test's cost.
      const Sphere& bound = parts.spheres[k];
      if (DistanceToOrigin(q0 - bound.center, q1 - bound.center) > bound.radius + radius) continue;
      const SweepResult s = ShapeCast(Sphere{q0, radius}, q1 - q0, parts.shapes[k]);
      if (!s.hit) continue;
      const HitTarget target{HitTarget::Kind::kBody, b.id, 0, parts.ids[k]};
      if (best.hit && (s.t > best.t || (s.t == best.t && !TargetLess(target, best.target)))) continue;
      const Pose then = Interpolate(Compose(start_pose.pose, l0), Compose(end_pose.pose, l1), s.t);
      best = {true, s.t, Apply(then, s.point), RotationFromQuat(then.rotation) * s.normal, target};
    }
  }
  return best;
}

}  // namespace collide::internal
