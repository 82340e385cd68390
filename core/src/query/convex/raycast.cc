// The generic ray cast over support functions: GJK ray casting by
// conservative advancement (van den Bergen, "Ray Casting against General
// Convex Objects with Application to Continuous Collision Detection", 2004),
// against the shape's core inflated by its radius.
#include <cmath>
#include <variant>

#include "query/convex/gjk.h"
#include "query/convex/support.h"
#include "query/kernels_convex.h"
#include "query/registry.h"

namespace collide::internal {

namespace {

// Most advancement/refinement steps. A polytope converges in a few dozen; a
// rounded core converges linearly, slowest for grazing rays.
constexpr int kRayMaxIterations = 256;
// Hit when the distance from the advancing point to the inflated core is
// within this fraction of the problem's size.
constexpr double kRayTolerance = 1e-12;

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

// Conservative advancement converges to the hit point only up to the
// tolerance (and stalls when v's round-off outweighs |v|^2), leaving errors up
// to ~1e-10 for grazing rays. The final simplex names the feature hit, so
// finish exactly against it: a face plane (offset by r), a capsule-like
// cylinder, or a ball; a small step only, so a wrong feature is never
// jumped to. Updates lambda (the ray parameter, relative to the origin at
// 0) and the normal.
void Polish(const Simplex& s, const Vec3& d, double r, double scale, double& lambda, Vec3& normal) {
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

}  // namespace

RayHit RayCastConvexFallback(const Ray& ray, const Shape& shape) {
  if (const auto* h = std::get_if<Halfspace>(&shape)) return RayCastHalfspace(ray, *h);
  // Work relative to the ray origin: x = lambda * d.
  const ConvexCore core(shape, ray.origin);
  const double r = core.radius();
  const Vec3 d = ray.direction / Length(ray.direction);

  double lambda = 0.0;
  Vec3 x;
  Vec3 n;  // Normal of the last separating plane.
  Simplex s;
  Vec3 v = x - core.AnyPoint();
  double scale = Length(v) + r;
  RayHit miss;
  QueryStatus status = QueryStatus::kNotConverged;
  double previous_lambda = -1.0;
  for (int iter = 0; iter < kRayMaxIterations; ++iter) {
    const double vlen = Length(v);
    if (vlen - r <= kRayTolerance * scale) {
      status = QueryStatus::kOk;
      break;
    }
    const Vec3 p = core.Support(v);
    scale = std::max(scale, Length(p) + r);
    const Vec3 w = x - p;
    const double vw = Dot(v, w);
    if (vw > r * vlen) {
      // The plane dot(v / |v|, y) = dot(v / |v|, p) + r separates x from the
      // inflated core; advance x to it, or miss if the ray leaves it.
      const double vd = Dot(v, d);
      if (vd >= 0.0) return miss;
      lambda -= (vw - r * vlen) / vd;
      if (lambda > ray.max_distance) return miss;
      x = d * lambda;
      n = v;
    } else if (vlen * vlen - vw <= kGjkRelativeTolerance * vlen * vlen) {
      // v is (to the tolerance) the closest point: x is on the inflated core.
      status = QueryStatus::kOk;
      break;
    }
    bool repeated = false;
    for (int i = 0; i < s.size; ++i) repeated = repeated || s.v[i].a == p;
    if (repeated && lambda == previous_lambda) {
      // No new support point and no advance: round-off in v's direction
      // (~1e-17 absolute) outweighs |v|^2, so the iteration cannot progress;
      // Polish() below finishes exactly. (In exact arithmetic a repeated
      // support point means v is exact, so this only happens near the hit.)
      status = vlen - r <= 1e-6 * scale ? QueryStatus::kOk : QueryStatus::kNotConverged;
      break;
    }
    previous_lambda = lambda;
    if (!repeated) s.v[s.size++] = {x - p, p, Vec3{}};
    for (int i = 0; i < s.size; ++i) s.v[i].w = x - s.v[i].a;
    v = ReduceToClosest(s);
    if (s.size == 4) {
      status = QueryStatus::kOk;
      break;
    }
  }
  RayHit hit;
  hit.status = status;
  hit.hit = true;
  if (lambda == 0.0) {
    // Started inside or on the shape.
    hit.point = ray.origin;
    hit.normal = -d;
    return hit;
  }
  // A rounded core: the direction from its closest point; a polytope: the
  // last separating plane, which at convergence supports the shape at the
  // hit point.
  Vec3 normal = r > 0.0 ? NormalizedOr(v, NormalizedOr(n, -d)) : NormalizedOr(n, -d);
  Polish(s, d, r, scale, lambda, normal);
  if (!(lambda <= ray.max_distance)) return miss;
  hit.distance = lambda;
  hit.point = ray.origin + d * lambda;
  hit.normal = normal;
  return hit;
}

}  // namespace collide::internal
