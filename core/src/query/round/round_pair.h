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

#include <cmath>
#include <limits>

#include "collide/result.h"
#include "collide/shapes.h"
#include "query/closest/closest.h"
#include "query/closest/closest_segments.h"

namespace collide::internal {

struct PointCore {
  Vec3 p;
};
// A view (references into the shape): with copies, GCC moved the capsule
// kernels' endpoints through the stack (~20 more instructions per pair).
struct SegmentCore {
  const Vec3& a;
  const Vec3& b;
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
  const SegmentPoints cp = ClosestPointsSegmentsInline(a.a, a.b, b.a, b.b);
  return {cp.point1, cp.point2, cp.s, cp.t};
}

// The unit normal A -> B for cores that touch, where the separation defines
// no direction: +x for two point cores; for a segment core (or two parallel
// ones) the direction perpendicular to it nearest +x (then +y); for two
// non-parallel segments the common perpendicular, signed so that its first
// non-zero component of x, y, z is positive. Each choice is a direction in
// which the shapes separate after moving B by rA + rB. Out of line for
// segment cores: only touching cores (a measure-zero set of pairs) need it.
[[gnu::cold]] Vec3 TouchingSegmentCoresNormal(Vec3 axis_a, Vec3 axis_b);
// Inline for two point cores, whose zero axes are known where the kernel is
// compiled: the sphere-sphere kernels keep no call and no stack frame for it.
inline Vec3 TouchingCoresNormal(const Vec3& axis_a, const Vec3& axis_b) {
  if (axis_a == Vec3{} && axis_b == Vec3{}) return {1.0, 0.0, 0.0};
  return TouchingSegmentCoresNormal(axis_a, axis_b);
}

// The helpers below are inline so that each pair kernel compiles them for its
// own cores: with a point core the parameter s (or t) is the constant 0, and
// the segment-interior corrections and their tests fold away, leaving the
// sphere-sphere kernel one difference, one square root and one reciprocal.

// Removes from v its component along the non-zero axis d (one Gram-Schmidt
// step). Used where v must be perpendicular to d (the closest point lies in
// the interior of segment d, so v . d = 0 exactly in exact arithmetic).
inline Vec3 RejectFrom(const Vec3& v, const Vec3& d) { return v - d * (Dot(v, d) / Dot(d, d)); }

// n = d1 x d2 is long enough for the directions to count as non-parallel.
inline bool NonParallel(const Vec3& d1, const Vec3& d2, const Vec3& n) {
  return Dot(n, n) > kParallelSinSquared * Dot(d1, d1) * Dot(d2, d2);
}

// The cores' separation: d2 = |point_b - point_a|^2, its length d and the
// unit normal A -> B.
struct CoreSeparation {
  double d2 = 0.0;
  double d = 0.0;
  Vec3 normal;
};

// The unit normal A -> B when SeparationOf's fast path does not apply (a
// squared length outside the normal doubles, touching cores): point_b -
// point_a corrected as SeparationOf describes, normalized by largest-component
// scaling, or the touching-cores rule. Out of line and cold, taking copies,
// so that the hot path keeps its values in registers.
[[gnu::cold]] Vec3 RobustCoreNormal(CoreClosest cp, CoreLine a, CoreLine b);

// The separation of the cores' closest points. The normal is point_b -
// point_a with its round-off corrected so that it lies in the normal cone of
// the cores' Minkowski difference: perpendicular to a segment whose interior
// holds the closest point, along the common perpendicular when both do. Its
// direction is then a valid separating direction even when its length is at
// round-off level. When the cores touch, the touching-cores rule.
//
// The direction is formed without a division (any positive multiple will
// do) and normalized by one square root and one reciprocal; with no
// correction v = diff and v2 = d2, so the square root is the distance's own
// (for sphere-sphere, where s = t = 0 fold the corrections away, the same
// instruction). Taken unconditionally rather than picked by "s or t
// inside", a branch mispredicted on random capsule pairs (capsule-capsule
// contact 66 -> 63 ns). One straight path, the rare cases out of line: with
// a return per case GCC duplicated the result's construction (the
// capsule-capsule distance kernel was twice the size).
inline CoreSeparation SeparationOf(const CoreClosest& cp, const CoreLine& a, const CoreLine& b) {
  const Vec3 diff = cp.point_b - cp.point_a;
  const double d2 = LengthSquared(diff);
  const double d = SqrtNonNegative(d2);
  // A point core has s = 0 (t = 0), never inside.
  const bool s_inside = cp.s > 0.0 && cp.s < 1.0;
  const bool t_inside = cp.t > 0.0 && cp.t < 1.0;
  Vec3 v = diff;
  if (s_inside && t_inside) {
    // Skew: the common perpendicular n, signed by k = (b.start - a.start) . n
    // (the projection k n / |n|^2 of the offset on it is exactly
    // perpendicular to both segments); zero when the cores touch (k = 0).
    const Vec3 n = Cross(a.axis, b.axis);
    if (NonParallel(a.axis, b.axis, n)) {
      const double k = Dot(b.start - a.start, n);
      v = n * static_cast<double>((k > 0.0) - (k < 0.0));
    } else {
      v = diff * Dot(a.axis, a.axis) - a.axis * Dot(diff, a.axis);
    }
  } else if (s_inside || t_inside) {
    // |axis|^2 times the rejection of diff from the axis.
    const Vec3& axis = s_inside ? a.axis : b.axis;
    v = diff * Dot(axis, axis) - axis * Dot(diff, axis);
  }
  const double v2 = LengthSquared(v);
  if (v2 >= std::numeric_limits<double>::min() && v2 <= std::numeric_limits<double>::max()) [[likely]] {
    const double inv = 1.0 / SqrtNonNegative(v2);
    return {d2, d, {v.x * inv, v.y * inv, v.z * inv}};
  }
  return {d2, d, RobustCoreNormal(cp, a, b)};
}

// The kContact result (result.h) from the cores' closest points, their
// separation and the radii. The distance and hit come from |point_b -
// point_a| (hit exactly as in RoundIntersect, so all levels agree).
inline PairResult RoundContactResult(const CoreClosest& cp, const CoreSeparation& sep, double ra, double rb) {
  const Vec3& normal = sep.normal;
  const double r = ra + rb;
  const bool hit = sep.d2 <= r * r;
  // sqrt(d2) - r and d2 - r*r can disagree in sign within an ulp of
  // touching; hit is decided by the squared test (as at the intersect
  // level) and the distance follows it, so hit == (distance <= 0) holds:
  // clamped to at most 0 on a hit, at least the smallest positive double on
  // a miss. The bounds are looked up by hit rather than branched on: hit is
  // unpredictable on random pairs.
  static constexpr double kUpper[2] = {std::numeric_limits<double>::infinity(), 0.0};
  static constexpr double kLower[2] = {std::numeric_limits<double>::denorm_min(),
                                       -std::numeric_limits<double>::infinity()};
  const double distance = Max(Min(sep.d - r, kUpper[hit]), kLower[hit]);
  // Apart: the surface points facing each other. Overlapping: the deepest
  // points, A's surface point along +normal and B's along -normal, so that
  // point_b - point_a = (d - ra - rb) * normal = distance * normal.
  return {QueryStatus::kOk, hit, distance, cp.point_a + normal * ra, cp.point_b - normal * rb, normal};
}

// The kContact result (result.h) of two round shapes from their cores'
// closest points, the cores and the radii.
inline PairResult ContactFromClosest(const CoreClosest& cp, const CoreLine& a, const CoreLine& b, double ra,
                                     double rb) {
  return RoundContactResult(cp, SeparationOf(cp, a, b), ra, rb);
}

// The kDistance result (result.h): the contact result when apart; when
// overlapping, one point in both shapes. Not DistanceFromContact: the
// midpoint of the deepest points can lie outside the smaller shape when one
// contains the other (a small sphere inside a large one: A's deepest point is
// A's far surface point). Here the point is on the core segment from A's
// closest core point to B's, within ra of the first and rb of the second.
inline PairResult DistanceFromClosest(const CoreClosest& cp, const CoreLine& a, const CoreLine& b, double ra,
                                      double rb) {
  const CoreSeparation sep = SeparationOf(cp, a, b);
  const double r = ra + rb;
  if (!(sep.d2 <= r * r)) return RoundContactResult(cp, sep, ra, rb);
  // Along the normal from A's core point, the offsets x in [d - rb, ra] are
  // within both radii; [0, d] keeps the point between the cores. The
  // intersection is non-empty because d <= ra + rb; take its midpoint.
  const double d = sep.d;
  const double k = 0.5 * (MaxsdOf(d - rb, 0.0) + MinsdOf(d, ra));
  PairResult out{QueryStatus::kOk, true, 0.0, {}, {}, {}};
  // Each coordinate written twice from a register: fewer instructions than
  // a point p copied twice (GCC stored it and copied it through memory).
  out.point_a.x = out.point_b.x = cp.point_a.x + sep.normal.x * k;
  out.point_a.y = out.point_b.y = cp.point_a.y + sep.normal.y * k;
  out.point_a.z = out.point_b.z = cp.point_a.z + sep.normal.z * k;
  return out;
}

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
