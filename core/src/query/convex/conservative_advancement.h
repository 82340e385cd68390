// GJK ray casting by conservative advancement (van den Bergen, "Ray Casting
// against General Convex Objects with Application to Continuous Collision
// Detection", 2004) against any convex set given by a support mapping of a
// polytope core inflated by a radius. Shared by the generic ray cast
// (raycast.cc: the set is one shape's core) and the generic shape cast
// (sweep/sweep_convex.cc: the set is the Minkowski difference B - A of two
// cores, inflated by rA + rB, and the ray is the translation).
#ifndef COLLIDE_CORE_SRC_QUERY_CONVEX_CONSERVATIVE_ADVANCEMENT_H_
#define COLLIDE_CORE_SRC_QUERY_CONVEX_CONSERVATIVE_ADVANCEMENT_H_

#include <algorithm>
#include <cmath>

#include "collide/result.h"
#include "query/convex/gjk.h"

namespace collide::internal {

// A support point of the cast-against core: `p`, and (Minkowski differences
// only) the point of B's core that made it, carried to the result.
struct CastSupport {
  Vec3 p;
  Vec3 b;
};

// Most advancement/refinement steps. A polytope converges in a few dozen; a
// rounded core converges linearly, slowest for grazing rays.
inline constexpr int kCastMaxIterations = 256;
// Hit when the distance from the advancing point to the inflated core is
// within this fraction of the problem's size.
inline constexpr double kCastTolerance = 1e-12;

struct CastResult {
  QueryStatus status = QueryStatus::kOk;
  bool hit = false;
  // Hit distance along the unit direction (0: started inside or touching).
  double lambda = 0.0;
  // Unit outward normal of the inflated core at the hit (lambda > 0).
  Vec3 normal;
  // The final simplex (vertices: a = core point p, b = CastSupport::b) and
  // its weights: sum lambda_i * b_i is B's closest core point.
  Simplex simplex;
};

// Finishes a converged cast exactly against the feature the simplex names
// (raycast.cc): a face plane, a cylinder or a ball, by a small step only.
void PolishCast(const Simplex& s, const Vec3& d, double r, double scale, double& lambda, Vec3& normal);

// Casts the ray lambda * d (d unit, from the frame's origin), lambda in [0,
// max_lambda], against the core `core` (Support(v) -> CastSupport,
// AnyPoint(), radius()) inflated by its radius.
template <typename Core>
CastResult CastAgainstCore(const Core& core, const Vec3& d, double max_lambda) {
  const double r = core.radius();
  double lambda = 0.0;
  Vec3 x;
  Vec3 n;  // Normal of the last separating plane.
  Simplex s;
  Vec3 v = x - core.AnyPoint();
  double scale = Length(v) + r;
  CastResult miss;
  QueryStatus status = QueryStatus::kNotConverged;
  double previous_lambda = -1.0;
  for (int iter = 0; iter < kCastMaxIterations; ++iter) {
    const double vlen = Length(v);
    if (vlen - r <= kCastTolerance * scale) {
      status = QueryStatus::kOk;
      break;
    }
    const CastSupport sp = core.Support(v);
    const Vec3& p = sp.p;
    scale = std::max(scale, Length(p) + r);
    const Vec3 w = x - p;
    const double vw = Dot(v, w);
    if (vw > r * vlen) {
      // The plane dot(v / |v|, y) = dot(v / |v|, p) + r separates x from the
      // inflated core; advance x to it, or miss if the ray leaves it.
      const double vd = Dot(v, d);
      if (vd >= 0.0) return miss;
      lambda -= (vw - r * vlen) / vd;
      if (lambda > max_lambda) return miss;
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
      // PolishCast() finishes exactly. (In exact arithmetic a repeated
      // support point means v is exact, so this only happens near the hit.)
      status = vlen - r <= 1e-6 * scale ? QueryStatus::kOk : QueryStatus::kNotConverged;
      break;
    }
    previous_lambda = lambda;
    if (!repeated) s.v[s.size++] = {x - p, p, sp.b};
    for (int i = 0; i < s.size; ++i) s.v[i].w = x - s.v[i].a;
    v = ReduceToClosest(s);
    if (s.size == 4) {
      status = QueryStatus::kOk;
      break;
    }
  }
  CastResult hit;
  hit.status = status;
  hit.hit = true;
  hit.simplex = s;
  if (lambda == 0.0) return hit;  // Started inside or on the core.
  // A rounded core: the direction from its closest point; a polytope: the
  // last separating plane, which at convergence supports the shape at the
  // hit point.
  Vec3 normal = r > 0.0 ? NormalizedOr(v, NormalizedOr(n, -d)) : NormalizedOr(n, -d);
  PolishCast(s, d, r, scale, lambda, normal);
  if (!(lambda <= max_lambda)) return miss;
  hit.lambda = lambda;
  hit.normal = normal;
  return hit;
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_CONVEX_CONSERVATIVE_ADVANCEMENT_H_
