// The melee volumes: a circumscribed fan for the arc (each triangle's outer
// edge tangent to the circle at its middle: 1 / cos(delta / 2) of the radius
// at its corners), the convex hull of a swung segment's ends for a sweep.
#include "world/melee_reach.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "collide/query.h"
#include "shapes/shape_bounds.h"

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

PairResult MeleeVolume::Reach(const Shape& part, double limit) const {
  const Aabb box = BoundsOf(part);
  // The gap between the bounding boxes: a lower bound of the distance.
  const Vec3 gap = Max(Max(bounds_.min - box.max, box.min - bounds_.max), Vec3{});
  if (Length(gap) > limit) return {.distance = Length(gap)};
  if (fan_.empty()) {
    PairResult d = Distance(ConvexHull{ends_}, part);
    d.distance = std::max(0.0, d.distance - radius_);
    return d;
  }
  // Triangles nearest the part's bounding sphere first; a triangle whose
  // sphere lies farther from it than the best distance so far cannot beat it.
  const Vec3 centre = (box.min + box.max) * 0.5;
  const double reach = Length(box.max - box.min) * 0.5;
  std::vector<std::pair<double, std::size_t>> order(fan_.size());
  for (std::size_t i = 0; i < fan_.size(); ++i) {
    const Triangle& t = fan_[i];
    const Vec3 c = (t.a + t.b + t.c) / 3.0;
    const double r = std::max({Length(t.a - c), Length(t.b - c), Length(t.c - c)});
    order[i] = {Length(centre - c) - r - reach, i};
  }
  std::sort(order.begin(), order.end());
  PairResult best;
  best.distance = kInfinity;
  for (const auto& [bound, i] : order) {
    if (bound >= best.distance) break;
    const PairResult d = Distance(fan_[i], part);
    if (d.distance < best.distance) best = d;
    if (best.distance == 0.0) break;
  }
  return best;
}

}  // namespace collide::internal
