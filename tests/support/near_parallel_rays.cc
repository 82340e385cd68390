#include "support/near_parallel_rays.h"

#include <gmpxx.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace collide::testing {
namespace {

using Q = mpq_class;

double Uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * (static_cast<double>(rng() >> 11) * 0x1.0p-53);
}

// Exact vectors: every double is a rational, and so are their differences,
// products and quotients.
struct V {
  Q x, y, z;
};
V Of(const Vec3& a) { return {Q(a.x), Q(a.y), Q(a.z)}; }
V Sub(const Vec3& a, const Vec3& b) { return {Q(a.x) - Q(b.x), Q(a.y) - Q(b.y), Q(a.z) - Q(b.z)}; }
V Cross(const V& a, const V& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
Q Dot(const V& a, const V& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
int Sign(const Q& q) { return sgn(q); }

// x to binary128 as the sum of its two leading doubles (each get_d truncates:
// the pair is within 2^-105 of x, relative).
__float128 ToBinary128(const mpf_class& x) {
  const double hi = x.get_d();
  const mpf_class rest = x - hi;
  return static_cast<__float128>(hi) + rest.get_d();
}

// A random point of the triangle: interior, or exactly a vertex, or near an
// edge (barycentric weight 1e-13..1e-9 from it, either side).
Vec3 TargetIn(std::mt19937_64& rng, const Triangle& t) {
  double u = Uniform(rng, 0, 1), v = Uniform(rng, 0, 1);
  if (u + v > 1) u = 1 - u, v = 1 - v;
  switch (rng() % 4) {
    case 0:
      return rng() % 2 ? t.a : t.b;
    case 1:
      v = Uniform(rng, -1e-9, 1e-9) * std::pow(10.0, -Uniform(rng, 0, 4));
      break;
    default:
      break;
  }
  return t.a + (t.b - t.a) * u + (t.c - t.a) * v;
}

Vec3 Permute(const Vec3& v, int axis) {  // the z axis becomes `axis`.
  return axis == 2 ? v : (axis == 0 ? Vec3{v.z, v.x, v.y} : Vec3{v.y, v.z, v.x});
}

}  // namespace

std::string_view NearParallelClassName(NearParallelClass c) {
  switch (c) {
    case NearParallelClass::kOffPlaneAxis:
      return "off_plane_axis";
    case NearParallelClass::kOffPlaneTilted:
      return "off_plane_tilted";
    case NearParallelClass::kCoplanar:
      return "coplanar";
    case NearParallelClass::kGrazing:
      return "grazing";
  }
  return "unknown";
}

std::vector<RayTriangleCase> MakeNearParallelCases(NearParallelClass c, int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<RayTriangleCase> cases;
  const double scales[3] = {1e-3, 1.0, 1e3};
  while (static_cast<int>(cases.size()) < count) {
    const double s = scales[rng() % 3];
    auto off = [&] { return (rng() % 2 ? 1 : -1) * 1e-12 * s * Uniform(rng, 1, 10); };
    RayTriangleCase k{{}, {}, s};
    if (c == NearParallelClass::kOffPlaneAxis || c == NearParallelClass::kCoplanar) {
      const int axis = static_cast<int>(rng() % 3);
      // Coplanar: coordinates on a 2^-8 * scale' grid (scale' a power of two
      // near s), so every product in the reference is exact.
      const bool dyadic = c == NearParallelClass::kCoplanar;
      const double g = std::ldexp(1.0, std::ilogb(s));
      auto coord = [&] {
        const double x = Uniform(rng, -g, g);
        return dyadic ? std::round(x * 256 / g) * g / 256 : x;
      };
      const double zc = coord();
      Triangle t{{coord(), coord(), zc}, {coord(), coord(), zc}, {coord(), coord(), zc}};
      if (Cross(t.b - t.a, t.c - t.a).z == 0.0) continue;
      Vec3 target = TargetIn(rng, t);
      Vec3 d{coord(), coord(), 0};
      if (dyadic) {
        const int kind = static_cast<int>(rng() % 4);
        if (kind == 0) d = t.b - t.a, target = t.a;      // along an edge line.
        if (kind == 1) target = {coord(), coord(), zc};  // anywhere in the plane.
        if (kind == 2) target = rng() % 2 ? t.c : t.b;   // at a vertex.
        if (kind == 3) target = (t.a + t.b) * 0.5;       // at an edge's middle.
      }
      if (d.x == 0 && d.y == 0) continue;
      Vec3 o =
          target - d * (dyadic ? std::ldexp(1.0, static_cast<int>(rng() % 4) - 1) : Uniform(rng, 0.5, 3));
      o.z = dyadic ? zc : zc + off();
      if (dyadic && rng() % 4 == 0) o = target;  // starting on the triangle's plane at the target.
      k.triangle = {Permute(t.a, axis), Permute(t.b, axis), Permute(t.c, axis)};
      k.ray = {Permute(o, axis), Permute(d, axis), kInfinity};
    } else {
      auto point = [&] { return Vec3{Uniform(rng, -s, s), Uniform(rng, -s, s), Uniform(rng, -s, s)}; };
      const Triangle t{point(), point(), point()};
      const Vec3 n = Cross(t.b - t.a, t.c - t.a);
      if (Length(n) < 1e-3 * s * s) continue;
      const Vec3 unit_n = n / Length(n);
      const Vec3 edges[3] = {t.b - t.a, t.c - t.b, t.a - t.c};
      const Vec3 e = edges[rng() % 3];
      const Vec3 target = TargetIn(rng, t);
      if (c == NearParallelClass::kOffPlaneTilted) {
        k.ray = {target - e * Uniform(rng, 0.5, 3) + unit_n * off(), e, kInfinity};
      } else {
        const double angle = (rng() % 2 ? 1 : -1) * std::pow(10.0, -Uniform(rng, 9, 12));
        const Vec3 d = e / Length(e) + unit_n * angle;
        const double back = Uniform(rng, 0.5, 3) * s;
        k.ray = {target - d * back, d, rng() % 3 == 0 ? back * Uniform(rng, 0.999, 1.001) : kInfinity};
      }
      k.triangle = t;
    }
    cases.push_back(k);
  }
  return cases;
}

ReferenceRayTriangle ReferenceRayCast(const Ray& ray, const Triangle& tri) {
  ReferenceRayTriangle ref;
  const V d = Of(ray.direction);
  const V A = Sub(tri.a, ray.origin), B = Sub(tri.b, ray.origin), C = Sub(tri.c, ray.origin);
  // Edge functions as oriented volumes with the direction (the triangle's
  // projection along d): the line meets the closed triangle when none has a
  // sign opposite to another's.
  const Q eu = Dot(d, Cross(C, B)), ev = Dot(d, Cross(A, C)), ew = Dot(d, Cross(B, A));
  const int su = Sign(eu), sv = Sign(ev), sw = Sign(ew);
  if ((su < 0 || sv < 0 || sw < 0) && (su > 0 || sv > 0 || sw > 0)) return ref;
  const double len = Length(ray.direction);
  const V n = Cross(Sub(tri.b, tri.a), Sub(tri.c, tri.a));
  const Q max_t = ray.max_distance < kInfinity ? Q(ray.max_distance) / Q(len) : Q(-1);  // -1: none.
  Q t;
  if (su == 0 && sv == 0 && sw == 0) {
    // In the plane: clip o + t d, t >= 0, by the three edges' half-planes
    // (edge normal m = (q - p) x n, oriented away from the third vertex).
    ref.coplanar = true;
    const Vec3 v[3] = {tri.a, tri.b, tri.c};
    Q t_in = 0, t_out = 0;
    bool bounded = false;  // t_out set.
    for (int e = 0; e < 3; ++e) {
      V m = Cross(Sub(v[(e + 1) % 3], v[e]), n);
      if (Sign(Dot(m, Sub(v[(e + 2) % 3], v[e]))) > 0) m = {-m.x, -m.y, -m.z};
      const Q num = Dot(m, Sub(ray.origin, v[e])), den = Dot(m, d);
      if (Sign(den) == 0) {
        if (Sign(num) > 0) return ref;
      } else if (Sign(den) < 0) {
        const Q te = -num / den;
        if (te > t_in) t_in = te;
      } else {
        const Q te = -num / den;
        if (!bounded || te < t_out) t_out = te, bounded = true;
      }
    }
    if (bounded && t_in > t_out) return ref;
    t = t_in;
  } else {
    // Where the line meets the plane: t = det[A, B, C] / dot(n, d).
    t = Dot(A, Cross(B, C)) / Dot(n, d);
    if (Sign(t) < 0) return ref;
  }
  if (Sign(max_t) >= 0) {
    // The kernel's range test is on t = max_distance / |d| rounded: do not
    // judge within 1e-9 of it.
    const Q diff = t - max_t;
    if (abs(diff) <= max_t * Q(1e-9)) return {false};
    if (Sign(diff) > 0) return ref;
  }
  ref.hit = true;
  constexpr int kBits = 256;
  const mpf_class ft(t, kBits), fd(ft * sqrt(mpf_class(Dot(d, d), kBits)), kBits);
  ref.t_fine = ToBinary128(ft);
  ref.distance_fine = ToBinary128(fd);
  ref.distance = static_cast<double>(ref.distance_fine);
  return ref;
}

}  // namespace collide::testing
