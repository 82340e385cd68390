#include "query/box/closest_triangle_box.h"

#include <limits>

#include "query/box/closest_point_box.h"
#include "query/box/closest_segment_box.h"
#include "query/closest/closest.h"
#include "query/closest/closest_segments.h"
#include "query/closest/closest_triangle.h"
#include "query/raycast/slab.h"

namespace collide::internal {
namespace {

// The gap between the intervals [a0, a1] and [b0, b1], 0 if they meet.
double IntervalGap(double a0, double a1, double b0, double b1) {
  return a0 > b1 ? a0 - b1 : (b0 > a1 ? b0 - a1 : 0.0);
}

// Box vertex n: coordinate k at hi_k when bit k of n is set, else at lo_k.
Vec3 BoxVertex(const TriangleBox& f, int n) {
  return {(n & 1) ? f.hi.x : f.lo.x, (n & 2) ? f.hi.y : f.lo.y, (n & 4) ? f.hi.z : f.lo.z};
}

// A point where an edge of the box crosses the triangle's plane, nearest the
// triangle (a box edge piercing it), as a pair of points within that
// distance of each other: the crossing and its nearest triangle point.
// Shapes that meet while every triangle edge misses the box are pierced so.
TriangleBoxClosest PiercingPair(const TriangleBox& f) {
  TriangleBoxClosest best{kInfinity, {}, {}};
  const Vec3 n = Cross(f.v[1] - f.v[0], f.v[2] - f.v[0]);
  for (int m = 0; m < 8; ++m) {
    for (int k = 0; k < 3; ++k) {
      if ((m >> k) & 1) continue;
      const Vec3 p = BoxVertex(f, m), q = BoxVertex(f, m | (1 << k));
      const double dp = Dot(n, p - f.v[0]), dq = Dot(n, q - f.v[0]);
      if ((dp > 0.0 && dq > 0.0) || (dp < 0.0 && dq < 0.0) || dp == dq) continue;
      const Vec3 x = p + (q - p) * Clamp(dp / (dp - dq), 0.0, 1.0);
      const std::optional<TriangleClosestPoint> c = ClosestPointOnTriangle(x, f.v[0], f.v[1], f.v[2]);
      if (!c) return best;
      const double d2 = LengthSquared(c->offset);
      if (d2 < best.distance_squared) best = {d2, x + c->offset, x};
    }
  }
  return best;
}

// The kDistance/kContact result of shapes apart with closest points c.
PairResult ApartResult(const TriangleBoxClosest& c) {
  const double d = std::sqrt(c.distance_squared);
  // The separating-axis test decided "apart" by a few ulps where the
  // closest points coincide: the smallest positive distance keeps hit ==
  // (distance <= 0) with the test's decision, as ApartResult of box-box.
  return {QueryStatus::kOk, false,    d > 0.0 ? d : std::numeric_limits<double>::denorm_min(),
          c.on_triangle,    c.on_box, NormalizedOr(c.on_box - c.on_triangle, Vec3{1, 0, 0})};
}

}  // namespace

TriangleBoxClosest ClosestTriangleBox(const TriangleBox& f, bool known_apart) {
  const Vec3* v = f.v;
  // The vertices against the box first: exact, a few instructions each, and
  // often the answer.
  TriangleBoxClosest best{kInfinity, {}, {}};
  int vertex = 0;
  for (int m = 0; m < 3; ++m) {
    const Vec3 q = Clamp(v[m], f.lo, f.hi);
    const double d2 = LengthSquared(q - v[m]);
    if (d2 < best.distance_squared) best = {d2, v[m], q}, vertex = m;
  }
  // Certified by mutual projection (convex sets: p and q are closest
  // points when q is the box's point nearest p and p the triangle's nearest
  // q): q clamps p, and p is the triangle's point nearest q when q - p
  // makes an obtuse angle with both edges leaving p. Measured on the bench
  // pairs apart: two in five.
  if (best.distance_squared > 0.0) {
    const Vec3 &p = v[vertex], g = best.on_box - p;
    if (Dot(g, v[(vertex + 1) % 3] - p) <= 0.0 && Dot(g, v[(vertex + 2) % 3] - p) <= 0.0) return best;
  }
  // Branch-free minima and maxima, as in triangle_box_sat.cc.
  Vec3 tmin, tmax;
  for (int k = 0; k < 3; ++k) {
    tmin[k] = MinBranchFree(MinBranchFree(v[0][k], v[1][k]), v[2][k]);
    tmax[k] = MaxBranchFree(MaxBranchFree(v[0][k], v[1][k]), v[2][k]);
  }
  // Candidates 0..2: the triangle's edges v[m] v[m + 1]; 3 + n: box vertex
  // n. An edge whose bound reaches the best vertex's distance (a vertex
  // facing the box) is never evaluated.
  struct Candidate {
    double lower_bound_squared;
    int index;
  };
  Candidate cand[11];
  int count = 0;
  for (int m = 0; m < 3; ++m) {
    const Vec3 &p = v[m], &q = v[(m + 1) % 3];
    double lb = 0.0;
    for (int k = 0; k < 3; ++k) {
      const double g = IntervalGap(MinBranchFree(p[k], q[k]), MaxBranchFree(p[k], q[k]), f.lo[k], f.hi[k]);
      lb += g * g;
    }
    cand[count++] = {lb, m};
  }
  for (int n = 0; n < 8; ++n) {
    bool reaches = true;
    double lb = 0.0;
    for (int k = 0; k < 3; ++k) {
      const bool high = (n >> k) & 1;
      reaches &= high ? tmax[k] >= f.hi[k] : tmin[k] <= f.lo[k];
      const double x = high ? f.hi[k] : f.lo[k];
      const double g = IntervalGap(x, x, tmin[k], tmax[k]);
      lb += g * g;
    }
    if (reaches) cand[count++] = {lb, 3 + n};
  }
  for (;;) {
    int pick = -1;
    for (int m = 0; m < count; ++m) {
      if (pick < 0 || cand[m].lower_bound_squared < cand[pick].lower_bound_squared) pick = m;
    }
    if (pick < 0 || cand[pick].lower_bound_squared >= best.distance_squared) break;
    const int index = cand[pick].index;
    cand[pick] = cand[--count];
    if (index < 3) {
      const SegmentBoxClosest c =
          ClosestSegmentBoxFrame(v[index], v[(index + 1) % 3], f.lo, f.hi, known_apart);
      if (c.distance_squared < best.distance_squared) best = {c.distance_squared, c.on_segment, c.on_box};
    } else {
      const Vec3 q = BoxVertex(f, index - 3);
      // nullopt: a degenerate triangle, whose edges cover it.
      const std::optional<TriangleClosestPoint> c = ClosestPointOnTriangle(q, v[0], v[1], v[2]);
      if (!c) continue;
      const double d2 = LengthSquared(c->offset);
      if (d2 < best.distance_squared) best = {d2, q + c->offset, q};
    }
  }
  return best;
}

bool IntersectTriangleBoxFrame(const TriangleBox& f) { return !SeparatedTriangleBox(f); }

PairResult DistanceTriangleBoxFrame(const TriangleBox& f) {
  if (SeparatedTriangleBox(f)) return ApartResult(ClosestTriangleBox(f, /*known_apart=*/true));
  // A point in both shapes: a triangle edge's part in the box (its middle),
  // else where a box edge pierces the triangle, else (touching, round-off)
  // the middle of a closest pair.
  for (int m = 0; m < 3; ++m) {
    const Vec3 &a = f.v[m], d = f.v[(m + 1) % 3] - a;
    const SlabClip c = ClipLineToBox(a, d, f.lo, f.hi, 0.0, 1.0);
    if (c.hit) {
      const Vec3 p = Clamp(a + d * (0.5 * (c.t_enter + c.t_exit)), f.lo, f.hi);
      return {QueryStatus::kOk, true, 0.0, p, p, {}};
    }
  }
  TriangleBoxClosest c = PiercingPair(f);
  if (c.distance_squared > 0.0) {
    const TriangleBoxClosest near = ClosestTriangleBox(f, /*known_apart=*/false);
    if (near.distance_squared < c.distance_squared) c = near;
  }
  const Vec3 p = (c.on_triangle + c.on_box) * 0.5;
  return {QueryStatus::kOk, true, 0.0, p, p, {}};
}

TriangleBoxClosest TouchingWitnesses(const TriangleBox& f, int axis, const Vec3& normal, const Vec3& shift) {
  const auto result = [](const Vec3& on_triangle, const Vec3& on_box) {
    return TriangleBoxClosest{0.0, on_triangle, on_box};
  };
  // The witnesses of a face axis, read off the support features when the
  // Minkowski argument's face-vertex pair is there (each check exact):
  // a box face against the triangle's deepest vertex over it, or the
  // triangle's face against the box's deepest vertex under it.
  if (axis < 3) {
    const int k = axis;
    const double s = normal[k];
    int m = 0;
    for (int j = 1; j < 3; ++j) m = s * f.v[j][k] > s * f.v[m][k] ? j : m;
    const Vec3& p = f.v[m];
    bool over = true;
    for (int j = 0; j < 3; ++j) over &= j == k || (p[j] >= f.lo[j] && p[j] <= f.hi[j]);
    if (over) return result(p, WithCoordinate(p, k, s > 0.0 ? f.lo[k] : f.hi[k]));
  } else if (axis == 3) {
    const Vec3 q{normal.x > 0.0 ? f.lo.x : f.hi.x, normal.y > 0.0 ? f.lo.y : f.hi.y,
                 normal.z > 0.0 ? f.lo.z : f.hi.z};
    const Vec3 p = q + shift;
    // Under the triangle: on the inner side of its three edges (strictly;
    // a sliver, whose plain cross products cancel, takes the search).
    const Vec3 n = Cross(f.v[1] - f.v[0], f.v[2] - f.v[0]);
    bool under = LengthSquared(n) > 1e-6 * LengthSquared(f.v[1] - f.v[0]) * LengthSquared(f.v[2] - f.v[0]);
    for (int m = 0; m < 3; ++m) under &= Dot(Cross(f.v[(m + 1) % 3] - f.v[m], p - f.v[m]), n) > 0.0;
    if (under) return result(p, q);
  } else {
    // An edge axis, edge m x box axis i: the triangle's edge m (when the
    // opposite vertex lies below it along the normal) against the box's
    // edge along a_i deepest against the normal, moved by the shift; their
    // lines' closest points, when inside both edges.
    const int m = (axis - 4) / 3, i = (axis - 4) % 3;
    const Vec3 &a = f.v[m], &b = f.v[(m + 1) % 3];
    Vec3 q0{normal.x > 0.0 ? f.lo.x : f.hi.x, normal.y > 0.0 ? f.lo.y : f.hi.y,
            normal.z > 0.0 ? f.lo.z : f.hi.z};
    Vec3 q1 = q0;
    q0[i] = f.lo[i], q1[i] = f.hi[i];
    if (Dot(normal, f.v[(m + 2) % 3] - a) < 0.0) {
      const SegmentPoints c = ClosestPointsSegments(a, b, q0 + shift, q1 + shift);
      if ((c.s > 0.0) & (c.s < 1.0) & (c.t > 0.0) & (c.t < 1.0)) return result(c.point1, c.point2 - shift);
    }
  }
  // Otherwise (an edge axis, or features that meet off the face): the box
  // moved by the shift touches the triangle; a closest pair of the two
  // (distance 0 to round-off) is a point of the triangle's support feature
  // along the normal and, moved back, one of the box's against it.
  const TriangleBoxClosest c =
      ClosestTriangleBox({{f.v[0], f.v[1], f.v[2]}, f.lo + shift, f.hi + shift}, false);
  return result(c.on_triangle, c.on_box - shift);
}

PairResult ContactTriangleBoxFrame(const TriangleBox& f) {
  const TriangleBoxOverlap o = LeastOverlapTriangleBox(f);
  if (o.separated) return ApartResult(ClosestTriangleBox(f, /*known_apart=*/true));
  const double distance = o.depth > 0.0 ? -o.depth : 0.0;
  const TriangleBoxClosest w = TouchingWitnesses(f, o.axis, o.normal, o.normal * o.depth);
  return PairResult{QueryStatus::kOk, true, distance, w.on_triangle, w.on_box, o.normal};
}

}  // namespace collide::internal
