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
#include <type_traits>

#include "collide/result.h"
#include "collide/shapes.h"
#include "query/closest/closest.h"
#include "query/closest/closest_segments.h"

namespace collide::internal {

// Views (references into the shape): with copies, GCC moves the capsule
// kernels' endpoints through the stack (~20 more instructions per pair). A
// view is also what the cold path (RobustCoreNormal) takes: one or two
// pointers in registers, where copies of the cores' values would have to be
// laid out in memory on the hot path for it.
struct PointCore {
  const Vec3& p;
};
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
// A point core's coordinates are read one by one: GCC moves a Vec3 copied as
// a whole through the stack.
inline Vec3 ValueOf(const Vec3& p) { return {p.x, p.y, p.z}; }
inline CoreClosest Closest(const PointCore& a, const PointCore& b) { return {ValueOf(a.p), ValueOf(b.p)}; }
inline CoreClosest Closest(const PointCore& a, const SegmentCore& b) {
  const PointOnSegment q = ClosestPointOnSegment(a.p, b.a, b.b);
  return {ValueOf(a.p), ValueOf(q.point), 0.0, q.t};
}
inline CoreClosest Closest(const SegmentCore& a, const PointCore& b) {
  const PointOnSegment q = ClosestPointOnSegment(b.p, a.a, a.b);
  return {ValueOf(q.point), ValueOf(b.p), q.t, 0.0};
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
// scaling, or the touching-cores rule. Out of line and cold, taking the cores
// (views, in registers) and recomputing their closest points by the same
// inline code (the same values): with the closest points and lines passed by
// value, GCC built those copies in memory on the hot path of every pair, and
// read its own values back from them (sphere-sphere: 20 stores and loads).
[[gnu::cold]] Vec3 RobustCoreNormal(PointCore a, PointCore b);
[[gnu::cold]] Vec3 RobustCoreNormal(PointCore a, SegmentCore b);
[[gnu::cold]] Vec3 RobustCoreNormal(SegmentCore a, PointCore b);
[[gnu::cold]] Vec3 RobustCoreNormal(SegmentCore a, SegmentCore b);

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
// inside", a branch that random capsule pairs mispredict. One straight path,
// the rare cases out of line: with a return per case GCC duplicates the
// result's construction.
//
// kSelectCase (two segment cores): the case "s, t inside" is not branched on
// either; the three directions are all formed and v picked by SSE2 masks.
// On random capsule pairs each case is common and a branch mispredicts about
// once per pair; the selects cost ~100 instructions more and pay at the
// distance level (no misprediction per pair on pair_bench's capsule pairs,
// against 1.4 with branches), not at the contact level, which keeps the
// branches. Same values: the rejection is from A's axis whenever s is inside (as in the parallel both-inside case), and
// NonParallel's test written as a comparison of the same products.
template <bool kSelectCase = false, typename CoreA, typename CoreB>
inline CoreSeparation SeparationOf(const CoreClosest& cp, const CoreA& core_a, const CoreB& core_b) {
  const CoreLine a = LineOf(core_a);
  const CoreLine b = LineOf(core_b);
  const Vec3 diff = cp.point_b - cp.point_a;
  const double d2 = LengthSquared(diff);
  const double d = SqrtNonNegative(d2);
  Vec3 v = diff;
  if constexpr (kSelectCase) {
    static_assert(std::is_same_v<CoreA, SegmentCore> && std::is_same_v<CoreB, SegmentCore>);
    // The branches' cases below, in the same order of precedence.
    const Choice s_in = Less(0.0, cp.s) & Less(cp.s, 1.0);
    const Choice t_in = Less(0.0, cp.t) & Less(cp.t, 1.0);
    const Vec3 axis = Select(s_in, a.axis, b.axis);
    const Vec3 rej = diff * Dot(axis, axis) - axis * Dot(diff, axis);
    const Vec3 n = Cross(a.axis, b.axis);
    const double k = Dot(b.start - a.start, n);
    const Vec3 skew = n * static_cast<double>((k > 0.0) - (k < 0.0));
    const Choice nonparallel =
        Less(kParallelSinSquared * Dot(a.axis, a.axis) * Dot(b.axis, b.axis), Dot(n, n));
    v = Select(s_in & t_in & nonparallel, skew, Select(s_in | t_in, rej, diff));
  } else {
    // A point core has s = 0 (t = 0), never inside.
    const bool s_inside = cp.s > 0.0 && cp.s < 1.0;
    const bool t_inside = cp.t > 0.0 && cp.t < 1.0;
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
  }
  const double v2 = LengthSquared(v);
  if (v2 >= std::numeric_limits<double>::min() && v2 <= std::numeric_limits<double>::max()) [[likely]] {
    const double inv = 1.0 / SqrtNonNegative(v2);
    return {d2, d, {v.x * inv, v.y * inv, v.z * inv}};
  }
  return {d2, d, RobustCoreNormal(core_a, core_b)};
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

// The kDistance result (result.h): the contact result when apart; when
// overlapping, one point in both shapes. Not DistanceFromContact: the
// midpoint of the deepest points can lie outside the smaller shape when one
// contains the other (a small sphere inside a large one: A's deepest point is
// A's far surface point). Here the point is on the core segment from A's
// closest core point to B's, within ra of the first and rb of the second:
// along the normal from A's core point, the offsets x in [d - rb, ra] are
// within both radii and [0, d] keeps the point between the cores; the
// intersection is non-empty because d <= ra + rb, and the point is at its
// midpoint k.
//
// kSelect: the two results are both computed and each field picked by hit
// with SSE2 masks, instead of a branch on hit. For the pairs with a solid
// shape (sphere, capsule), where hit goes either way on random pairs and a
// mispredicted branch costs more than the selects (0.5 fewer mispredictions
// per pair on pair_bench's sphere pairs). Two flat shapes (point,
// segment) meet only when touching: there the branch is always predicted and
// the selects would be extra work.
//
// stored_a, stored_b: where cp.point_a and cp.point_b are stored (two point
// cores: the shapes' own points), or null. With them, kSelect loads point_b's
// base (hit ? point_a : point_b) through a pointer picked by one cmov,
// instead of three mask selects (27 fewer instructions per pair).
template <bool kSelect>
PairResult DistanceFromSeparation(const CoreClosest& cp, const CoreSeparation& sep, double ra, double rb,
                                  const Vec3* stored_a = nullptr, const Vec3* stored_b = nullptr) {
  const double r = ra + rb;
  const double d = sep.d;
  if constexpr (kSelect) {
    const Choice hit = LessOrEqual(sep.d2, r * r);  // as RoundContactResult's hit.
    const double k = 0.5 * (MaxBranchFree(d - rb, 0.0) + MinBranchFree(d, ra));
    // point_a = point_a + n * (hit ? k : ra); point_b = hit ? point_a + n * k
    // : point_b + n * -rb, which is point_b - n * rb bit for bit (IEEE
    // subtraction is addition of the negation).
    const double ka = Select(hit, k, ra);
    const double kb = Select(hit, k, -rb);
    const Vec3& n = sep.normal;
    const Vec3& pa = cp.point_a;
    const Vec3& pb = cp.point_b;
    // A miss's distance as RoundContactResult's (min(d - r, inf) is d - r);
    // a hit's +0, as the normal's components (ZeroIf, not a multiplication
    // by 0, which would give -0 for negative components).
    const bool hit_bool = sep.d2 <= r * r;  // the same comparison as hit.
    Vec3 base_b;
    if (stored_a != nullptr) {  // known where inlined: one of the two forms.
      base_b = ValueOf(hit_bool ? *stored_a : *stored_b);
    } else {
      base_b = {Select(hit, pa.x, pb.x), Select(hit, pa.y, pb.y), Select(hit, pa.z, pb.z)};
    }
    return {QueryStatus::kOk,
            hit_bool,
            ZeroIf(hit, MaxBranchFree(d - r, std::numeric_limits<double>::denorm_min())),
            {pa.x + n.x * ka, pa.y + n.y * ka, pa.z + n.z * ka},
            {base_b.x + n.x * kb, base_b.y + n.y * kb, base_b.z + n.z * kb},
            {ZeroIf(hit, n.x), ZeroIf(hit, n.y), ZeroIf(hit, n.z)}};
  } else {
    if (!(sep.d2 <= r * r)) return RoundContactResult(cp, sep, ra, rb);
    const double k = 0.5 * (MaxBranchFree(d - rb, 0.0) + MinBranchFree(d, ra));
    PairResult out{QueryStatus::kOk, true, 0.0, {}, {}, {}};
    // Each coordinate written twice from a register: fewer instructions than
    // a point p copied twice (GCC stored it and copied it through memory).
    out.point_a.x = out.point_b.x = cp.point_a.x + sep.normal.x * k;
    out.point_a.y = out.point_b.y = cp.point_a.y + sep.normal.y * k;
    out.point_a.z = out.point_b.z = cp.point_a.z + sep.normal.z * k;
    return out;
  }
}

// The point of segment [a, b] closest to p as ClosestPointOnSegment gives it,
// with the parameter clamped by Clamp01 (maxsd/minsd) after an unconditional
// division instead of branches on the clamps before it: the same value (for
// den >= 0, Clamp01(num / den) is ClampedRatio(num, den), den = 0
// included), and no branch. For the intersect level: on random pairs the
// clamp goes either way, and its mispredictions would be half the kernel's
// time (sphere-capsule intersect 7.1 ns in pair_bench). Distance and contact
// keep the branches: their normal's "t inside" branch follows the clamps'
// outcome and is predicted from them; without them it mispredicts instead.
inline Vec3 ClosestPointOnSegmentByClamp(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 d = b - a;
  const double t = Clamp01(Dot(p - a, d) / Dot(d, d));
  return a + d * t;
}
// The cores' closest points for the intersect level (see above).
inline CoreClosest IntersectClosest(const PointCore& a, const SegmentCore& b) {
  return {ValueOf(a.p), ClosestPointOnSegmentByClamp(a.p, b.a, b.b)};
}
inline CoreClosest IntersectClosest(const SegmentCore& a, const PointCore& b) {
  return {ClosestPointOnSegmentByClamp(b.p, a.a, a.b), ValueOf(b.p)};
}
template <typename CoreA, typename CoreB>
CoreClosest IntersectClosest(const CoreA& a, const CoreB& b) {
  return Closest(a, b);
}

// Intersect needs no normal: one squared-distance comparison on the closest
// points (for two spheres, exactly |cb - ca|^2 <= (ra + rb)^2).
template <typename A, typename B>
bool RoundIntersect(const A& a, const B& b) {
  const double r = RadiusOf(a) + RadiusOf(b);
  const CoreClosest cp = IntersectClosest(CoreOf(a), CoreOf(b));
  return LengthSquared(cp.point_b - cp.point_a) <= r * r;
}

template <typename A, typename B>
PairResult RoundContact(const A& a, const B& b) {
  const auto ca = CoreOf(a);
  const auto cb = CoreOf(b);
  const CoreClosest cp = Closest(ca, cb);
  return RoundContactResult(cp, SeparationOf(cp, ca, cb), RadiusOf(a), RadiusOf(b));
}

// A point or a segment: no interior, radius 0.
template <typename S>
inline constexpr bool kFlat = std::is_same_v<S, Point> || std::is_same_v<S, Segment>;

template <typename A, typename B>
PairResult RoundDistance(const A& a, const B& b) {
  const auto ca = CoreOf(a);
  const auto cb = CoreOf(b);
  const CoreClosest cp = Closest(ca, cb);
  constexpr bool kSegments =
      std::is_same_v<decltype(ca), const SegmentCore> && std::is_same_v<decltype(cb), const SegmentCore>;
  // Two point cores: their closest points are the shapes' own points, in
  // memory (see DistanceFromSeparation).
  const Vec3* stored_a = nullptr;
  const Vec3* stored_b = nullptr;
  if constexpr (std::is_same_v<decltype(ca), const PointCore> &&
                std::is_same_v<decltype(cb), const PointCore>) {
    stored_a = &ca.p;
    stored_b = &cb.p;
  }
  return DistanceFromSeparation<!(kFlat<A> && kFlat<B>)>(cp, SeparationOf<kSegments>(cp, ca, cb), RadiusOf(a),
                                                         RadiusOf(b), stored_a, stored_b);
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_ROUND_ROUND_PAIR_H_
