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
  hit.distance = lambda;
  hit.point = ray.origin + d * lambda;
  // A rounded core: the direction from its closest point; a polytope: the
  // last separating plane, which at convergence supports the shape at the
  // hit point.
  hit.normal = r > 0.0 ? NormalizedOr(v, NormalizedOr(n, -d)) : NormalizedOr(n, -d);
  return hit;
}

}  // namespace collide::internal
