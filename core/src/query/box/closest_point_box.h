// Closest points and push-out between a point and a box, in the box's own
// frame. The box is given by its bounds lo <= x <= hi (an Aabb uses its world
// min/max directly, so touching is decided exactly; an Obb uses -h..h in its
// local frame). Header-only so that the box kernels inline it.
#ifndef COLLIDE_CORE_SRC_QUERY_BOX_CLOSEST_POINT_BOX_H_
#define COLLIDE_CORE_SRC_QUERY_BOX_CLOSEST_POINT_BOX_H_

#include <cmath>

#include "collide/math.h"
#include "collide/result.h"
#include "collide/shapes.h"
#include "query/closest/closest.h"
#include "simd/scalar.h"
#include "simd/select.h"

namespace collide::internal {

inline constexpr Mat3 kIdentity{};

// The result convention's tie-break between two candidate world normals:
// prefer the larger x, then the larger y, then the larger z.
constexpr bool PreferredNormal(const Vec3& a, const Vec3& b) {
  if (a.x != b.x) return a.x > b.x;
  if (a.y != b.y) return a.y > b.y;
  return a.z > b.z;
}

// Vec3::operator[] with an index known only at run time is a chain of
// branches; these select every coordinate without branches instead. Not
// through an array written at the index and read back whole: the 8-byte
// store at a run-time index and a 16-byte read of the array cannot be
// forwarded from the store buffer, which cost the box-box certificates
// and deepest points ~a dozen cycles each on their critical path.
constexpr Vec3 Axis(int i, double sign) {
  return {ZeroIf(i != 0, sign), ZeroIf(i != 1, sign), ZeroIf(i != 2, sign)};
}
// v with coordinate i replaced by value.
constexpr Vec3 WithCoordinate(const Vec3& v, int i, double value) {
  return {Select(i == 0, value, v.x), Select(i == 1, value, v.y), Select(i == 2, value, v.z)};
}

// A box's support feature towards a unit direction n (box frame): the face,
// edge or vertex of the box lo <= x <= hi farthest along n. An axis with
// |n_k| <= kParallelFeatureTol counts as perpendicular to n, i.e. free along
// the feature: input that is parallel in world space reaches the box frame
// with round-off of ~1e-16, and the deepest-point rule for parallel
// features (result.h) must still see a face or an edge there.
inline constexpr double kParallelFeatureTol = 1e-12;
struct BoxFeature {
  Vec3 centre;     // the feature's centre (free axes at the box's centre).
  int free[3];     // the free axes, free[0] < free[1]; free_count of them.
  int free_count;  // 0: vertex, 1: edge, 2: face.
  int fixed;       // a fixed axis (the face's axis when free_count == 2).
};
inline BoxFeature SupportFeature(const Vec3& n, const Vec3& lo, const Vec3& hi) {
  BoxFeature f{{}, {0, 0, 0}, 0, 0};
  for (int k = 0; k < 3; ++k) {
    if (std::fabs(n[k]) <= kParallelFeatureTol) {
      f.free[f.free_count++] = k;
      f.centre[k] = 0.5 * (lo[k] + hi[k]);
    } else {
      f.fixed = k;
      f.centre[k] = n[k] > 0.0 ? hi[k] : lo[k];
    }
  }
  return f;
}

// Obb local frame <-> world.
inline Vec3 ToBoxFrame(const Obb& box, const Vec3& p) { return TransposeMul(box.rotation, p - box.center); }
inline Vec3 FromBoxFrame(const Obb& box, const Vec3& p) { return box.rotation * p + box.center; }

// A result computed in the box's frame, in world space.
inline PairResult ToWorld(const Obb& box, PairResult r) {
  r.point_a = FromBoxFrame(box, r.point_a);
  r.point_b = FromBoxFrame(box, r.point_b);
  r.normal = box.rotation * r.normal;
  return r;
}

// An Aabb is an Obb with the identity rotation.
inline Obb ObbFromAabb(const Aabb& box) {
  return {(box.min + box.max) * 0.5, Mat3{}, (box.max - box.min) * 0.5};
}

// Signed contact between the point p and the box, all in the box frame.
struct PointBoxContact {
  // > 0: the gap; <= 0: minus the distance to the nearest face.
  double distance;
  // Unit, from the point towards the box: the direction to move the box to
  // separate. Apart: (on_box - p) / distance.
  Vec3 normal;
  // Apart: the box point closest to p. Inside or on the surface: p projected
  // on the nearest face, so on_box - p == distance * normal.
  Vec3 on_box;
};

// Per-axis clamping gives the closest point (Ericson, Real-Time Collision
// Detection 5.1.3). A point inside leaves through the nearest face; pushing
// it out through face -x means moving the box by +x, so the normal is minus
// the face's outward normal. Ties between faces (a point at the centre) are
// broken by the preferred world normal; `to_world` maps the box frame to world
// for that comparison only.
inline PointBoxContact ContactPointBoxFrame(const Vec3& p, const Vec3& lo, const Vec3& hi,
                                            const Mat3& to_world) {
  const Vec3 q = Clamp(p, lo, hi);
  const Vec3 diff = q - p;
  const double d2 = LengthSquared(diff);
  if (d2 > 0.0) {
    const LengthAndUnit g = LengthAndUnitOf(diff, d2);
    return {g.length, g.unit, q};
  }
  double best = kInfinity;
  int axis = 0;
  double sign = 1.0;
  for (int i = 0; i < 3; ++i) {
    // Leaving through face lo_i: move the box by +e_i; through hi_i: by -e_i.
    const double depth[2] = {p[i] - lo[i], hi[i] - p[i]};
    for (int s = 0; s < 2; ++s) {
      const double cand_sign = s == 0 ? 1.0 : -1.0;
      if (depth[s] < best ||
          (depth[s] == best && PreferredNormal(to_world.col[i] * cand_sign, to_world.col[axis] * sign))) {
        best = depth[s];
        axis = i;
        sign = cand_sign;
      }
    }
  }
  Vec3 on_box = p;
  on_box[axis] = sign > 0 ? lo[axis] : hi[axis];
  return {-best, Axis(axis, sign), on_box};
}

// kDistance result of a ball (centre c, radius >= 0; a point when 0) as A
// and the box as B, in the box frame. Overlapping, the clamped centre is in
// the box and within the radius: a common point.
inline PairResult DistanceBallBoxFrame(const Vec3& c, double radius, const Vec3& lo, const Vec3& hi) {
  const Vec3 q = Clamp(c, lo, hi);
  const Vec3 diff = q - c;
  const double d2 = LengthSquared(diff);
  // Decide the hit on d itself as well: d2 can exceed radius^2 by an ulp while
  // sqrt(d2) - radius rounds to 0, and hit must equal (distance <= 0).
  const double d = std::sqrt(d2);
  if (d2 <= radius * radius || d <= radius) return {QueryStatus::kOk, true, 0.0, q, q, {}};
  const Vec3 n = LengthAndUnitOf(diff, d2).unit;
  return {QueryStatus::kOk, false, d - radius, c + n * radius, q, n};
}

// kContact result of a ball as A and the box as B, in the box frame: the
// point's signed contact moved out by the radius (the Minkowski sum with a
// ball adds the radius to every distance, so depth and normal carry over).
inline PairResult ContactBallBoxFrame(const Vec3& c, double radius, const Vec3& lo, const Vec3& hi,
                                      const Mat3& to_world) {
  const PointBoxContact k = ContactPointBoxFrame(c, lo, hi, to_world);
  const double dist = k.distance - radius;
  return {QueryStatus::kOk, dist <= 0.0, dist, c + k.normal * radius, k.on_box, k.normal};
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_BOX_CLOSEST_POINT_BOX_H_
