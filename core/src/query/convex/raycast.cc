// The generic ray cast over support functions: GJK ray casting by
// conservative advancement (van den Bergen, "Ray Casting against General
// Convex Objects with Application to Continuous Collision Detection", 2004),
// against the shape's core inflated by its radius.
#include <cmath>
#include <variant>

#include "query/convex/conservative_advancement.h"
#include "query/convex/gjk.h"
#include "query/convex/support.h"
#include "query/kernels_convex.h"
#include "query/registry.h"

namespace collide::internal {

namespace {

// The smaller root t of a t^2 + 2 b t + c = 0 when c is small (the ray point
// is near the surface), in the cancellation-free form c / (-b + sqrt(b^2 -
// a c)) (Press et al., Numerical Recipes 5.6). False when there is no root.
bool NearRoot(double a, double b, double c, double& t) {
  const double disc = b * b - a * c;
  if (!(disc >= 0.0)) return false;
  const double q = -b + std::sqrt(disc);
  if (!(q > 0.0)) return false;
  t = c / q;
  return std::isfinite(t);
}

}  // namespace

// Conservative advancement converges to the hit point only up to the
// tolerance (and stalls when v's round-off outweighs |v|^2), leaving errors up
// to ~1e-10 for grazing rays. The final simplex names the feature hit, so
// finish exactly against it: a face plane (offset by r), a capsule-like
// cylinder, or a ball; a small step only, so a wrong feature is never
// jumped to. Updates lambda (the ray parameter, relative to the origin at
// 0) and the normal.
void PolishCast(const Simplex& s, const Vec3& d, double r, double scale, double& lambda, Vec3& normal) {
  const Vec3 x = d * lambda;
  const double max_step = 1e-6 * scale;
  double t = 0.0;
  Vec3 n;
  if (s.size == 3) {
    const Vec3& p0 = s.v[0].a;
    Vec3 f = Cross(s.v[1].a - p0, s.v[2].a - p0);
    const double len = Length(f);
    if (!(len > 0.0)) return;
    f = f / len;
    if (Dot(f, d) > 0.0) f = -f;
    const double fd = Dot(f, d);
    if (!(fd < -1e-9)) return;
    t = (r - Dot(f, x - p0)) / fd;
    n = f;
  } else if (s.size == 1 && r > 0.0) {
    const Vec3 m = x - s.v[0].a;
    const double mlen = Length(m);
    if (!NearRoot(1.0, Dot(m, d), (mlen - r) * (mlen + r), t)) return;
    n = (m + d * t) / r;
  } else if (s.size == 2 && r > 0.0) {
    const Vec3 e = NormalizedOr(s.v[1].a - s.v[0].a, Vec3{});
    if (e == Vec3{}) return;
    const Vec3 m = x - s.v[0].a;
    const Vec3 mp = m - e * Dot(m, e);
    const Vec3 dp = d - e * Dot(d, e);
    const double mlen = Length(mp);
    if (!NearRoot(Dot(dp, dp), Dot(mp, dp), (mlen - r) * (mlen + r), t)) return;
    n = NormalizedOr(mp + dp * t, Vec3{});
    if (n == Vec3{}) return;
  } else {
    return;
  }
  if (!(std::fabs(t) <= max_step) || !(lambda + t > 0.0)) return;
  lambda += t;
  normal = n;
}

namespace {

// The ray cast's core: one shape's.
struct ShapeCore {
  const ConvexCore& core;
  CastSupport Support(const Vec3& v) const { return {core.Support(v), Vec3{}}; }
  Vec3 AnyPoint() const { return core.AnyPoint(); }
  double radius() const { return core.radius(); }
};

}  // namespace

RayHit RayCastConvexFallback(const Ray& ray, const Shape& shape) {
  if (const auto* h = std::get_if<Halfspace>(&shape)) return RayCastHalfspace(ray, *h);
  // Work relative to the ray origin: x = lambda * d.
  const ConvexCore core(shape, ray.origin);
  const Vec3 d = ray.direction / Length(ray.direction);
  const CastResult c = CastAgainstCore(ShapeCore{core}, d, ray.max_distance);
  if (!c.hit) return {};
  RayHit hit;
  hit.status = c.status;
  hit.hit = true;
  if (c.lambda == 0.0) {
    // Started inside or on the shape.
    hit.point = ray.origin;
    hit.normal = -d;
    return hit;
  }
  hit.distance = c.lambda;
  hit.point = ray.origin + d * c.lambda;
  hit.normal = c.normal;
  return hit;
}

}  // namespace collide::internal
