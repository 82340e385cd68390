// Ray casts against a mesh: closest, any and all hits, one traversal each
// (bvh_traverse.h) with the exact watertight triangle test (watertight.h).
#include <algorithm>
#include <cmath>

#include "collide/mesh.h"
#include "mesh/bvh.h"
#include "mesh/bvh_traverse.h"
#include "query/raycast/watertight.h"

namespace collide {
namespace {

using internal::BvhTriangle;
using internal::RayTriangleT;

// False for a ray that cannot hit (empty mesh, zero or non-finite direction).
bool CanHit(const TriangleMesh& mesh, const Ray& ray) {
  return !mesh.bvh().nodes.empty() && IsFinite(ray.origin) && IsFinite(ray.direction) &&
         LengthSquared(ray.direction) != 0.0 && ray.max_distance >= 0.0;
}

// The farthest distance to a mesh point bounds the drift of a ray whose tiny
// direction components the box test rounds up (bvh_traverse.h); only such
// rays need it.
double DriftBound(const TriangleMesh& mesh, const Vec3& origin, const Vec3& unit) {
  const Vec3 u = Abs(unit);
  if (u.x >= 1e-30 && u.y >= 1e-30 && u.z >= 1e-30) return 0.0;
  const Aabb& b = mesh.bounds();
  return Length(Max(Abs(origin - b.min), Abs(origin - b.max)));
}

// What every ray query sets up once (for a ray that CanHit), each part
// built in place.
struct MeshRay {
  MeshRay(const TriangleMesh& mesh, const Ray& r)
      : ray(internal::SetUpWatertightRay(r.origin, r.direction)),
        boxes(internal::SetUpRayBoxes(r.origin, ray.unit, DriftBound(mesh, r.origin, ray.unit))),
        t_max(r.max_distance / ray.length),
        max_distance(r.max_distance) {}
  const internal::WatertightRay ray;
  const internal::RayBoxes boxes;
  const double t_max;  // in units of the ray direction.
  const double max_distance;
};

// World distance t (in direction units) as a float bound at least as large,
// with slack for |unit| = 1 +- rounding.
float WorldBound(const MeshRay& r, double t) { return internal::RoundUp(t * r.ray.length * (1.0 + 0x1p-40)); }

// The hit on leaf record `rec`: its vertices in MeshData's order (bvh.h), so
// the same triangle as mesh.triangle(rec.id) without loading that record (a
// cache miss of its own on a large mesh).
MeshRayHit ToMeshHit(const TriangleMesh& mesh, const MeshRay& r, const BvhTriangle& rec,
                     const RayTriangleT& t) {
  const std::vector<Vec3>& v = mesh.vertices();
  const RayHit h =
      internal::RayHitOnTriangle(r.ray, v[rec.v[0]], v[rec.v[1]], v[rec.v[2]], t, r.max_distance);
  return {true, h.distance, h.point, h.normal, rec.id};
}

// Tests the triangles of a leaf, calling on_hit(record, t) for each hit
// within [0, t_max] in leaf order; stops when on_hit returns true. Two at a
// time, the certain misses sorted out in SIMD lanes first (most tested
// triangles are misses: callgrind on aggressor, 5 of 6), then the others by
// the scalar test, which repeats the same first test: same answers.
template <typename OnHit>
bool TestLeaf(const TriangleMesh& mesh, const MeshRay& r, std::uint32_t first, std::uint32_t count,
              double t_max, OnHit&& on_hit) {
  const std::vector<Vec3>& v = mesh.vertices();
  const BvhTriangle* tris = mesh.bvh().triangles.data();
  const std::uint32_t end = first + count;
  for (std::uint32_t i = first; i < end; i += 2) {
    const BvhTriangle* pair[2] = {&tris[i], &tris[i + 1 < end ? i + 1 : i]};
    const Vec3* a[2] = {&v[pair[0]->v[0]], &v[pair[1]->v[0]]};
    const Vec3* b[2] = {&v[pair[0]->v[1]], &v[pair[1]->v[1]]};
    const Vec3* c[2] = {&v[pair[0]->v[2]], &v[pair[1]->v[2]]};
    const int miss = internal::CertainMissPair(r.ray, a, b, c) | (i + 1 < end ? 0 : 2);
    for (int k = 0; k < 2; ++k) {
      if (miss & (1 << k)) continue;
      const RayTriangleT t = internal::IntersectWatertight(r.ray, *a[k], *b[k], *c[k], t_max);
      if (t.hit && on_hit(*pair[k], t)) return true;
    }
  }
  return false;
}

// Some hit of a ray that CanHit, in the order of an unsorted traversal (the
// sort does not pay for a visitor that stops at any hit: bvh_traverse.h).
struct AnyHit {
  const BvhTriangle* rec = nullptr;  // null: none.
  RayTriangleT hit;
};
AnyHit FindAnyHit(const TriangleMesh& mesh, const MeshRay& r) {
  struct Visitor {
    const TriangleMesh& mesh;
    const MeshRay& r;
    float t_max_world;
    AnyHit found;
    float TMax() const { return t_max_world; }
    bool Leaf(std::uint32_t first, std::uint32_t count) {
      return TestLeaf(mesh, r, first, count, r.t_max, [&](const BvhTriangle& rec, const RayTriangleT& t) {
        found = {&rec, t};
        return true;
      });
    }
  } visitor{mesh, r, WorldBound(r, r.t_max), {}};
  internal::TraverseRay<false>(mesh.bvh(), r.boxes, visitor);
  return visitor.found;
}

}  // namespace

MeshRayHit RayCastClosest(const TriangleMesh& mesh, const Ray& ray) {
  if (!CanHit(mesh, ray)) return {};
  const MeshRay r(mesh, ray);
  struct Visitor {
    const TriangleMesh& mesh;
    const MeshRay& r;
    double best_t;  // in direction units; the order is by world distance.
    const BvhTriangle* best_rec = nullptr;
    RayTriangleT best;
    float t_max_world;
    float TMax() const { return t_max_world; }
    bool Leaf(std::uint32_t first, std::uint32_t count) {
      // Two t one ulp apart can give the same world distance, which then
      // ties on the index: accept t slightly above the best.
      const double limit = best_rec == nullptr ? best_t : best_t * (1.0 + 0x1p-50);
      TestLeaf(mesh, r, first, count, limit, [&](const BvhTriangle& rec, const RayTriangleT& t) {
        const double d = t.t * r.ray.length, best_d = best_t * r.ray.length;
        if (best_rec == nullptr || d < best_d || (d == best_d && rec.id < best_rec->id)) {
          best_t = t.t, best_rec = &rec, best = t;
          t_max_world = WorldBound(r, best_t * (1.0 + 0x1p-50));
        }
        return false;
      });
      return false;
    }
  } visitor{mesh, r, r.t_max, nullptr, {}, WorldBound(r, r.t_max)};
  internal::TraverseRay(mesh.bvh(), r.boxes, visitor);
  if (visitor.best_rec == nullptr) return {};
  return ToMeshHit(mesh, r, *visitor.best_rec, visitor.best);
}

MeshRayHit RayCastAny(const TriangleMesh& mesh, const Ray& ray) {
  if (!CanHit(mesh, ray)) return {};
  const MeshRay r(mesh, ray);
  const AnyHit found = FindAnyHit(mesh, r);
  if (found.rec == nullptr) return {};
  return ToMeshHit(mesh, r, *found.rec, found.hit);
}

bool RayBlocked(const TriangleMesh& mesh, const Ray& ray) {
  return CanHit(mesh, ray) && FindAnyHit(mesh, MeshRay(mesh, ray)).rec != nullptr;
}

std::size_t RayCastAll(const TriangleMesh& mesh, const Ray& ray, std::size_t max_hits,
                       std::vector<MeshRayHit>& out) {
  out.clear();
  if (!CanHit(mesh, ray)) return 0;
  const MeshRay r(mesh, ray);
  struct Found {
    double distance;
    const BvhTriangle* rec;
    RayTriangleT hit;
  };
  struct Visitor {
    const TriangleMesh& mesh;
    const MeshRay& r;
    float t_max_world;
    std::vector<Found> found;
    float TMax() const { return t_max_world; }
    bool Leaf(std::uint32_t first, std::uint32_t count) {
      TestLeaf(mesh, r, first, count, r.t_max, [&](const BvhTriangle& rec, const RayTriangleT& t) {
        found.push_back({t.t * r.ray.length, &rec, t});
        return false;
      });
      return false;
    }
  } visitor{mesh, r, WorldBound(r, r.t_max), {}};
  internal::TraverseRay<false>(mesh.bvh(), r.boxes, visitor);  // every hit: no order needed.
  std::vector<Found>& found = visitor.found;
  const auto by_distance = [](const Found& a, const Found& b) {
    return a.distance < b.distance || (a.distance == b.distance && a.rec->id < b.rec->id);
  };
  const std::size_t keep = std::min(max_hits, found.size());
  std::partial_sort(found.begin(), found.begin() + static_cast<std::ptrdiff_t>(keep), found.end(),
                    by_distance);
  out.reserve(keep);
  for (std::size_t i = 0; i < keep; ++i) out.push_back(ToMeshHit(mesh, r, *found[i].rec, found[i].hit));
  return found.size();
}

}  // namespace collide
