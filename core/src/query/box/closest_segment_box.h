// Closest points and signed contact between a segment and a box, in the box's
// own frame (bounds lo <= x <= hi, as in closest_point_box.h). Shared by the
// segment, capsule and box-box kernels.
#ifndef COLLIDE_CORE_SRC_QUERY_BOX_CLOSEST_SEGMENT_BOX_H_
#define COLLIDE_CORE_SRC_QUERY_BOX_CLOSEST_SEGMENT_BOX_H_

#include <cmath>
#include <limits>

#include "collide/math.h"
#include "query/box/closest_point_box.h"
#include "query/closest/closest.h"
#include "query/closest/closest_segments.h"
#include "query/raycast/slab.h"

namespace collide::internal {

struct SegmentBoxClosest {
  double distance_squared;
  double t;         // on_segment = a + t * (b - a), t in [0, 1].
  Vec3 on_segment;  // a closest point of the segment.
  Vec3 on_box;      // the box point closest to on_segment.
};

// Exact closest points of the segment [a, b] and the box. The squared
// distance from a + t d to the box, f(t) = sum_i (x_i - clamp(x_i))^2, is
// convex and C1 with a piecewise-linear, non-decreasing derivative whose
// breakpoints are the (at most six) t where the segment crosses a slab plane.
// Bracket the zero of f' between neighbouring breakpoints, then solve the
// quadratic of the axes outside their slab there in closed form.
// `known_apart`: the caller knows the segment misses the box (box-box
// distance), which skips the clip below.
inline SegmentBoxClosest ClosestSegmentBoxFrame(const Vec3& a_in, const Vec3& b_in, const Vec3& lo_in,
                                                const Vec3& hi_in, bool known_apart = false) {
  // Arrays: Vec3::operator[] with a run-time index is a chain of selects.
  const double a[3] = {a_in.x, a_in.y, a_in.z};
  const double d[3] = {b_in.x - a_in.x, b_in.y - a_in.y, b_in.z - a_in.z};
  const double lo[3] = {lo_in.x, lo_in.y, lo_in.z};
  const double hi[3] = {hi_in.x, hi_in.y, hi_in.z};
  // f'(t) / 2.
  const auto slope = [&](double t) {
    double s = 0.0;
    for (int i = 0; i < 3; ++i) {
      const double x = a[i] + t * d[i];
      s += d[i] * (x - Clamp(x, lo[i], hi[i]));
    }
    return s;
  };
  double t;
  if (slope(0.0) >= 0.0) {
    t = 0.0;
  } else if (slope(1.0) <= 0.0) {
    t = 1.0;
  } else {
    // The minimum is interior. If the segment meets the box, f is zero on
    // the clipped interval; its middle is in the box, whereas the bracket
    // below would land on a boundary where round-off leaves a tiny f > 0. The
    // clip also makes this agree exactly with the slab intersect test.
    if (!known_apart) {
      const SlabClip clip = ClipLineToBox(a_in, b_in - a_in, lo_in, hi_in, 0.0, 1.0);
      if (clip.hit) {
        const double tm = 0.5 * (clip.t_enter + clip.t_exit);
        const Vec3 p = a_in + (b_in - a_in) * tm;
        return {0.0, tm, p, Clamp(p, lo_in, hi_in)};
      }
    }
    // f' is monotone, so every breakpoint with f' <= 0 lies left of the zero.
    double tl = 0.0, tr = 1.0;
    for (int i = 0; i < 3; ++i) {
      if (d[i] == 0.0) continue;
      const double inv = 1.0 / d[i];
      for (const double bound : {lo[i], hi[i]}) {
        const double tb = (bound - a[i]) * inv;
        if (tb > tl && tb < tr) (slope(tb) <= 0.0 ? tl : tr) = tb;
      }
    }
    // No breakpoint inside (tl, tr): the set of axes outside their slab is
    // constant there; read it at the midpoint and minimize its quadratic.
    const double tm = 0.5 * (tl + tr);
    double num = 0.0, den = 0.0;
    for (int i = 0; i < 3; ++i) {
      const double x = a[i] + tm * d[i];
      const double bound = x < lo[i] ? lo[i] : (x > hi[i] ? hi[i] : x);
      if (bound != x) {
        num += d[i] * (bound - a[i]);
        den += d[i] * d[i];
      }
    }
    // den == 0: the segment is inside the box on the whole bracket.
    t = den > 0.0 ? Clamp(num / den, tl, tr) : tm;
  }
  const Vec3 on_segment = a_in + (b_in - a_in) * t;
  const Vec3 on_box = Clamp(on_segment, lo_in, hi_in);
  return {LengthSquared(on_box - on_segment), t, on_segment, on_box};
}

// The point of the segment [a, b] (shape A) on the contact with the box
// (shape B) when the segment is perpendicular to the unit normal (A towards
// B), so that a whole set of pairs are witnesses: p on the segment with
// p - depth * normal on the box (depth > 0 overlapping, < 0 the gap apart).
// Moving the box by depth * normal brings its support feature along -normal
// onto the segment, and the rule is the middle of that contact: for a face,
// the middle of the segment clipped by the face's four side planes (Box2D-
// style reference-face clipping); for an edge, the middle of the overlap of
// the parallel edge and segment (ClosestPointsSegments); for a vertex, the
// vertex.
inline Vec3 ParallelSegmentBoxPoint(const Vec3& a, const Vec3& b, const Vec3& lo, const Vec3& hi,
                                    const Vec3& normal, double depth) {
  const BoxFeature f = SupportFeature(-normal, lo, hi);
  const Vec3 shift = normal * depth;
  if (f.free_count == 2) {
    Vec3 side_lo = lo, side_hi = hi;
    side_lo[f.fixed] = -kInfinity;
    side_hi[f.fixed] = kInfinity;
    const SlabClip c = ClipLineToBox(a, b - a, side_lo, side_hi, 0.0, 1.0);
    if (c.hit) return a + (b - a) * (0.5 * (c.t_enter + c.t_exit));
    // Round-off hid an overlap of zero width: the segment point nearest the face.
    return ClosestSegmentBoxFrame(a - shift, b - shift, lo, hi).on_segment + shift;
  }
  if (f.free_count == 1) {
    const int k = f.free[0];
    Vec3 e0 = f.centre + shift, e1 = e0;
    e0[k] = lo[k] + shift[k];
    e1[k] = hi[k] + shift[k];
    return ClosestPointsSegments(a, b, e0, e1).point1;
  }
  return ClosestPointOnSegment(f.centre + shift, a, b).point;
}

// Whether the segment [a, b] (non-zero) is perpendicular to the unit normal
// within the tolerance of SupportFeature.
inline bool PerpendicularSegment(const Vec3& a, const Vec3& b, const Vec3& normal) {
  const Vec3 d = b - a;
  const double along = Dot(normal, d);
  return along * along <= kParallelFeatureTol * kParallelFeatureTol * LengthSquared(d);
}

// The deepest point of the segment [a, b] (shape A) in an overlapping box
// (shape B) along the least-overlap unit normal (A towards B) with
// penetration `depth`: a point p of the segment farthest along the normal
// with p - depth * normal on the box. Such a pair exists: the origin's
// projection on the nearest face of the Minkowski difference lies in that
// face, the segment's support feature minus the box's. Its farther endpoint,
// or ParallelSegmentBoxPoint's rule when the segment is perpendicular to the
// normal. Read from the normal alone, not from the axis that won the SAT: an
// edge axis e_i x (b - a) of a segment parallel to a face equals that face's
// axis and may win it by an ulp.
inline Vec3 DeepestSegmentPoint(const Vec3& a, const Vec3& b, const Vec3& lo, const Vec3& hi,
                                const Vec3& normal, double depth) {
  if (a == b) return a;
  if (PerpendicularSegment(a, b, normal)) return ParallelSegmentBoxPoint(a, b, lo, hi, normal, depth);
  return Dot(normal, b - a) > 0.0 ? b : a;
}

// ClosestSegmentBoxFrame, with ParallelSegmentBoxPoint's rule when the
// closest points apart are not unique: the segment parallel to the box's
// nearest face, or to its nearest edge. (Otherwise they are: at an endpoint,
// or where a skew segment passes an edge or vertex.) Shared by the distance
// and contact levels so that both report the same pair.
inline SegmentBoxClosest ClosestSegmentBoxPair(const Vec3& a, const Vec3& b, const Vec3& lo, const Vec3& hi) {
  SegmentBoxClosest c = ClosestSegmentBoxFrame(a, b, lo, hi);
  if (c.distance_squared == 0.0 || a == b) return c;
  // on_box clamps on_segment, so the gap is exactly zero along the axes
  // where on_segment is inside the slab: one non-zero component means a
  // face, two an edge along the third axis, three a vertex (unique). Only
  // a segment parallel to that face or edge goes on (no square root on the
  // common path).
  const Vec3 gap = c.on_box - c.on_segment, d = b - a;
  const double tol2 = kParallelFeatureTol * kParallelFeatureTol * LengthSquared(d);
  const int nonzero = (gap.x != 0.0) + (gap.y != 0.0) + (gap.z != 0.0);
  if (nonzero == 1) {
    const double dk = gap.x != 0.0 ? d.x : (gap.y != 0.0 ? d.y : d.z);
    if (dk * dk > tol2) return c;
  } else if (nonzero == 2) {
    const double dk = gap.x == 0.0 ? d.x : (gap.y == 0.0 ? d.y : d.z);
    if (LengthSquared(d) - dk * dk > tol2) return c;
  } else {
    return c;
  }
  const LengthAndUnit g = LengthAndUnitOf(gap, c.distance_squared);
  if (!PerpendicularSegment(a, b, g.unit)) return c;
  const BoxFeature f = SupportFeature(-g.unit, lo, hi);
  if (f.free_count == 1) {
    // Parallel to the edge: no component off the edge's axis.
    const Vec3 off = Cross(d, Axis(f.free[0], 1.0));
    if (LengthSquared(off) > kParallelFeatureTol * kParallelFeatureTol * LengthSquared(d)) return c;
  } else if (f.free_count != 2) {
    return c;
  }
  // The box point: the segment point projected on the feature (its fixed
  // coordinates set), so that the pair is exactly perpendicular to it.
  c.on_segment = ParallelSegmentBoxPoint(a, b, lo, hi, g.unit, -g.length);
  c.t = Dot(c.on_segment - a, b - a) / LengthSquared(b - a);
  c.on_box = Clamp(c.on_segment, lo, hi);
  for (int k = 0; k < 3; ++k) {
    if (k != f.free[0] && (f.free_count == 1 || k != f.free[1])) c.on_box[k] = f.centre[k];
  }
  c.distance_squared = LengthSquared(c.on_box - c.on_segment);
  return c;
}

struct SegmentBoxContact {
  double distance;  // signed, as PointBoxContact::distance.
  Vec3 normal;      // unit, box frame, from the segment towards the box.
  Vec3 on_segment;  // apart: closest; overlapping: the segment point deepest in the box.
  Vec3 on_box;      // apart: closest; overlapping: on_segment + distance * normal.
};

// Signed contact of the segment [a, b] (shape A) and the box (shape B).
// Overlapping, the penetration depth is exact by the separating-axis test:
// the Minkowski difference of a box and a segment is a polytope whose face
// normals are the box axes e_i and the cross products e_i x (b - a), so the
// least overlap over those (at most) six axes is the depth. `to_world` maps
// box-frame directions to world for the tie-break between equal depths.
inline SegmentBoxContact ContactSegmentBoxFrame(const Vec3& a, const Vec3& b, const Vec3& lo, const Vec3& hi,
                                                const Mat3& to_world) {
  const SegmentBoxClosest c = ClosestSegmentBoxPair(a, b, lo, hi);
  if (c.distance_squared > 0.0) {
    const LengthAndUnit g = LengthAndUnitOf(c.on_box - c.on_segment, c.distance_squared);
    return {g.length, g.unit, c.on_segment, c.on_box};
  }
  const Vec3 d = b - a;
  const double d_len2 = LengthSquared(d);
  double best = kInfinity;
  Vec3 normal{1, 0, 0};
  Vec3 best_world{};
  const auto consider = [&](double depth, const Vec3& n) {
    const Vec3 w = to_world * n;
    if (depth < best || (depth == best && PreferredNormal(w, best_world))) {
      best = depth;
      normal = n;
      best_world = w;
    }
  };
  for (int i = 0; i < 3; ++i) {
    // Moving the box by +e_i separates after max_seg - lo_i, by -e_i after hi_i - min_seg.
    const double smin = a[i] < b[i] ? a[i] : b[i];
    const double smax = a[i] < b[i] ? b[i] : a[i];
    consider(smax - lo[i], Axis(i, 1.0));
    consider(hi[i] - smin, Axis(i, -1.0));
  }
  const Vec3 center = (lo + hi) * 0.5;
  const Vec3 half = (hi - lo) * 0.5;
  for (int i = 0; i < 3; ++i) {
    const Vec3 l = Cross(Axis(i, 1.0), d);
    const double len2 = LengthSquared(l);
    // Skip a cross product that vanishes (segment parallel to e_i, or a
    // point): its face of the Minkowski difference is empty or the e_j one.
    if (!(len2 > 1e-16 * d_len2)) continue;
    const Vec3 n = UnitOf(l, len2);  // len2 may be subnormal (a segment ~1e-160 long).
    const double sp = Dot(a, n);
    const double cp = Dot(center, n);
    const double rb = Dot(half, Abs(n));
    consider(sp - cp + rb, n);
    consider(cp + rb - sp, -n);
  }
  const Vec3 on_segment = DeepestSegmentPoint(a, b, lo, hi, normal, best);
  return {-best, normal, on_segment, on_segment - normal * best};
}

// kDistance result of a capsule (segment [a, b] swept by radius >= 0; the
// segment itself when 0) as A and the box as B, in the box frame.
inline PairResult DistanceCapsuleBoxFrame(const Vec3& a, const Vec3& b, double radius, const Vec3& lo,
                                          const Vec3& hi) {
  const SegmentBoxClosest c = ClosestSegmentBoxPair(a, b, lo, hi);
  // on_box is in the box and within the radius of the segment.
  // d2 can exceed radius^2 by an ulp while sqrt(d2) - radius rounds to 0:
  // decide on d too, so that hit == (distance <= 0).
  const double d = std::sqrt(c.distance_squared);
  if (c.distance_squared <= radius * radius || d <= radius) {
    return {QueryStatus::kOk, true, 0.0, c.on_box, c.on_box, {}};
  }
  const Vec3 n = LengthAndUnitOf(c.on_box - c.on_segment, c.distance_squared).unit;
  return {QueryStatus::kOk, false, d - radius, c.on_segment + n * radius, c.on_box, n};
}

// kContact result of a capsule as A and the box as B, in the box frame: the
// segment's signed contact moved out by the radius.
inline PairResult ContactCapsuleBoxFrame(const Vec3& a, const Vec3& b, double radius, const Vec3& lo,
                                         const Vec3& hi, const Mat3& to_world) {
  const SegmentBoxContact k = ContactSegmentBoxFrame(a, b, lo, hi, to_world);
  const double dist = k.distance - radius;
  return {QueryStatus::kOk, dist <= 0.0, dist, k.on_segment + k.normal * radius, k.on_box, k.normal};
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_BOX_CLOSEST_SEGMENT_BOX_H_
