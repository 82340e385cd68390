// Penetration depth of two overlapping convex cores by the Expanding
// Polytope Algorithm (van den Bergen, "Proximity Queries and Penetration
// Depth Computation on 3D Game Objects", GDC 2001), started from the
// simplex GJK ends with.
#ifndef COLLIDE_CORE_SRC_QUERY_CONVEX_EPA_H_
#define COLLIDE_CORE_SRC_QUERY_CONVEX_EPA_H_

#include "collide/result.h"
#include "query/convex/gjk.h"
#include "query/convex/support.h"

namespace collide::internal {

// Caps on the polytope: most support points added, and most faces.
inline constexpr int kEpaMaxVertices = 1024;
inline constexpr int kEpaMaxFaces = 4096;
// A face is final when the support point along its normal is within this
// fraction of the Minkowski difference's size beyond its plane.
inline constexpr double kEpaTolerance = 1e-12;
// A Minkowski difference thinner than this fraction of its size in some
// direction is flat (or a segment, or a point): no volume, depth 0.
inline constexpr double kEpaFlatTolerance = 1e-12;

struct EpaResult {
  QueryStatus status = QueryStatus::kOk;
  // Penetration depth of the cores, >= 0; 0 when they only touch or the
  // Minkowski difference has no volume.
  double depth = 0.0;
  // Unit direction to move B to separate (from A towards B). When the
  // difference is flat: its plane normal; a segment: a perpendicular; a
  // point: +x; signs preferring +x, then +y, then +z.
  Vec3 normal;
  // Deepest points of the cores: point_a - point_b == depth * normal.
  Vec3 point_a;
  Vec3 point_b;
};

// `n` or -n, whichever has its first clearly non-zero component (|c| >
// 1e-9, in x, y, z order) positive: the deterministic sign of a normal whose
// sign the geometry leaves open (a flat Minkowski difference).
Vec3 PreferPositiveSign(const Vec3& n);

// `gjk` must report overlap.
EpaResult EpaPenetration(const ConvexCore& a, const ConvexCore& b, const GjkResult& gjk);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_CONVEX_EPA_H_
