#include "support/open_floor.h"

namespace collide::testing {

namespace {

// The number of shells holding p: the signed crossings of the ray up from p
// (+1 through a triangle facing up).
int Winding(const TriangleMesh& solids, const Vec3& p) {
  std::vector<MeshRayHit> hits;
  RayCastAll(solids, Ray{p, {0, 0, 1}, kInfinity}, 1u << 20, hits);
  int w = 0;
  for (const MeshRayHit& h : hits) {
    const Triangle t = solids.triangle(h.triangle);
    const double nz = Cross(t.b - t.a, t.c - t.a).z;
    w += nz > 0 ? 1 : (nz < 0 ? -1 : 0);
  }
  return w;
}

}  // namespace

std::vector<Vec3> OpenFloorPoints(const TriangleMesh& mesh, const TriangleMesh* solids, std::mt19937_64& rng,
                                  int count) {
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
    if (solids != nullptr && (Winding(*solids, eye) != 0 || Winding(*solids, feet) != 0)) continue;
    if (enclosed) out.push_back(feet);
  }
  return out;
}

}  // namespace collide::testing
