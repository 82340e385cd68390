#include "query/closest/closest_segment_triangle.h"

#include <limits>
#include <utility>

#include "query/closest/closest.h"
#include "query/closest/closest_segments.h"
#include "query/closest/closest_triangle.h"

namespace collide::internal {
namespace {

// The parameter in (0, 1) where segment [p, q] crosses the closed triangle
// with both endpoints strictly on opposite sides of its plane, or -1. In R
// (double, or long double for thin triangles, whose plane normal loses
// digits: see ClosestPointOnThinTriangle), from the double inputs. The line
// p + s (q - p) meets the triangle exactly when the triple products of its
// direction with the edges seen from p share a sign (Ericson 5.3.4); the
// crossing point's parameter is the ratio of the endpoints' heights. Near
// an edge the answer may go either way by rounding: the edge candidate then
// gives a distance at rounding level, which the caller counts as touching.
template <typename R>
R CrossingParameter(const Vec3& p, const Vec3& q, const Triangle& t) {
  struct W {
    R x, y, z;
  };
  const auto sub = [](const Vec3& u, const Vec3& v) {
    return W{R(u.x) - R(v.x), R(u.y) - R(v.y), R(u.z) - R(v.z)};
  };
  const auto diff = [](const W& u, const W& v) { return W{u.x - v.x, u.y - v.y, u.z - v.z}; };
  const auto cross = [](const W& u, const W& v) {
    return W{u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x};
  };
  const auto dot = [](const W& u, const W& v) { return u.x * v.x + u.y * v.y + u.z * v.z; };
  const W a = sub(t.a, p), b = sub(t.b, p), c = sub(t.c, p), d = sub(q, p);
  const W n = cross(diff(b, a), diff(c, a));
  const R hp = -dot(n, a);      // p's height over the plane, times |n|.
  const R hq = dot(n, d) + hp;  // q's.
  if (!((hp > 0 && hq < 0) || (hp < 0 && hq > 0))) return -1;
  const R u = dot(d, cross(a, b)), v = dot(d, cross(b, c)), w = dot(d, cross(c, a));
  if (!((u >= 0 && v >= 0 && w >= 0) || (u <= 0 && v <= 0 && w <= 0))) return -1;
  return hp / (hp - hq);
}

[[gnu::cold, gnu::noinline]] double ThinCrossingParameter(const Vec3& p, const Vec3& q, const Triangle& t) {
  return static_cast<double>(CrossingParameter<long double>(p, q, t));
}

// The segment [0, d] against edge [e0, e1]: diff and its direction corrected
// as round_pair.h's SeparationOf does (perpendicular to a segment whose
// interior holds the closest point; the common perpendicular when both do).
struct EdgeCandidate {
  Vec3 on_segment, on_edge, diff, direction;
  double d2;
};
EdgeCandidate AgainstEdge(const Vec3& d, const Vec3& e0, const Vec3& e1) {
  const SegmentPoints sp = ClosestPointsSegmentsInline(Vec3{}, d, e0, e1);
  const Vec3 diff = sp.point2 - sp.point1;
  const Vec3 e = e1 - e0;
  const bool s_in = sp.s > 0.0 && sp.s < 1.0;  // in the segment's interior.
  const bool t_in = sp.t > 0.0 && sp.t < 1.0;  // in the edge's interior.
  Vec3 v = diff;
  if (s_in && t_in) {
    const Vec3 n = Cross(d, e);
    const double k = Dot(diff, n);
    if (Dot(n, n) > kParallelSinSquared * Dot(d, d) * Dot(e, e) && k != 0.0) {
      v = k > 0.0 ? n : -n;
    } else {
      v = diff * Dot(d, d) - d * Dot(diff, d);
    }
  } else if (s_in || t_in) {
    const Vec3& axis = s_in ? d : e;
    v = diff * Dot(axis, axis) - axis * Dot(diff, axis);
  }
  // A correction that cancelled to zero (diff at rounding level) keeps diff.
  if (!(LengthSquared(v) > 0.0)) v = diff;
  return {sp.point1, sp.point2, diff, v, LengthSquared(diff)};
}

}  // namespace

std::optional<SegmentTriangleClosest> ClosestSegmentTriangle(const Vec3& p, const Vec3& q,
                                                             const Triangle& t) {
  const std::optional<TriangleClosestPoint> at_p = ClosestPointOnTriangle(p, t.a, t.b, t.c);
  if (!at_p) return std::nullopt;  // degenerate.
  const Vec3 a = t.a - p, b = t.b - p, c = t.c - p, d = q - p;
  constexpr double kTouch = 16.0 * std::numeric_limits<double>::epsilon();
  const double touch2 = kTouch * kTouch * (at_p->size2 + LengthSquared(d));
  // A crossing first: then no candidate is the answer. The crossing point
  // is confirmed by the triangle's closest point to it: a segment within
  // rounding of the plane has heights and triple products of noise, and its
  // "crossing" may be anywhere on it (then the candidates below answer).
  const Vec3 ab = b - a, ac = c - a;
  const bool thin = !(LengthSquared(Cross(ab, ac)) > 1e-6 * LengthSquared(ab) * LengthSquared(ac));
  const double s = thin ? ThinCrossingParameter(p, q, t) : CrossingParameter<double>(p, q, t);
  if (s >= 0.0) {
    const Vec3 x = d * s;
    const std::optional<TriangleClosestPoint> at_x = ClosestPointOnTriangle(p + x, t.a, t.b, t.c);
    if (at_x && LengthSquared(at_x->offset) <= touch2) {
      return SegmentTriangleClosest{x, x, Vec3{}, 0.0, Vec3{}, touch2, true};
    }
  }
  // The endpoints against the triangle: the offset is the difference, and
  // along the face normal exactly in the face region.
  SegmentTriangleClosest best{Vec3{},       at_p->offset, at_p->offset, LengthSquared(at_p->offset),
                              at_p->offset, touch2,       false};
  const std::optional<TriangleClosestPoint> at_q = ClosestPointOnTriangle(q, t.a, t.b, t.c);
  if (!at_q) return std::nullopt;  // degenerate by rounding seen from q.
  if (const double d2 = LengthSquared(at_q->offset); d2 < best.d2) {
    best = {d, d + at_q->offset, at_q->offset, d2, at_q->offset, touch2, false};
  }
  // The segment against each edge. Ties keep the earlier candidate.
  for (const auto& [e0, e1] : {std::pair{a, b}, std::pair{b, c}, std::pair{c, a}}) {
    const EdgeCandidate k = AgainstEdge(d, e0, e1);
    if (k.d2 < best.d2) best = {k.on_segment, k.on_edge, k.diff, k.d2, k.direction, touch2, false};
  }
  return best;
}

}  // namespace collide::internal
