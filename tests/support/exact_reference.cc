#include "support/exact_reference.h"

#include <algorithm>
#include <cmath>
#include <variant>
#include <vector>

namespace collide::testing {
namespace {

using Q = __float128;

struct Q3 {
  Q x = 0, y = 0, z = 0;
};
Q3 Of(const Vec3& v) { return {v.x, v.y, v.z}; }
Q3 operator+(const Q3& a, const Q3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Q3 operator-(const Q3& a, const Q3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Q3 operator*(const Q3& a, Q s) { return {a.x * s, a.y * s, a.z * s}; }
Q Dot(const Q3& a, const Q3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Q3 Cross(const Q3& a, const Q3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
// Square root in binary128 without libquadmath (not on clang's include
// path, which the sanitizer builds use): Newton's iteration from the double
// root, each step doubling the correct bits (53 -> 106 -> 113+).
Q Sqrt(Q x) {
  if (!(x > 0)) return 0;
  Q y = std::sqrt(static_cast<double>(x));
  for (int k = 0; k < 3; ++k) y = (y + x / y) / 2;
  return y;
}
Q Norm(const Q3& a) { return Sqrt(Dot(a, a)); }
Q Clamp01(Q t) { return t < 0 ? Q(0) : (t > 1 ? Q(1) : t); }

// A box (center, unit axes, half extents) or a triangle, with its vertices,
// edges and candidate separating directions.
struct Poly {
  bool is_box = false;
  Q3 center, axis[3];
  Q half[3] = {0, 0, 0};
  std::vector<Q3> v;
  std::vector<std::pair<int, int>> edges;
  std::vector<Q3> faces;      // face normals (not normalized).
  std::vector<Q3> edge_dirs;  // edge directions.
};

Poly BoxPoly(const Q3& c, const Q3 ax[3], const Q h[3]) {
  Poly p;
  p.is_box = true;
  p.center = c;
  for (int k = 0; k < 3; ++k) p.axis[k] = ax[k], p.half[k] = h[k];
  for (int m = 0; m < 8; ++m) {
    Q3 x = c;
    for (int k = 0; k < 3; ++k) x = x + ax[k] * ((m >> k & 1) ? h[k] : -h[k]);
    p.v.push_back(x);
  }
  for (int m = 0; m < 8; ++m) {
    for (int k = 0; k < 3; ++k) {
      if (!(m >> k & 1)) p.edges.push_back({m, m | 1 << k});
    }
  }
  for (int k = 0; k < 3; ++k) p.faces.push_back(ax[k]), p.edge_dirs.push_back(ax[k]);
  return p;
}

Poly MakePoly(const Shape& s) {
  if (const Aabb* b = std::get_if<Aabb>(&s)) {
    const Q3 ax[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const Q3 c = (Of(b->min) + Of(b->max)) * Q(0.5);
    const Q h[3] = {(Q(b->max.x) - b->min.x) / 2, (Q(b->max.y) - b->min.y) / 2, (Q(b->max.z) - b->min.z) / 2};
    return BoxPoly(c, ax, h);
  }
  if (const Obb* b = std::get_if<Obb>(&s)) {
    const Q3 ax[3] = {Of(b->rotation.col[0]), Of(b->rotation.col[1]), Of(b->rotation.col[2])};
    const Q h[3] = {b->half_extents.x, b->half_extents.y, b->half_extents.z};
    return BoxPoly(Of(b->center), ax, h);
  }
  const Triangle& t = std::get<Triangle>(s);
  Poly p;
  p.v = {Of(t.a), Of(t.b), Of(t.c)};
  p.edges = {{0, 1}, {1, 2}, {2, 0}};
  p.faces.push_back(Cross(p.v[1] - p.v[0], p.v[2] - p.v[0]));
  for (auto [i, j] : p.edges) p.edge_dirs.push_back(p.v[j] - p.v[i]);
  return p;
}

Q PointSegment(const Q3& p, const Q3& a, const Q3& b) {
  const Q3 ab = b - a;
  const Q l2 = Dot(ab, ab);
  const Q t = l2 > 0 ? Clamp01(Dot(p - a, ab) / l2) : Q(0);
  return Norm(p - (a + ab * t));
}

// Ericson 5.1.5 in binary128.
Q PointTriangle(const Q3& p, const Q3& a, const Q3& b, const Q3& c) {
  const Q3 n = Cross(b - a, c - a);
  const Q n2 = Dot(n, n);
  if (n2 > 0) {
    const Q u = Dot(Cross(b - p, c - p), n), v = Dot(Cross(c - p, a - p), n), w = Dot(Cross(a - p, b - p), n);
    if (u >= 0 && v >= 0 && w >= 0) {
      const Q d = Dot(p - a, n);
      return (d < 0 ? -d : d) / Sqrt(n2);
    }
  }
  return std::min({PointSegment(p, a, b), PointSegment(p, b, c), PointSegment(p, c, a)});
}

Q PointSolid(const Poly& s, const Q3& p) {
  if (!s.is_box) return PointTriangle(p, s.v[0], s.v[1], s.v[2]);
  Q3 q = s.center;
  const Q3 d = p - s.center;
  for (int k = 0; k < 3; ++k) {
    Q l = Dot(d, s.axis[k]);
    l = l < -s.half[k] ? -s.half[k] : (l > s.half[k] ? s.half[k] : l);
    q = q + s.axis[k] * l;
  }
  return Norm(p - q);
}

Q SegmentSegment(const Q3& p1, const Q3& q1, const Q3& p2, const Q3& q2) {
  Q best = std::min({PointSegment(p1, p2, q2), PointSegment(q1, p2, q2), PointSegment(p2, p1, q1),
                     PointSegment(q2, p1, q1)});
  const Q3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const Q a = Dot(d1, d1), e = Dot(d2, d2), b = Dot(d1, d2), c = Dot(d1, r), f = Dot(d2, r);
  const Q denom = a * e - b * b;
  if (denom > 0) {
    const Q s = (b * f - c * e) / denom, t = (a * f - b * c) / denom;
    if (s >= 0 && s <= 1 && t >= 0 && t <= 1) best = std::min(best, Norm(p1 + d1 * s - (p2 + d2 * t)));
  }
  return best;
}

// Gap along n (any length): (min_B - max_A) / |n|, and the other side's.
Q GapAlong(const Poly& a, const Poly& b, const Q3& n) {
  Q min_a = 0, max_a = 0, min_b = 0, max_b = 0;
  for (size_t k = 0; k < a.v.size(); ++k) {
    const Q d = Dot(a.v[k], n);
    min_a = k == 0 || d < min_a ? d : min_a;
    max_a = k == 0 || d > max_a ? d : max_a;
  }
  for (size_t k = 0; k < b.v.size(); ++k) {
    const Q d = Dot(b.v[k], n);
    min_b = k == 0 || d < min_b ? d : min_b;
    max_b = k == 0 || d > max_b ? d : max_b;
  }
  return std::max(min_b - max_a, min_a - max_b) / Norm(n);
}

Q PolySignedDistance(const Poly& a, const Poly& b) {
  std::vector<Q3> axes = a.faces;
  axes.insert(axes.end(), b.faces.begin(), b.faces.end());
  for (const Q3& e : a.edge_dirs) {
    for (const Q3& f : b.edge_dirs) axes.push_back(Cross(e, f));
  }
  Q best = -1e300;
  for (const Q3& n : axes) {
    if (Dot(n, n) > 0) best = std::max(best, GapAlong(a, b, n));
  }
  if (best <= 0) return best;  // overlapping (or touching): minus the depth.
  Q d = 1e300;
  for (const Q3& p : a.v) d = std::min(d, PointSolid(b, p));
  for (const Q3& p : b.v) d = std::min(d, PointSolid(a, p));
  for (auto [i, j] : a.edges) {
    for (auto [k, l] : b.edges) d = std::min(d, SegmentSegment(a.v[i], a.v[j], b.v[k], b.v[l]));
  }
  return d;
}

}  // namespace

double ExactSignedDistance(const Shape& a, const Shape& b) {
  if (const Sphere* s = std::get_if<Sphere>(&a))
    return static_cast<double>(PointSolid(MakePoly(b), Of(s->center)) - s->radius);
  if (const Sphere* s = std::get_if<Sphere>(&b))
    return static_cast<double>(PointSolid(MakePoly(a), Of(s->center)) - s->radius);
  return static_cast<double>(PolySignedDistance(MakePoly(a), MakePoly(b)));
}

double ExactPointDistance(const Shape& s, const Vec3& p) {
  if (const Sphere* b = std::get_if<Sphere>(&s)) {
    const Q d = Norm(Of(p) - Of(b->center)) - b->radius;
    return d > 0 ? static_cast<double>(d) : 0.0;
  }
  return static_cast<double>(PointSolid(MakePoly(s), Of(p)));
}

double ExactGapAlong(const Shape& a, const Shape& b, const Vec3& n) {
  const Poly pa = MakePoly(a), pb = MakePoly(b);
  const Q3 m = Of(n);
  Q max_a = -1e300, min_b = 1e300;
  for (const Q3& p : pa.v) max_a = std::max(max_a, Dot(p, m));
  for (const Q3& p : pb.v) min_b = std::min(min_b, Dot(p, m));
  return static_cast<double>((min_b - max_a) / Norm(m));
}

}  // namespace collide::testing
