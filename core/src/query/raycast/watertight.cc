#include "query/raycast/watertight.h"

#include <algorithm>
#include <cmath>

#include "query/raycast/exact_sign.h"

namespace collide::internal {
namespace {

static_assert(sizeof(Vec3) == 3 * sizeof(double), "Vec3 is read as three consecutive doubles");
inline double Coord(const Vec3& v, int k) { return (&v.x)[k]; }

constexpr double kEps = 0x1p-53;  // unit round-off of double.
// |U_computed - U_exact| <= kEdgeBound * m^2, m the largest |coordinate| of
// the triangle relative to the origin. Each sheared coordinate x' = x -
// s*z (|s| <= 1 because z is the largest direction axis) is within 6 eps m
// of exact and at most 2m; each product of the 2D cross product is then
// within 28 eps m^2, the difference adds 8 eps m^2: 64 eps m^2 in all.
// Doubled for margin.
constexpr double kEdgeBound = kWatertightEdgeBound;
static_assert(kEdgeBound == 128 * kEps);

// The fast path's t is used when its relative error is at most 1 / this.
constexpr double kFastTRelative = 0x1p32;

struct Sheared {
  double x, y, z;  // z: the unsheared z relative to the origin.
};

// The exact coplanar case. In-plane orientations are exact triple products
// with the axis e_k of the normal's largest component (the projection along
// e_k keeps the triangle non-degenerate). The ray meets the closed triangle
// when its origin is inside, or when it meets an edge at t >= 0: the edge's
// ends are not strictly on one side of the ray's line, and the crossing's
// parameter (or, for an edge along the line, an end) is not behind the
// origin. The entry distance is a ratio of exact determinants rounded to
// nearest (3 eps relative), or for an edge along the line a double dot
// product of parallel vectors (no cancellation: a few eps).
RayTriangleT CoplanarEntry(const WatertightRay& r, const Vec3& a, const Vec3& b, const Vec3& c,
                           double t_max) {
  const Vec3 v[3] = {a, b, c}, zero{}, o = r.origin, d = r.direction;
  const Vec3 n = Cross(b - a, c - a);
  const Vec3 an = Abs(n);
  int k = an.x >= an.y ? (an.x >= an.z ? 0 : 2) : (an.y >= an.z ? 1 : 2);
  Vec3 axis;
  int sigma = 0;
  for (int tries = 0; tries < 3 && sigma == 0; ++tries, k = (k + 1) % 3) {
    axis = Vec3{};
    axis[k] = 1.0;
    sigma = ExactTripleSign(b, a, c, a, axis, zero);
  }
  if (sigma == 0) return {};  // zero area: never reached for the callers' triangles.
  bool inside = true;
  for (int e = 0; e < 3 && inside; ++e) {
    inside = sigma * ExactTripleSign(v[(e + 1) % 3], v[e], o, v[e], axis, zero) >= 0;
  }
  if (inside) return {true, true, -1, 0.0};
  const double dd = Dot(d, d);
  // The entry is the nearest crossing of an edge the ray enters through
  // (sigma * det[q - p, d, e_k] >= 0: the inside lies ahead) or runs along;
  // a leaving edge only when no such edge is met (a graze at a vertex).
  double t_best = kInfinity, t_leave = kInfinity;
  int entry = -1, leave = -1;
  for (int e = 0; e < 3; ++e) {
    const Vec3& p = v[e];
    const Vec3& q = v[(e + 1) % 3];
    // Sides of p and q relative to the ray's line: det[d, x - o, e_k].
    const int sp = ExactTripleSign(d, zero, p, o, axis, zero);
    const int sq = ExactTripleSign(d, zero, q, o, axis, zero);
    if (sp * sq > 0) continue;
    double t;
    if (sp == 0 && sq == 0) {
      // Along the line: the nearer end not behind the origin (the sign of
      // (x - o) . d is that of (x_j - o_j) d_j on d's largest axis j).
      const int j = r.kz;
      auto ahead = [&](const Vec3& x) { return (Coord(x, j) - Coord(o, j)) * Coord(d, j) >= 0.0; };
      const bool pa = ahead(p), qa = ahead(q);
      if (!pa && !qa) continue;
      // (One end behind would put the origin on the edge: inside, above.)
      t = std::max(std::min(pa ? Dot(p - o, d) / dd : kInfinity, qa ? Dot(q - o, d) / dd : kInfinity), 0.0);
    } else {
      // Crossing at t = det[p - o, q - p, e_k] / det[d, q - p, e_k] >= 0
      // (the denominator is not 0: p and q are not on the line, nor on one
      // side of it).
      const double num = ExactTriple(p, o, q, p, axis, zero);
      const double den = ExactTriple(d, zero, q, p, axis, zero);
      if ((num < 0.0 && den > 0.0) || (num > 0.0 && den < 0.0)) continue;
      t = num == 0.0 ? 0.0 : num / den;
    }
    if (sigma * ExactTripleSign(q, p, d, zero, axis, zero) >= 0) {
      if (t < t_best) t_best = t, entry = e;
    } else if (t < t_leave) {
      t_leave = t, leave = e;
    }
  }
  if (entry < 0) t_best = t_leave, entry = leave;
  if (entry < 0 || !(t_best <= t_max)) return {};
  return {true, true, static_cast<std::int8_t>(t_best == 0.0 ? -1 : entry), t_best};
}

// The exact decision once the exact edge functions are known to be neither
// of mixed signs nor all 0; edge_sign: the sign of those not 0. They are
// E_U = dot(d, C x B) = U * d[kz] with C = c - o, B = b - o; likewise V, W.
// Not inlined: the rare path would cost the fast one registers.
[[gnu::noinline]] RayTriangleT ExactPlaneT(const WatertightRay& r, const Vec3& a, const Vec3& b,
                                           const Vec3& c, double t_max, double m, int edge_sign) {
  const Vec3 zero{}, o = r.origin, d = r.direction;
  // The plane equation dot(n, o + t d - a) = 0 with n = (b - a) x (c - a):
  // t = det[b - a, c - a, a - o] / det[b - a, c - a, d], where the
  // denominator dot(n, d) = -(E_U + E_V + E_W) is not 0 and of sign
  // -edge_sign. Both exact determinants rounded to nearest (half an ulp
  // each, exact signs, exact_sign.h), then divided: t within 3 eps
  // (relative) at any tilt, however the double plane equation would cancel.
  const double num = ExactTriple(b, a, c, a, a, o);
  const int sign_t = ((num > 0.0) - (num < 0.0)) * -edge_sign;
  if (sign_t < 0) return {};
  if (sign_t == 0) return {true, false, -1, 0.0};
  // t > 0 exactly, kept within (0, m / |d|_inf], the bound any point of the
  // triangle satisfies (rounding could only cross either end by ulps).
  const double t_bound = m / std::fabs(Coord(d, r.kz));
  double t = num / ExactTriple(b, a, c, a, d, zero);
  if (!(t > 0.0)) t = 0x1p-1074;
  if (!(t <= t_bound)) t = t_bound;
  if (t > t_max) return {};
  return {true, false, -1, t};
}

// Exact decision for the cases the filter could not certify (not inlined
// either).
[[gnu::noinline]] RayTriangleT ExactTest(const WatertightRay& r, const Vec3& a, const Vec3& b, const Vec3& c,
                                         double t_max, double m) {
  const Vec3 zero{}, o = r.origin, d = r.direction;
  const int eu = ExactTripleSign(d, zero, c, o, b, o);
  const int ev = ExactTripleSign(d, zero, a, o, c, o);
  const int ew = ExactTripleSign(d, zero, b, o, a, o);
  if ((eu < 0 || ev < 0 || ew < 0) && (eu > 0 || ev > 0 || ew > 0)) return {};
  if (eu == 0 && ev == 0 && ew == 0) return CoplanarEntry(r, a, b, c, t_max);
  return ExactPlaneT(r, a, b, c, t_max, m, eu + ev + ew > 0 ? 1 : -1);
}

}  // namespace

WatertightRay SetUpWatertightRay(const Vec3& origin, const Vec3& direction) {
  WatertightRay r;
  r.origin = origin;
  r.direction = direction;
  const Vec3 ad = Abs(direction);
  r.kz = ad.x >= ad.y ? (ad.x >= ad.z ? 0 : 2) : (ad.y >= ad.z ? 1 : 2);
  r.kx = (r.kz + 1) % 3;
  r.ky = (r.kz + 2) % 3;
  r.ox = Coord(origin, r.kx);
  r.oy = Coord(origin, r.ky);
  r.oz = Coord(origin, r.kz);
  const double dz = Coord(direction, r.kz);
  r.sx = Coord(direction, r.kx) / dz;
  r.sy = Coord(direction, r.ky) / dz;
  r.sz = 1.0 / dz;
  const LengthAndUnit lu = LengthAndUnitOf(direction, LengthSquared(direction));
  r.length = lu.length;
  r.unit = lu.unit;
  return r;
}

RayTriangleT IntersectWatertight(const WatertightRay& r, const Vec3& a, const Vec3& b, const Vec3& c,
                                 double t_max) {
  // Vertices relative to the origin, in the ray frame.
  const double az = Coord(a, r.kz) - r.oz, bz = Coord(b, r.kz) - r.oz, cz = Coord(c, r.kz) - r.oz;
  const double ax0 = Coord(a, r.kx) - r.ox, bx0 = Coord(b, r.kx) - r.ox, cx0 = Coord(c, r.kx) - r.ox;
  const double ay0 = Coord(a, r.ky) - r.oy, by0 = Coord(b, r.ky) - r.oy, cy0 = Coord(c, r.ky) - r.oy;
  // Shear along the ray: the ray becomes the z axis.
  const double ax = ax0 - r.sx * az, ay = ay0 - r.sy * az;
  const double bx = bx0 - r.sx * bz, by = by0 - r.sy * bz;
  const double cx = cx0 - r.sx * cz, cy = cy0 - r.sy * cz;
  const double u = cx * by - cy * bx;
  const double v = ax * cy - ay * cx;
  const double w = bx * ay - by * ax;
  const double ma = std::max(std::max(std::fabs(ax0), std::fabs(ay0)), std::fabs(az));
  const double mb = std::max(std::max(std::fabs(bx0), std::fabs(by0)), std::fabs(bz));
  const double mc = std::max(std::max(std::fabs(cx0), std::fabs(cy0)), std::fabs(cz));
  const double m = std::max(std::max(ma, mb), mc);
  const double e = kEdgeBound * m * m;
  const bool pos = u > e || v > e || w > e;
  const bool neg = u < -e || v < -e || w < -e;
  if (pos && neg) return {};  // certainly outside an edge.
  const bool certain = (u > e && v > e && w > e) || (u < -e && v < -e && w < -e);
  if (!certain) return ExactTest(r, a, b, c, t_max, m);
  // Woop et al.: t = (U az + V bz + W cz) / (U + V + W) / d[kz], used only
  // where it is within 2^-32 (relative) of the exact t; else (a ray within
  // ~3e-6 rad of the plane, an origin within rounding of it) the exact test
  // computes t from exact determinants (3 eps). The bound, to first order:
  //  - each computed edge function is within e' = 64 eps m h of exact, h the
  //    largest |sheared coordinate| (each within 4 eps m + eps h, the
  //    cross product's products then within eps h^2 + 2h (4 eps m + eps h),
  //    its difference adds 2 eps h^2: 16 eps m h + 8 eps h^2 <= 32 eps m h,
  //    doubled for margin);
  //  - the weights u_i / det sum to 1, so edge function errors d_i move t by
  //    sz sum d_i (z_i - z_hit) / det, and z_hit lies between the z_i (the
  //    weights are all positive): |sz| 3 e' zs / |det|, zs the spread of the
  //    exact z_i, at most the computed spread plus 2 eps m;
  //  - the rounding of the z_i (eps m each) and of the products and sums
  //    (3 eps of sum |u_i z_i|) add |sz| 4 eps m S / |det|, S = sum |u_i| =
  //    |det| to rounding (doubled below), and sz, det and the division 5 eps
  //    of t.
  // Relative to |t| = |t_num / det|: q = |sz| (3 e' zs + 4 eps m S) / |t_num|,
  // so |t_num| > 2^32 times that numerator gives a relative error <= 2^-32 +
  // 5 eps (~2.3e-10), the exact t's sign included. Conversely, det = dot(n,
  // d) / d[kz] <= 16 sqrt(3) sin h zs / (1 - sqrt(3) sin) for a ray at angle
  // asin(sin) to the plane (n's components across the ray are sheared
  // edge products, each <= 4 h zs), and |t_num| <= m |sz det|: every ray with
  // sin < 3.3e-6 takes the exact test. Ordinary hits have q around 2^-44
  // (the median on mesh_bench's aggressor and terrain rays).
  const double det = u + v + w;
  const double t_num = (u * az + v * bz + w * cz) * r.sz;
  const double h =
      std::max(std::max(std::max(std::fabs(ax), std::fabs(ay)), std::max(std::fabs(bx), std::fabs(by))),
               std::max(std::fabs(cx), std::fabs(cy)));
  const double zs = std::max(std::max(az, bz), cz) - std::min(std::min(az, bz), cz) + 2 * kEps * m;
  const double t_err = kFastTRelative * kEps * std::fabs(r.sz) * m * (192 * h * zs + 8 * std::fabs(det));
  // Here the edge functions are certain, all of u's sign: the exact ones
  // (E_U = U d[kz]) need not be recomputed, only t.
  if (!(std::fabs(t_num) > t_err)) {
    return ExactPlaneT(r, a, b, c, t_max, m, (u > 0.0) == (r.sz > 0.0) ? 1 : -1);
  }
  if ((t_num < 0.0) != (det < 0.0)) return {};
  const double t = t_num / det;
  if (t > t_max) return {};
  return {true, false, -1, t};
}

RayHit RayHitOnTriangle(const WatertightRay& r, const Vec3& a, const Vec3& b, const Vec3& c,
                        const RayTriangleT& t, double max_distance) {
  RayHit hit;
  hit.hit = true;
  if (t.t == 0.0) {
    // Starts on the (solid, flat) triangle: result.h's rule.
    hit.point = r.origin;
    hit.normal = -r.unit;
    return hit;
  }
  hit.distance = std::min(t.t * r.length, max_distance);
  hit.point = r.origin + r.unit * hit.distance;
  const Vec3 n = NormalizedOr(Cross(b - a, c - a), Vec3{0, 0, 1});
  if (t.coplanar) {
    // The entry edge's in-plane outward normal.
    const Vec3 v[3] = {a, b, c};
    const Vec3& p = v[t.edge];
    Vec3 m = NormalizedOr(Cross(v[(t.edge + 1) % 3] - p, n), -r.unit);
    if (Dot(m, v[(t.edge + 2) % 3] - p) > 0.0) m = -m;
    hit.normal = m;
    return hit;
  }
  hit.normal = Dot(n, r.direction) > 0.0 ? -n : n;
  return hit;
}

}  // namespace collide::internal
