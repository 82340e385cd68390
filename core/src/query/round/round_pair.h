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

// The closest points of two cores and the separation between them.
struct CoreSeparation {
  Vec3 point_a;  // on A's core.
  Vec3 point_b;  // on B's core.
  // point_b - point_a, with its round-off corrected so that it lies in the
  // normal cone of the cores' Minkowski difference: perpendicular to a
  // segment whose interior holds the closest point, along the common
  // perpendicular when both do. Its direction is then a valid separating
  // direction even when |v| is at round-off level. Zero iff the cores touch.
  Vec3 v;
  Vec3 axis_a;  // b - a of a segment core, zero for a point core.
  Vec3 axis_b;
};

inline CoreSeparation Separate(const PointCore& a, const PointCore& b) {
  return {a.p, b.p, b.p - a.p, {}, {}};
}
CoreSeparation Separate(const PointCore& a, const SegmentCore& b);
inline CoreSeparation Separate(const SegmentCore& a, const PointCore& b) {
  const CoreSeparation s = Separate(b, a);
  return {s.point_b, s.point_a, -s.v, s.axis_b, s.axis_a};
}
CoreSeparation Separate(const SegmentCore& a, const SegmentCore& b);

// The kContact result of two round shapes from their cores' separation and
// radii (see result.h). hit is decided by |v|^2 <= (ra + rb)^2 exactly as in
// RoundIntersect, so all three levels agree on hit.
PairResult ContactFromSeparation(const CoreSeparation& sep, double ra, double rb);

// The kDistance result (result.h): the contact result when apart; when
// overlapping, one point in both shapes. Not DistanceFromContact: the
// midpoint of the deepest points can lie outside the smaller shape when one
// contains the other (a small sphere inside a large one: A's deepest point is
// A's far surface point). Here the point is on the core segment from A's
// closest core point to B's, within ra of the first and rb of the second.
PairResult DistanceFromSeparation(const CoreSeparation& sep, double ra, double rb);

// The unit normal A -> B for cores that touch (v == 0), where the direction
// is not defined by the separation: +x for two point cores; for a segment
// core (or two parallel ones) the direction perpendicular to it nearest +x
// (then +y); for two non-parallel segments the common perpendicular, signed
// so that its first non-zero component of x, y, z is positive. Each choice
// is a direction in which the shapes separate after moving by rA + rB.
Vec3 TouchingCoresNormal(const Vec3& axis_a, const Vec3& axis_b);

template <typename A, typename B>
bool RoundIntersect(const A& a, const B& b) {
  const double r = RadiusOf(a) + RadiusOf(b);
  return LengthSquared(Separate(CoreOf(a), CoreOf(b)).v) <= r * r;
}

template <typename A, typename B>
PairResult RoundContact(const A& a, const B& b) {
  return ContactFromSeparation(Separate(CoreOf(a), CoreOf(b)), RadiusOf(a), RadiusOf(b));
}

template <typename A, typename B>
PairResult RoundDistance(const A& a, const B& b) {
  return DistanceFromSeparation(Separate(CoreOf(a), CoreOf(b)), RadiusOf(a), RadiusOf(b));
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_ROUND_ROUND_PAIR_H_
