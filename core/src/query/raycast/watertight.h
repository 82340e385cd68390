// The ray/triangle test shared by RayCast(ray, Triangle) and the mesh
// traversal: set a ray up once, then test any number of triangles.
//
// Exact decisions: the ray [0, t_max] hits the closed triangle exactly when
// the exact answer on the double inputs (origin, direction, vertices) says so.
// The edge functions are those of Woop, Benthin and Wald, "Watertight
// Ray/Triangle Intersection" (JCGT 2013): the ray frame's shear (the
// direction's largest axis becomes z) projects the triangle along the ray,
// and U, V, W are the 2D edge functions of the projected edges. They are
// evaluated in double with an error bound (below); a sign the bound cannot
// certify is recomputed exactly (exact_sign.h), as the paper recomputes an
// edge function that is exactly 0 in higher precision. Exact signs make the
// test watertight (a ray through an edge shared by two triangles meets the
// same exact edge function in both: it can never pass between them) and
// exact off the plane (a ray parallel to the triangle's plane, off it by any
// amount, has edge functions of mixed exact signs: a miss).
//
// Coplanar rule: a ray lying exactly in the triangle's plane (all three edge
// functions exactly 0) hits where it first meets the closed triangle: at
// t = 0 when the origin is in it, else where it enters through an edge, with
// that edge's in-plane outward normal (the normal of the solid flat triangle
// there, which faces the ray).
#ifndef COLLIDE_CORE_SRC_QUERY_RAYCAST_WATERTIGHT_H_
#define COLLIDE_CORE_SRC_QUERY_RAYCAST_WATERTIGHT_H_

#include <cstdint>

#include "collide/result.h"
#include "collide/shapes.h"

namespace collide::internal {

// Per-ray constants. t is measured in units of `direction` (as given, not
// normalized, so that the exact decisions are about the caller's numbers).
struct WatertightRay {
  Vec3 origin;
  Vec3 direction;
  int kx = 0, ky = 1, kz = 2;     // kz: the direction's largest axis; cyclic.
  double ox = 0, oy = 0, oz = 0;  // origin in the (kx, ky, kz) frame.
  double sx = 0, sy = 0, sz = 0;  // shear: d[kx]/d[kz], d[ky]/d[kz], 1/d[kz].
  double length = 1;              // |direction|: world distance = t * length.
  Vec3 unit;                      // direction / length.
};
WatertightRay SetUpWatertightRay(const Vec3& origin, const Vec3& direction);

// Where the ray meets a triangle. edge: for a coplanar entry, the edge it
// enters through (0: ab, 1: bc, 2: ca); -1 for a face hit or a start inside.
struct RayTriangleT {
  bool hit = false;
  bool coplanar = false;
  std::int8_t edge = -1;
  double t = 0.0;  // in units of the ray's direction.
};

// Tests the closed, non-degenerate triangle (a, b, c) against the ray over
// 0 <= t <= t_max (t_max in units of the direction; may be +infinity).
RayTriangleT IntersectWatertight(const WatertightRay& ray, const Vec3& a, const Vec3& b, const Vec3& c,
                                 double t_max);

// The RayHit (result.h convention) of a hit that IntersectWatertight found
// within t_max = max_distance / |direction|. Its distance is t * |direction|
// clamped to max_distance: both roundings (of t_max and of the product) may
// carry a hit exactly at max_distance one ulp past it.
RayHit RayHitOnTriangle(const WatertightRay& ray, const Vec3& a, const Vec3& b, const Vec3& c,
                        const RayTriangleT& t, double max_distance);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_RAYCAST_WATERTIGHT_H_
