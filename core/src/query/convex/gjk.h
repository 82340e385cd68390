// GJK distance between two convex cores (support.h), with the signed-volumes
// distance sub-algorithm of Montanari, Petrinic and Barbieri, "Improving the
// GJK algorithm for faster and more reliable distance queries between convex
// objects", ACM TOG 36(3), 2017.
#ifndef COLLIDE_CORE_SRC_QUERY_CONVEX_GJK_H_
#define COLLIDE_CORE_SRC_QUERY_CONVEX_GJK_H_

#include "collide/result.h"
#include "query/convex/support.h"

namespace collide::internal {

// A vertex of the Minkowski difference A - B, w = a - b, with the support
// points of A and B that made it (the ray cast uses w = x - a, b unused).
struct SimplexVertex {
  Vec3 w;
  Vec3 a;
  Vec3 b;
};

// Up to four vertices and the barycentric weights of the point of their hull
// closest to the origin.
struct Simplex {
  SimplexVertex v[4];
  double lambda[4] = {1.0, 0.0, 0.0, 0.0};
  int size = 0;
};

// Signed-volumes sub-algorithm: replaces `s` by its smallest face whose
// relative interior holds the point of conv(s.v[].w) closest to the origin,
// sets the weights, and returns that point. A result of size 4 means the
// origin is inside the tetrahedron (the returned point is then zero).
Vec3 ReduceToClosest(Simplex& s);

// Most GJK iterations. A polytope pair converges exactly in a few dozen at
// most; the cap only guards against round-off cycling.
inline constexpr int kGjkMaxIterations = 128;
// Stop when the gap between the upper bound |v| and the lower bound
// dot(v, w) / |v| of the core distance is within this fraction of |v|.
inline constexpr double kGjkRelativeTolerance = 1e-12;
// Cores closer than this fraction of the Minkowski difference's size count
// as touching (EPA then decides the depth).
inline constexpr double kGjkTouchTolerance = 1e-13;
// An early exit needs the lower bound beyond stop_beyond by this fraction of
// the size (so touching shapes get the same answer as without early exit).
inline constexpr double kGjkEarlyExitMargin = 1e-10;

struct GjkResult {
  // kNotConverged when the iteration cap was hit.
  QueryStatus status = QueryStatus::kOk;
  // The cores touch or overlap; `simplex` then holds the origin (EPA's start)
  // and point_a ~= point_b is a point in both cores.
  bool overlap = false;
  // Distance between the cores; a lower bound when the search stopped early
  // because the cores are farther apart than `stop_beyond`.
  double distance = 0.0;
  // Closest points of the cores (in the cores' shifted frame).
  Vec3 point_a;
  Vec3 point_b;
  Simplex simplex;
  // Largest |w| seen: the size for relative tolerances.
  double scale = 0.0;
};

// Distance between the cores of `a` and `b` (radii ignored). Stops early,
// with `distance` a lower bound, once the cores are proven farther apart
// than `stop_beyond` (the intersect level passes rA + rB).
GjkResult GjkDistance(const ConvexCore& a, const ConvexCore& b, double stop_beyond = kInfinity);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_CONVEX_GJK_H_
