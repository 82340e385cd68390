#include <cmath>

#include "query/kernels_convex.h"
#include "query/registry.h"

namespace collide::internal {

RayHit RayCastTriangle(const Ray& ray, const Triangle& tri) {
  // Moeller and Trumbore, "Fast, Minimum Storage Ray/Triangle Intersection",
  // JGT 1997, relative to vertex a for round-off.
  const Vec3 d = ray.direction / Length(ray.direction);
  const Vec3 e1 = tri.b - tri.a;
  const Vec3 e2 = tri.c - tri.a;
  const Vec3 pvec = Cross(d, e2);
  const double det = Dot(e1, pvec);
  // A ray in (or nearly in) the triangle's plane, or a collinear triangle:
  // the hit, if any, is on an edge; the generic cast handles it exactly.
  if (!(std::fabs(det) > 1e-12 * Length(e1) * Length(e2))) return RayCastConvexFallback(ray, tri);
  const double inv = 1.0 / det;
  const Vec3 svec = ray.origin - tri.a;
  const double u = Dot(svec, pvec) * inv;
  RayHit hit;
  if (u < 0.0 || u > 1.0) return hit;
  const Vec3 qvec = Cross(svec, e1);
  const double v = Dot(d, qvec) * inv;
  if (v < 0.0 || u + v > 1.0) return hit;
  const double t = Dot(e2, qvec) * inv;
  if (t < 0.0 || t > ray.max_distance) return hit;
  hit.hit = true;
  if (t == 0.0) {
    // Starts on the (solid, flat) triangle.
    hit.point = ray.origin;
    hit.normal = -d;
    return hit;
  }
  hit.distance = t;
  hit.point = ray.origin + d * t;
  // Hit from either side: the face normal facing the ray origin.
  const Vec3 n = Cross(e1, e2) / Length(Cross(e1, e2));
  hit.normal = Dot(n, d) > 0.0 ? -n : n;
  return hit;
}

}  // namespace collide::internal
