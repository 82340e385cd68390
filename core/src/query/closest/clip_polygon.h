// Convex polygons clipped by axis-aligned planes (Sutherland-Hodgman), in a
// box's frame: the incident face of box-box contacts, the part of a triangle
// inside a box.
#ifndef COLLIDE_CORE_SRC_QUERY_CLOSEST_CLIP_POLYGON_H_
#define COLLIDE_CORE_SRC_QUERY_CLOSEST_CLIP_POLYGON_H_

#include "collide/math.h"

namespace collide::internal {

// Convex polygon of at most 12 vertices (a quadrilateral or a triangle
// clipped by six planes, each adding at most one vertex).
struct Polygon {
  Vec3 v[12];
  int n = 0;
};

// Sutherland-Hodgman step: keeps the part with sign * x_k <= limit.
inline void ClipPolygon(Polygon& poly, int k, double sign, double limit) {
  Polygon out;
  for (int m = 0; m < poly.n; ++m) {
    const Vec3& cur = poly.v[m];
    const Vec3& next = poly.v[(m + 1) % poly.n];
    const double dc = sign * cur[k] - limit;
    const double dn = sign * next[k] - limit;
    if (dc <= 0.0) out.v[out.n++] = cur;
    if ((dc <= 0.0) != (dn <= 0.0)) out.v[out.n++] = cur + (next - cur) * (dc / (dc - dn));
  }
  poly = out;
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_CLOSEST_CLIP_POLYGON_H_
