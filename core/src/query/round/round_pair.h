// The shared math of the round family. Point, segment, sphere and capsule are
// all a core (a point or a segment) swept by a ball of some radius:
//   point = point core, r = 0      sphere  = point core, r
//   segment = segment core, r = 0  capsule = segment core, r
// so every pair among them reduces to the closest points of two cores at
// distance d: signed distance d - rA - rB, normal along the core separation,
// witness points offset from the core points by the radii. Each pair kernel
// (one file per pair, see kernels_round.h) is a single call into this file.
#ifndef COLLIDE_CORE_SRC_QUERY_ROUND_ROUND_PAIR_H_
#define COLLIDE_CORE_SRC_QUERY_ROUND_ROUND_PAIR_H_

#include "collide/result.h"
#include "collide/shapes.h"
#include "query/closest/closest.h"

namespace collide::internal {

struct PointCore {
  Vec3 p;
};
struct SegmentCore {
  Vec3 a;
  Vec3 b;
};

inline PointCore CoreOf(const Point& s) { return {s.position}; }
inline SegmentCore CoreOf(const Segment& s) { return {s.a, s.b}; }
inline PointCore CoreOf(const Sphere& s) { return {s.center}; }
inline SegmentCore CoreOf(const Capsule& s) { return {s.a, s.b}; }
inline double RadiusOf(const Point&) { return 0.0; }
inline double RadiusOf(const Segment&) { return 0.0; }
inline double RadiusOf(const Sphere& s) { return s.radius; }
inline double RadiusOf(const Capsule& s) { return s.radius; }

// A core as start + s * axis, s in [0, 1]; the axis is zero for a point.
struct CoreLine {
  Vec3 start;
  Vec3 axis;
};
inline CoreLine LineOf(const PointCore& c) { return {c.p, {}}; }
inline CoreLine LineOf(const SegmentCore& c) { return {c.a, c.b - c.a}; }

// The closest points of two cores, at parameters s on A and t on B (0 on a
// point core). Each overload uses the cheapest building block.
struct CoreClosest {
  Vec3 point_a;
  Vec3 point_b;
  double s = 0.0;
  double t = 0.0;
};
inline CoreClosest Closest(const PointCore& a, const PointCore& b) { return {a.p, b.p}; }
inline CoreClosest Closest(const PointCore& a, const SegmentCore& b) {
  const PointOnSegment q = ClosestPointOnSegment(a.p, b.a, b.b);
  return {a.p, q.point, 0.0, q.t};
}
inline CoreClosest Closest(const SegmentCore& a, const PointCore& b) {
  const PointOnSegment q = ClosestPointOnSegment(b.p, a.a, a.b);
  return {q.point, b.p, q.t, 0.0};
}
inline CoreClosest Closest(const SegmentCore& a, const SegmentCore& b) {
  const SegmentPoints cp = ClosestPointsSegments(a.a, a.b, b.a, b.b);
  return {cp.point1, cp.point2, cp.s, cp.t};
}

// The kContact result (result.h) of two round shapes from their cores'
// closest points, the cores and the radii. The distance and hit come from
// |point_b - point_a| (hit exactly as in RoundIntersect, so all levels agree),
// the normal from SeparationDirection.
PairResult ContactFromClosest(const CoreClosest& cp, const CoreLine& a, const CoreLine& b, double ra,
                              double rb);

// The kDistance result (result.h): the contact result when apart; when
// overlapping, one point in both shapes. Not DistanceFromContact: the
// midpoint of the deepest points can lie outside the smaller shape when one
// contains the other (a small sphere inside a large one: A's deepest point is
// A's far surface point). Here the point is on the core segment from A's
// closest core point to B's, within ra of the first and rb of the second.
PairResult DistanceFromClosest(const CoreClosest& cp, const CoreLine& a, const CoreLine& b, double ra,
                               double rb);

// point_b - point_a with its round-off corrected so that it lies in the
// normal cone of the cores' Minkowski difference: perpendicular to a segment
// whose interior holds the closest point, along the common perpendicular
// when both do. Its direction is then a valid separating direction even when
// its length is at round-off level. Zero when the cores touch.
Vec3 SeparationDirection(const CoreClosest& cp, const CoreLine& a, const CoreLine& b);

// The unit normal A -> B for cores that touch, where the separation defines
// no direction: +x for two point cores; for a segment core (or two parallel
// ones) the direction perpendicular to it nearest +x (then +y); for two
// non-parallel segments the common perpendicular, signed so that its first
// non-zero component of x, y, z is positive. Each choice is a direction in
// which the shapes separate after moving B by rA + rB.
Vec3 TouchingCoresNormal(const Vec3& axis_a, const Vec3& axis_b);

// Intersect needs no normal: one squared-distance comparison on the closest
// points (for two spheres, exactly |cb - ca|^2 <= (ra + rb)^2).
template <typename A, typename B>
bool RoundIntersect(const A& a, const B& b) {
  const double r = RadiusOf(a) + RadiusOf(b);
  const CoreClosest cp = Closest(CoreOf(a), CoreOf(b));
  return LengthSquared(cp.point_b - cp.point_a) <= r * r;
}

template <typename A, typename B>
PairResult RoundContact(const A& a, const B& b) {
  const auto ca = CoreOf(a);
  const auto cb = CoreOf(b);
  return ContactFromClosest(Closest(ca, cb), LineOf(ca), LineOf(cb), RadiusOf(a), RadiusOf(b));
}

template <typename A, typename B>
PairResult RoundDistance(const A& a, const B& b) {
  const auto ca = CoreOf(a);
  const auto cb = CoreOf(b);
  return DistanceFromClosest(Closest(ca, cb), LineOf(ca), LineOf(cb), RadiusOf(a), RadiusOf(b));
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_ROUND_ROUND_PAIR_H_
