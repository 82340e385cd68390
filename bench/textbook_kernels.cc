#include "textbook_kernels.h"

#include <cmath>

namespace collide::bench {
namespace {

// The point of triangle abc closest to p: Ericson 5.1.5, Voronoi regions of
// the vertices, then the edges, then the face, by barycentric coordinates.
Vec3 ClosestPtPointTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = Dot(ab, ap), d2 = Dot(ac, ap);
  if (d1 <= 0.0 && d2 <= 0.0) return a;
  const Vec3 bp = p - b;
  const double d3 = Dot(ab, bp), d4 = Dot(ac, bp);
  if (d3 >= 0.0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return a + ab * (d1 / (d1 - d3));
  const Vec3 cp = p - c;
  const double d5 = Dot(ab, cp), d6 = Dot(ac, cp);
  if (d6 >= 0.0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return a + ac * (d2 / (d2 - d6));
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0)
    return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
  const double denom = 1.0 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

double Clamp01(double x) { return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x); }

// The closest points of segments p1q1 and p2q2: Ericson 5.1.9 (the
// unconstrained minimum of the squared distance, clamped to segment 1, then
// segment 2's parameter clamped and segment 1's recomputed).
void ClosestPtSegmentSegment(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2, Vec3& c1,
                             Vec3& c2) {
  constexpr double kEpsilon = 1e-12;
  const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = Dot(d1, d1), e = Dot(d2, d2), f = Dot(d2, r);
  double s = 0.0, t = 0.0;
  if (a <= kEpsilon && e <= kEpsilon) {
    // Both points.
  } else if (a <= kEpsilon) {
    t = Clamp01(f / e);
  } else {
    const double c = Dot(d1, r);
    if (e <= kEpsilon) {
      s = Clamp01(-c / a);
    } else {
      const double b = Dot(d1, d2), denom = a * e - b * b;
      s = denom != 0.0 ? Clamp01((b * f - c * e) / denom) : 0.0;
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0;
        s = Clamp01(-c / a);
      } else if (t > 1.0) {
        t = 1.0;
        s = Clamp01((b - c) / a);
      }
    }
  }
  c1 = p1 + d1 * s;
  c2 = p2 + d2 * t;
}

// The results from the closest points q_a, q_b of the cores and the radii:
// distance level (overlap: a common point, here the middle of the core
// points, no square root), contact level (always the square root).
PairResult DistanceResult(const Vec3& qa, const Vec3& qb, double ra, double rb) {
  const Vec3 d = qb - qa;
  const double d2 = Dot(d, d), r = ra + rb;
  if (d2 <= r * r) {
    const Vec3 p = qa + d * 0.5;
    return {QueryStatus::kOk, true, 0.0, p, p, {}};
  }
  const double length = std::sqrt(d2);
  const Vec3 n = d * (1.0 / length);
  return {QueryStatus::kOk, false, length - r, qa + n * ra, qb - n * rb, n};
}

PairResult ContactResult(const Vec3& qa, const Vec3& qb, double ra, double rb) {
  const Vec3 d = qb - qa;
  const double length = std::sqrt(Dot(d, d)), r = ra + rb;
  const Vec3 n = d * (1.0 / length);
  return {QueryStatus::kOk, length <= r, length - r, qa + n * ra, qb - n * rb, n};
}

bool Overlap(const Vec3& qa, const Vec3& qb, double r) { return Dot(qb - qa, qb - qa) <= r * r; }

}  // namespace

bool TextbookIntersectSphereTriangle(const Sphere& a, const Triangle& b) {
  return Overlap(a.center, ClosestPtPointTriangle(a.center, b.a, b.b, b.c), a.radius);
}
PairResult TextbookDistanceSphereTriangle(const Sphere& a, const Triangle& b) {
  return DistanceResult(a.center, ClosestPtPointTriangle(a.center, b.a, b.b, b.c), a.radius, 0.0);
}
PairResult TextbookContactSphereTriangle(const Sphere& a, const Triangle& b) {
  return ContactResult(a.center, ClosestPtPointTriangle(a.center, b.a, b.b, b.c), a.radius, 0.0);
}

bool TextbookIntersectCapsuleCapsule(const Capsule& a, const Capsule& b) {
  Vec3 qa, qb;
  ClosestPtSegmentSegment(a.a, a.b, b.a, b.b, qa, qb);
  return Overlap(qa, qb, a.radius + b.radius);
}
PairResult TextbookDistanceCapsuleCapsule(const Capsule& a, const Capsule& b) {
  Vec3 qa, qb;
  ClosestPtSegmentSegment(a.a, a.b, b.a, b.b, qa, qb);
  return DistanceResult(qa, qb, a.radius, b.radius);
}
PairResult TextbookContactCapsuleCapsule(const Capsule& a, const Capsule& b) {
  Vec3 qa, qb;
  ClosestPtSegmentSegment(a.a, a.b, b.a, b.b, qa, qb);
  return ContactResult(qa, qb, a.radius, b.radius);
}

}  // namespace collide::bench
