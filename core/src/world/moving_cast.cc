// The relative-motion sweep of a sphere against moving parts.
#include "world/moving_cast.h"

#include <algorithm>
#include <cmath>
#include <utility>

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

// The angle of the rotation from a to b (unit quaternions), radians.
double TurnAngle(const Quat& a, const Quat& b) {
  const double dot = std::fabs(a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z);
  return 2.0 * std::acos(std::min(1.0, dot));
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
                                  double radius, double tolerance,
                                  std::span<const std::uint32_t> candidates) {
  MovingHit best;
  if (candidates.empty()) return best;  // most sub-steps, in open air
  const double alpha0 = scene.alpha;
  Scene at = scene;
  PosedBody start_pose, end_pose;
  for (const std::uint32_t i : candidates) {
    const BodyState& b = scene.body(i);
    // The body's origin moves straight over the interval (Interpolate's
    // position), and every part stays within the radius of it (of either
    // frame's part set): the sphere's path relative to the origin must come
    // that close.
    const BodyState* n = scene.s1 != nullptr ? scene.s1->Find(b.id, i) : nullptr;
    if (n != nullptr && n->teleported) n = nullptr;
    const auto origin = [&](double alpha) {
      return n == nullptr || alpha == 0.0 ? b.pose.position
                                          : b.pose.position + (n->pose.position - b.pose.position) * alpha;
    };
    const double body_radius = std::max(b.radius, n != nullptr ? n->radius : 0.0);
    const Vec3 r0 = c0 - origin(alpha0), r1 = c1 - origin(alpha1);
    if (DistanceToOrigin(r0, r1) > body_radius + radius) continue;
    at.alpha = alpha0;
    at.Posed(i, start_pose);
    at.alpha = alpha1;
    at.Posed(i, end_pose);
    // A turning part: the sphere's path in its frame is an arc, not the
    // chord between its ends. With f(s) = R(s)^T w(s), w the sphere's
    // offset (linear), |f''| <= theta^2 |w| + 2 theta |w'|, so n pieces of
    // the turn theta bound the chord's error by (theta^2 d + 2 theta l) /
    // (8 n^2) (the interpolation bound of the projectile's own chords), d the
    // largest offset from a part frame and l the relative displacement.
    double turn = TurnAngle(start_pose.pose.rotation, end_pose.pose.rotation);
    if (start_pose.locals != end_pose.locals) {
      double local_turn = 0.0;
      for (std::size_t k = 0; k < start_pose.locals->size(); ++k) {
        local_turn =
            std::max(local_turn, TurnAngle((*start_pose.locals)[k].rotation, (*end_pose.locals)[k].rotation));
      }
      turn += local_turn;
    }
    int pieces = 1;
    if (turn > 0.0) {
      const double d = std::max(Length(r0), Length(r1)) + body_radius, l = Length(r1 - r0);
      pieces = static_cast<int>(
          std::clamp(std::ceil(std::sqrt((turn * turn * d + 2.0 * turn * l) / (8.0 * tolerance))), 1.0,
                     static_cast<double>(kMaxTurnPieces)));
    }
    for (int j = 0; j < pieces; ++j) {
      const double f0 = static_cast<double>(j) / pieces, f1 = static_cast<double>(j + 1) / pieces;
      if (j > 0) {
        Swap(start_pose, end_pose);
        at.alpha = alpha0 + (alpha1 - alpha0) * f1;
        at.Posed(i, end_pose);
      } else if (pieces > 1) {
        at.alpha = alpha0 + (alpha1 - alpha0) * f1;
        at.Posed(i, end_pose);
      }
      const Vec3 ca = c0 + (c1 - c0) * f0, cb = c0 + (c1 - c0) * f1;
      // The sphere's ends in the body frame at each end, then in each
      // part's frame (box2d computes in frame A "for round-off"; here the
      // part frame also makes the part fixed).
      const Vec3 b0 = TransposeMul(start_pose.rotation, ca - start_pose.pose.position);
      const Vec3 b1 = TransposeMul(end_pose.rotation, cb - end_pose.pose.position);
      // With the body's own part poses at both ends every part lies within
      // its tight sphere (snapshot.h): one cull for all of them.
      const std::vector<Pose>* own = b.part_poses.get();
      if (start_pose.locals == own && end_pose.locals == own &&
          DistanceToOrigin(b0 - b.centre, b1 - b.centre) > b.tight_radius + radius) {
        continue;
      }
      const PartSet& parts = *b.parts;
      bool hit = false;
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
        const double t = f0 + (f1 - f0) * s.t;
        const HitTarget target{HitTarget::Kind::kBody, b.id, 0, parts.ids[k]};
        if (best.hit && (t > best.t || (t == best.t && !TargetLess(target, best.target)))) continue;
        const Pose then = Interpolate(Compose(start_pose.pose, l0), Compose(end_pose.pose, l1), s.t);
        best = {true, t, Apply(then, s.point), RotationFromQuat(then.rotation) * s.normal, target};
        hit = true;
      }
      if (hit) break;  // later pieces are later in time.
    }
  }
  return best;
}

}  // namespace collide::internal
