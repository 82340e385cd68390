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
#include "simd/double2.h"

namespace collide::internal {

// |U_computed - U_exact| <= kWatertightEdgeBound * m^2, m the largest
// |coordinate| of the triangle relative to the origin (watertight.cc says
// why).
inline constexpr double kWatertightEdgeBound = 128 * 0x1p-53;

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
// 0 <= t <= t_max (t_max in units of the direction; may be +infinity). A
// hit's t is within 3 eps of the exact t (relative) for a ray within 3.3e-6
// rad of the plane, however grazing, and 2^-32 + 5 eps for others
// (watertight.cc derives both).
RayTriangleT IntersectWatertight(const WatertightRay& ray, const Vec3& a, const Vec3& b, const Vec3& c,
                                 double t_max);

// Two triangles at once (two double lanes): bit i set when triangle i
// (a[i], b[i], c[i]) certainly misses by IntersectWatertight's first test (an
// edge function certainly positive and another certainly negative). Scalar
// meaning, lane by lane, in IntersectWatertight's order of operations:
//   a0 = a - origin (in the ray's kx, ky, kz frame), the same for b and c;
//   ax = a0x - sx a0z, ay = a0y - sy a0z, the same for b and c;
//   u = cx by - cy bx, v = ax cy - ay cx, w = bx ay - by ax;
//   m = max |coordinate| of a0, b0, c0; e = kWatertightEdgeBound m m;
//   miss = (u > e || v > e || w > e) && (u < -e || v < -e || w < -e).
// Max equals std::max on these never-NaN absolute values, so the bit is set
// exactly when IntersectWatertight returns that miss; a leaf loop tests only
// the others with it, and answers stay bit-identical.
inline int CertainMissPair(const WatertightRay& r, const Vec3* const a[2], const Vec3* const b[2],
                           const Vec3* const c[2]) {
  const auto lanes = [](const Vec3* const p[2], int k) { return Gather(&p[0]->x + k, &p[1]->x + k); };
  const Double2 ox = Splat2(r.ox), oy = Splat2(r.oy), oz = Splat2(r.oz);
  const Double2 sx = Splat2(r.sx), sy = Splat2(r.sy);
  const Double2 az = lanes(a, r.kz) - oz, bz = lanes(b, r.kz) - oz, cz = lanes(c, r.kz) - oz;
  const Double2 ax0 = lanes(a, r.kx) - ox, bx0 = lanes(b, r.kx) - ox, cx0 = lanes(c, r.kx) - ox;
  const Double2 ay0 = lanes(a, r.ky) - oy, by0 = lanes(b, r.ky) - oy, cy0 = lanes(c, r.ky) - oy;
  const Double2 ax = ax0 - sx * az, ay = ay0 - sy * az;
  const Double2 bx = bx0 - sx * bz, by = by0 - sy * bz;
  const Double2 cx = cx0 - sx * cz, cy = cy0 - sy * cz;
  const Double2 u = cx * by - cy * bx;
  const Double2 v = ax * cy - ay * cx;
  const Double2 w = bx * ay - by * ax;
  const auto abs_max3 = [](Double2 p, Double2 q, Double2 t) { return Max(Max(Abs(p), Abs(q)), Abs(t)); };
  const Double2 m = Max(Max(abs_max3(ax0, ay0, az), abs_max3(bx0, by0, bz)), abs_max3(cx0, cy0, cz));
  const Double2 e = (Splat2(kWatertightEdgeBound) * m) * m;
  const Double2 ne = -e;
  const Double2 pos = (u > e) | (v > e) | (w > e);
  const Double2 neg = (u < ne) | (v < ne) | (w < ne);
  return MoveMask(pos & neg);
}

// The RayHit (result.h convention) of a hit that IntersectWatertight found
// within t_max = max_distance / |direction|. Its distance is t * |direction|
// clamped to max_distance: both roundings (of t_max and of the product) may
// carry a hit exactly at max_distance one ulp past it.
RayHit RayHitOnTriangle(const WatertightRay& ray, const Vec3& a, const Vec3& b, const Vec3& c,
                        const RayTriangleT& t, double max_distance);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_RAYCAST_WATERTIGHT_H_
