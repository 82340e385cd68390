#include "support/open_floor.h"

namespace collide::testing {

std::vector<Vec3> OpenFloorPoints(const TriangleMesh& mesh, std::mt19937_64& rng, int count) {
  const Aabb b = mesh.bounds();
  const auto uniform = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  std::vector<Vec3> out;
  while (static_cast<int>(out.size()) < count) {
    const Vec3 p{uniform(b.min.x, b.max.x), uniform(b.min.y, b.max.y), uniform(b.min.z, b.max.z)};
    const MeshRayHit floor = RayCastClosest(mesh, Ray{p, {0, 0, -1}, kInfinity});
    if (!floor.hit || floor.normal.z < 0.7) continue;
    const Vec3 feet = floor.point + Vec3{0, 0, 1};
    const Aabb box{feet - Vec3{kPlayerHalfWidth, kPlayerHalfWidth, 0},
                   feet + Vec3{kPlayerHalfWidth, kPlayerHalfWidth, kPlayerHeight}};
    if (QueryMesh(QueryLevel::kIntersect, box, mesh).result.hit) continue;
    const Vec3 eye = feet + Vec3{0, 0, kPlayerEyeHeight};
    bool enclosed = true;
    for (const Vec3& d : {Vec3{1, 0, 0}, Vec3{-1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, -1, 0}, Vec3{0, 0, 1}}) {
      enclosed = enclosed && RayBlocked(mesh, Ray{eye, d, kInfinity});
    }
    if (enclosed) out.push_back(feet);
  }
  return out;
}

}  // namespace collide::testing
