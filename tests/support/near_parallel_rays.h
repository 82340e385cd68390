// Issue 14 class 4: rays parallel (or nearly) to a triangle's plane, off it
// by ~1e-12 of the scene scale, exactly in it, or crossing it at a grazing
// angle; seeded, with an exact reference independent of the kernels.
#ifndef COLLIDE_TESTS_SUPPORT_NEAR_PARALLEL_RAYS_H_
#define COLLIDE_TESTS_SUPPORT_NEAR_PARALLEL_RAYS_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "collide/shapes.h"

namespace collide::testing {

enum class NearParallelClass {
  kOffPlaneAxis,    // triangle in an axis plane, ray exactly parallel, 1e-12 * scale off it.
  kOffPlaneTilted,  // any plane, ray along an edge (parallel to rounding), 1e-12 * scale off it.
  kCoplanar,        // ray exactly in the plane (dyadic coordinates): through, along edges, past.
  kGrazing,         // ray crossing the plane at 1e-12..1e-9 rad, near the edges.
};
inline constexpr NearParallelClass kAllNearParallelClasses[] = {
    NearParallelClass::kOffPlaneAxis, NearParallelClass::kOffPlaneTilted, NearParallelClass::kCoplanar,
    NearParallelClass::kGrazing};
std::string_view NearParallelClassName(NearParallelClass c);

struct RayTriangleCase {
  Ray ray;
  Triangle triangle;
  double scale;  // scene scale: 1e-3, 1 or 1e3.
};
std::vector<RayTriangleCase> MakeNearParallelCases(NearParallelClass c, int count, std::uint64_t seed);

// The exact answer on the case's double inputs, in rational arithmetic
// (GMP's mpq_class): every sign and the hit parameter are exact; only the
// returned values are rounded. certain == false only for a hit within 1e-9
// (relative) of the ray's max_distance, which the kernel tests in double.
struct ReferenceRayTriangle {
  bool certain = true;
  bool hit = false;
  bool coplanar = false;
  double distance = 0.0;  // world distance of the hit (rounded from binary128).
  // The hit's t (units of the direction) and world distance t * |d| to
  // binary128 precision (2^-105 relative), for judging errors of a few ulps.
  __float128 t_fine = 0, distance_fine = 0;
};
ReferenceRayTriangle ReferenceRayCast(const Ray& ray, const Triangle& triangle);

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_NEAR_PARALLEL_RAYS_H_
