#include "support/accuracy_cases.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "collide/math.h"
#include "support/exact_reference.h"

namespace collide::testing {
namespace {

class Rng {
 public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  double Uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(gen_); }
  double LogUniform(double lo, double hi) { return std::exp(Uniform(std::log(lo), std::log(hi))); }
  int Int(int n) { return std::uniform_int_distribution<int>(0, n - 1)(gen_); }
  bool Coin() { return Int(2) == 1; }
  double Sign() { return Coin() ? 1.0 : -1.0; }
  Vec3 InCube(double e) { return {Uniform(-e, e), Uniform(-e, e), Uniform(-e, e)}; }
  Vec3 Unit() {
    for (;;) {
      const Vec3 v = InCube(1.0);
      const double l2 = LengthSquared(v);
      if (l2 > 1e-4 && l2 <= 1.0) return v / std::sqrt(l2);
    }
  }
  Mat3 Rotation() {
    const Vec3 v = Unit();
    return RotationFromQuat({Uniform(-1, 1), v.x, v.y, v.z});
  }

 private:
  std::mt19937_64 gen_;
};

// v rotated by angle about the unit axis u (Rodrigues).
Vec3 Rotate(const Vec3& v, const Vec3& u, double angle) {
  return v * std::cos(angle) + Cross(u, v) * std::sin(angle) + u * (Dot(u, v) * (1.0 - std::cos(angle)));
}

// A box of kind box_kind (an Aabb ignores the rotation).
Shape MakeBox(ShapeKind box_kind, const Vec3& c, const Mat3& r, const Vec3& h) {
  if (box_kind == ShapeKind::kAabb) return Aabb{c - h, c + h};
  return Obb{c, r, h};
}

Vec3 Corner(const Mat3& r, const Vec3& h, int m) {
  return r.col[0] * ((m & 1) ? h.x : -h.x) + r.col[1] * ((m & 2) ? h.y : -h.y) +
         r.col[2] * ((m & 4) ? h.z : -h.z);
}

// A gap or an overlap: log-uniform magnitude in [lo, hi], negative (overlap)
// with probability 1/2, scaled by overlap_scale when negative.
double SignedGap(Rng& g, double lo, double hi, double overlap_scale = 1.0) {
  const double m = g.LogUniform(lo, hi);
  return g.Coin() ? m : -m * overlap_scale;
}

AccuracyCase BoxBoxParallelEdges(Rng& g, ShapeKind a_kind) {
  const Mat3 ra = a_kind == ShapeKind::kAabb ? Mat3{} : g.Rotation();
  const Vec3 ha{g.Uniform(0.2, 1), g.Uniform(0.2, 1), g.Uniform(0.2, 1)};
  const Vec3 ca = g.InCube(2.0);
  const int i = g.Int(3), i1 = (i + 1) % 3, i2 = (i + 2) % 3;
  const Vec3 u1 = ra.col[i1] * g.Sign(), u2 = ra.col[i2] * g.Sign();
  const Vec3 ax = ra.col[i];
  // m: a direction in the normal cone of A's edge (between its two faces).
  const double phi_a = g.Uniform(0.15, 1.42);
  const Vec3 m = u1 * std::cos(phi_a) + u2 * std::sin(phi_a);
  const double edge_b = g.Uniform(0.2, 1);
  const Vec3 pa = ca + u1 * ha[i1] + u2 * ha[i2] + ax * (g.Uniform(-0.4, 0.4) * std::min(ha[i], edge_b));
  // B's edge faces n1, n2 with -m inside their cone, at angle phi_b from n1.
  const double phi_b = g.Uniform(0.15, 1.42);
  const Vec3 w = Cross(ax, -m);
  const Vec3 n1 = -m * std::cos(phi_b) - w * std::sin(phi_b);
  const Vec3 n2 = -m * std::sin(phi_b) + w * std::cos(phi_b);
  const Vec3 eb = Dot(Cross(n1, n2), ax) > 0 ? ax : -ax;
  const double h1 = g.Uniform(0.2, 1), h2 = g.Uniform(0.2, 1);
  const Vec3 q = pa + m * SignedGap(g, 1e-9, 1e-3);
  // Tilt B about m through its edge's midpoint: the edges' lines stay
  // apart by the gap along m while their directions part by delta.
  double delta = g.LogUniform(1e-8, 1e-4);
  delta *= g.Sign();
  const Vec3 cb = q + Rotate(-n1 * h1 - n2 * h2, m, delta);
  const int j = g.Int(3);
  Mat3 rb;
  Vec3 hb;
  rb.col[j] = Rotate(eb, m, delta), hb[j] = edge_b;
  rb.col[(j + 1) % 3] = Rotate(n1, m, delta), hb[(j + 1) % 3] = h1;
  rb.col[(j + 2) % 3] = Rotate(n2, m, delta), hb[(j + 2) % 3] = h2;
  return {MakeBox(a_kind, ca, ra, ha), Obb{cb, rb, hb}};
}

AccuracyCase TriangleBoxParallelFace(Rng& g, ShapeKind box_kind) {
  const Mat3 r = box_kind == ShapeKind::kAabb ? Mat3{} : g.Rotation();
  const Vec3 h{g.Uniform(0.2, 1), g.Uniform(0.2, 1), g.Uniform(0.2, 1)};
  const Vec3 c = g.InCube(2.0);
  const int i = g.Int(3), i1 = (i + 1) % 3, i2 = (i + 2) % 3;
  const Vec3 nf = r.col[i] * g.Sign();
  const Vec3 fc = c + nf * h[i];
  // Centroid over the face or beyond its edge.
  // One draw per statement here and below: the order of calls within an
  // expression is unspecified, and the cases must not depend on the compiler.
  const double along1 = g.Uniform(-1.3, 1.3);
  const double along2 = g.Uniform(-1.3, 1.3);
  const Vec3 centroid = fc + r.col[i1] * (along1 * h[i1]) + r.col[i2] * (along2 * h[i2]);
  Vec3 v[3];
  const double start = g.Uniform(0, 6.3);
  for (int k = 0; k < 3; ++k) {
    const double angle = start + k * 2.0944 + g.Uniform(-0.5, 0.5);
    v[k] = centroid + (r.col[i1] * std::cos(angle) + r.col[i2] * std::sin(angle)) * g.Uniform(0.3, 1.5);
  }
  // Tilt by 1e-10..1e-8 rad about an in-plane axis, then set the lowest
  // vertex at the gap above the face's plane.
  const double tilt = g.LogUniform(1e-10, 1e-8);
  const double axis_angle = g.Uniform(0, 6.3);
  const Vec3 axis = r.col[i1] * std::cos(axis_angle) + r.col[i2] * std::sin(axis_angle);
  double lowest = kInfinity;
  for (Vec3& p : v)
    p = centroid + Rotate(p - centroid, axis, tilt), lowest = std::min(lowest, Dot(p - fc, nf));
  const double gap = SignedGap(g, 1e-10, 1e-7, 1e-2);
  for (Vec3& p : v) p += nf * (gap - lowest);
  return {MakeBox(box_kind, c, r, h), Triangle{v[0], v[1], v[2]}};
}

// A triangle of size ~1 at the origin: a sliver (height 1e-6..1e-3 of its
// length) or a fat one.
Triangle RandomTriangle(Rng& g, bool sliver) {
  const Vec3 a = g.InCube(0.7), b = g.InCube(0.7);
  if (!sliver) return {a, b, g.InCube(0.7)};
  const Vec3 ab = b - a;
  const Vec3 up = Cross(ab, g.Unit());
  const double along = g.Uniform(-0.2, 1.2);
  const double height = g.LogUniform(1e-6, 1e-3);
  const Vec3 c = a + ab * along + up * (height * Length(ab) / Length(up));
  return {a, b, c};
}

AccuracyCase TriangleBoxThin(Rng& g, ShapeKind box_kind) {
  const Mat3 r = box_kind == ShapeKind::kAabb ? Mat3{} : g.Rotation();
  Vec3 h{g.Uniform(0.2, 1), g.Uniform(0.2, 1), g.Uniform(0.2, 1)};
  const int thin_axes = g.Int(3);  // 0: a normal box (the triangle is a sliver then).
  const int first = g.Int(3);
  for (int k = 0; k < thin_axes; ++k) h[(first + k) % 3] = g.LogUniform(1e-6, 1e-3);
  const Vec3 c = g.InCube(2.0);
  Triangle t = RandomTriangle(g, thin_axes == 0 || g.Coin());
  const Vec3 offset = c + g.InCube(0.5);
  // Touching along a random direction u, then apart or overlapping.
  const Vec3 u = g.Unit();
  double box_max = -kInfinity;
  for (int m = 0; m < 8; ++m) box_max = std::max(box_max, Dot(c + Corner(r, h, m), u));
  const double tri_min = std::min({Dot(t.a + offset, u), Dot(t.b + offset, u), Dot(t.c + offset, u)});
  const Vec3 shift = offset + u * (box_max - tri_min + SignedGap(g, 1e-9, 1e-2, 1e-2));
  t = {t.a + shift, t.b + shift, t.c + shift};
  return {MakeBox(box_kind, c, r, h), t};
}

AccuracyCase SphereTriangleThin(Rng& g) {
  const bool sliver = g.Coin();
  const Vec3 o = g.InCube(2.0);
  Triangle t = RandomTriangle(g, sliver);
  t = {t.a + o, t.b + o, t.c + o};
  Vec3 center;
  if (!sliver || g.Coin()) {
    // Within 1e-6 of the triangle: a point of it (inside, on an edge or at a
    // vertex) moved off by 1e-14..1e-6.
    double u = g.Uniform(0, 1), v = g.Uniform(0, 1);
    if (u + v > 1) u = 1 - u, v = 1 - v;
    const int where = g.Int(4);
    if (where == 1) v = 0;
    if (where == 2) u = 1, v = 0;
    const Vec3 off = g.Unit();
    center = t.a + (t.b - t.a) * u + (t.c - t.a) * v + off * g.LogUniform(1e-14, 1e-6);
  } else {
    center = o + g.InCube(1.0);
  }
  const double d = ExactPointDistance(t, center);
  double radius;
  switch (g.Int(3)) {
    case 0:
      radius = std::max(0.0, d + SignedGap(g, 1e-15, 1e-9));
      break;
    case 1:
      radius = d * g.Uniform(0.5, 2.0);
      break;
    default:
      radius = g.Uniform(0.01, 1.0);
      break;
  }
  return {Sphere{center, radius}, t};
}

}  // namespace

std::vector<AccuracyCase> MakeAccuracyCases(AccuracyClass c, ShapeKind box_kind, bool swapped, int count,
                                            uint64_t seed) {
  Rng g(seed);
  std::vector<AccuracyCase> cases;
  cases.reserve(count);
  for (int k = 0; k < count; ++k) {
    AccuracyCase x;
    switch (c) {
      case AccuracyClass::kBoxBoxParallelEdges:
        x = BoxBoxParallelEdges(g, box_kind);
        break;
      case AccuracyClass::kTriangleBoxParallelFace:
        x = TriangleBoxParallelFace(g, box_kind);
        break;
      case AccuracyClass::kTriangleBoxThin:
        x = TriangleBoxThin(g, box_kind);
        break;
      case AccuracyClass::kSphereTriangleThin:
        x = SphereTriangleThin(g);
        break;
    }
    if (swapped) std::swap(x.a, x.b);
    cases.push_back(x);
  }
  return cases;
}

}  // namespace collide::testing
