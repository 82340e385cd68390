// The volume a melee swing reaches (collide/melee.h): a fan of triangles
// covering an arc, or the hull of a capsule's ends at two poses with its
// radius.
#ifndef COLLIDE_CORE_SRC_WORLD_MELEE_REACH_H_
#define COLLIDE_CORE_SRC_WORLD_MELEE_REACH_H_

#include <array>
#include <vector>

#include "collide/melee.h"

namespace collide::internal {

// The widest fan triangle, radians (5 degrees).
inline constexpr double kMaxFanAngle = 0.08726646259971647;

class MeleeVolume {
 public:
  // The arc around `eye` (world frame); the request is valid.
  static MeleeVolume Arc(const Vec3& eye, const MeleeArc& arc);
  // The sweep placed by the attacker's pose.
  static MeleeVolume Sweep(const Pose& attacker, const MeleeSweep& sweep);

  // The part's distance to the volume (0 when they touch or overlap) and
  // its point nearest the volume (point_b: on the part; inside both when
  // they overlap). A part whose bounds lie farther than `limit` from it
  // gets only a distance above `limit`.
  PairResult Reach(const Shape& part, double limit = kInfinity) const;
  const Aabb& bounds() const { return bounds_; }

 private:
  std::vector<Triangle> fan_;  // an arc; empty for a sweep.
  std::array<Vec3, 4> ends_;   // a sweep: the segment's ends at both poses.
  double radius_ = 0.0;
  Aabb bounds_;
};

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_MELEE_REACH_H_
