// Watertightness on real meshes (issue 16): rays aimed where float ray
// tracers slip (a mesh's own vertices and edges, sight lines grazing them),
// and the exact answer for each, independent of collide's BVH and of its
// ray/triangle kernel. Shared by core_mesh_map_test (thousands of rays) and
// bench/mesh_watertight (a million per map, with Embree's and Bullet's
// answers on the same rays).
#ifndef COLLIDE_TESTS_SUPPORT_WATERTIGHT_RAYS_H_
#define COLLIDE_TESTS_SUPPORT_WATERTIGHT_RAYS_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "collide/mesh_data.h"
#include "collide/shapes.h"

namespace collide::testing {

// Eye points are 48 units above random floors (Quake units: a player's eye).
enum class WatertightRayKind {
  kVertex,  // eye -> a mesh vertex, on to twice the distance.
  kEdge,    // eye -> a quarter, half or three-quarter point of a mesh edge (exact in binary), on to twice.
  kSight,   // eye -> eye, bounded: line of sight.
  kSightGraze,  // eye -> a vertex or an edge point, bounded at it: a sight line ending on an edge.
  kIncoherent,  // eye -> a uniformly random direction, unbounded.
};
inline constexpr int kWatertightRayKinds = 5;
std::string_view WatertightRayKindName(WatertightRayKind k);

struct WatertightRay {
  Ray ray;  // unit direction.
  WatertightRayKind kind;
};
// `count` rays cycling through the kinds, seeded. The mesh needs a floor
// (a triangle within 45 degrees of facing +z or -z).
std::vector<WatertightRay> MakeWatertightRays(const MeshData& mesh, int count, std::uint64_t seed);

// The exact closest hit of rays on a mesh's triangles (zero-area ones left
// out, as TriangleMesh does). Candidates come from a median-split binary
// tree of double boxes padded by 1e-9 of the scene's size (so round-off in
// the slab test cannot drop a triangle), visited in order of their boxes'
// entry; each candidate's edge functions and plane distance are evaluated in
// double with Shewchuk's orient3d error bound, and every sign the bound does
// not certify (a ray through an edge or vertex, in a plane), or a distance
// it does not give to 1e-9, is recomputed in rational arithmetic
// (ReferenceRayCast, near_parallel_rays.h).
class MeshRayReference {
 public:
  explicit MeshRayReference(const MeshData& mesh);

  struct Answer {
    bool hit = false;
    // false when a hit lies within 1e-9 (relative) of the ray's
    // max_distance, where a double range test may go either way.
    bool certain = true;
    double distance = 0.0;       // of the nearest hit (rounded).
    std::uint32_t triangle = 0;  // a nearest triangle.
  };
  Answer Closest(const Ray& ray) const;
  // The exact answer for one triangle (index in MeshData::triangles); a
  // zero-area triangle is never hit.
  Answer Single(const Ray& ray, std::uint32_t triangle) const;

  std::size_t degenerate_count() const { return degenerate_; }
  // Candidates decided in rational arithmetic, and all candidates tested.
  std::uint64_t exact_evaluations() const { return exact_; }
  std::uint64_t candidate_tests() const { return tests_; }

 private:
  struct Node {
    Vec3 lo, hi;
    // Leaf: triangles order_[first, first + count). Inner: count == 0,
    // children first and right.
    std::uint32_t first, count, right;
  };
  std::uint32_t Build(std::uint32_t begin, std::uint32_t end);
  // Entry parameter of the ray into the padded box [lo, hi] within
  // [0, tmax], or -1 when it misses.
  double Entry(const Ray& ray, const Vec3& lo, const Vec3& hi, double tmax) const;

  std::vector<Triangle> tris_;
  std::vector<bool> queryable_;
  std::vector<Vec3> tri_lo_, tri_hi_;
  std::vector<std::uint32_t> order_;
  std::vector<Node> nodes_;
  double pad_ = 0.0;
  std::size_t degenerate_ = 0;
  mutable std::uint64_t exact_ = 0, tests_ = 0;
};

// The reference is computed on the ray extended by kJudgeReach (so that a
// hit just past the range end is known), and answers are judged with a
// distance tolerance tol (relative: tol * (1 + distance)): 1e-9 for
// collide's double answers, 1e-3 for float peers.
inline constexpr double kJudgeReach = 2e-3;
Ray ExtendedForJudging(const Ray& ray);

enum class Verdict {
  kAgree,
  kMissed,     // no hit, or a hit past the exact nearest one: went through a wall.
  kPhantom,    // a hit where the exact answer has none, or before the nearest one.
  kUncertain,  // the exact nearest hit is within tol of the range's end.
};
// A closest-hit answer (hit, distance) for `ray`, against `ref`, the exact
// answer on ExtendedForJudging(ray).
Verdict JudgeClosest(const MeshRayReference::Answer& ref, const Ray& ray, double tol, bool hit,
                     double distance);
// A line-of-sight answer (blocked within the range), the same way.
Verdict JudgeBlocked(const MeshRayReference::Answer& ref, const Ray& ray, double tol, bool blocked);

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_WATERTIGHT_RAYS_H_
