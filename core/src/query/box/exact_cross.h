// Cross products accurate to ~1 ulp per component however much they cancel,
// for axes whose direction must survive nearly parallel inputs (box-box edge
// axes, sliver triangles' normals).
#ifndef COLLIDE_CORE_SRC_QUERY_BOX_EXACT_CROSS_H_
#define COLLIDE_CORE_SRC_QUERY_BOX_EXACT_CROSS_H_

#include <cmath>

#include "collide/math.h"

namespace collide::internal {

// p q - r s to ~1 ulp of the result (Kahan; Jeannerod, Louvet and Muller,
// "Further analysis of Kahan's algorithm for the accurate computation of
// 2x2 determinants", Math. Comp. 2013): w = r s rounded, e its exact error.
inline double DifferenceOfProducts(double p, double q, double r, double s) {
  const double w = r * s;
  const double e = std::fma(-r, s, w);
  return std::fma(p, q, -w) + e;
}

inline Vec3 ExactCross(const Vec3& u, const Vec3& v) {
  return {DifferenceOfProducts(u.y, v.z, u.z, v.y), DifferenceOfProducts(u.z, v.x, u.x, v.z),
          DifferenceOfProducts(u.x, v.y, u.y, v.x)};
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_BOX_EXACT_CROSS_H_
