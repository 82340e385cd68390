// The melee volumes: a circumscribed fan for the arc (each triangle's outer
// edge tangent to the circle at its middle: 1 / cos(delta / 2) of the radius
// at its corners), the convex hull of a swung segment's ends for a sweep.
#include "world/melee_reach.h"

#include <cmath>

#include "collide/query.h"

namespace collide::internal {

MeleeVolume MeleeVolume::Arc(const Vec3& eye, const MeleeArc& arc) {
  MeleeVolume v;
  const Vec3 up = NormalizedOr(arc.up, Vec3{0, 0, 1});
  const Vec3 u = NormalizedOr(arc.direction - up * Dot(arc.direction, up), AnyPerpendicular(up));
  const Vec3 w = Cross(up, u);
  const int n = std::max(1, static_cast<int>(std::ceil(arc.angle / kMaxFanAngle)));
  const double delta = arc.angle / n, reach = arc.radius / std::cos(delta / 2.0);
  const auto corner = [&](int j) {
    const double phi = -arc.angle / 2.0 + j * delta;
    return eye + (u * std::cos(phi) + w * std::sin(phi)) * reach;
  };
  v.bounds_ = {eye, eye};
  Vec3 previous = corner(0);
  for (int j = 1; j <= n; ++j) {
    const Vec3 next = corner(j);
    v.fan_.push_back(Triangle{eye, previous, next});
    v.bounds_ = {Min(v.bounds_.min, Min(previous, next)), Max(v.bounds_.max, Max(previous, next))};
    previous = next;
  }
  return v;
}

MeleeVolume MeleeVolume::Sweep(const Pose& attacker, const MeleeSweep& sweep) {
  MeleeVolume v;
  v.ends_ = {Apply(attacker, sweep.from.a), Apply(attacker, sweep.from.b), Apply(attacker, sweep.to.a),
             Apply(attacker, sweep.to.b)};
  v.radius_ = sweep.from.radius;
  const Vec3 r{v.radius_, v.radius_, v.radius_};
  v.bounds_ = {v.ends_[0], v.ends_[0]};
  for (const Vec3& p : v.ends_) v.bounds_ = {Min(v.bounds_.min, p - r), Max(v.bounds_.max, p + r)};
  return v;
}

PairResult MeleeVolume::Reach(const Shape& part) const {
  if (fan_.empty()) {
    PairResult d = Distance(ConvexHull{ends_}, part);
    d.distance = std::max(0.0, d.distance - radius_);
    return d;
  }
  PairResult best;
  best.distance = kInfinity;
  for (const Triangle& t : fan_) {
    const PairResult d = Distance(t, part);
    if (d.distance < best.distance) best = d;
    if (best.distance == 0.0) break;
  }
  return best;
}

}  // namespace collide::internal
