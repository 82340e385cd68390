// Ray casts against the world at a time: the bodies the broadphase tree finds
// along the ray, then the statics (meshes through their BVH, primitives
// directly), each pruned by the best hit so far in closest mode.
#include <algorithm>

#include "collide/query.h"
#include "world/scene_query.h"

namespace collide::internal {

bool Passes(const QueryFilter& filter, CategoryMask category) { return (filter.mask & category) != 0; }
bool Ignored(const QueryFilter& filter, std::int64_t body) {
  return std::find(filter.ignored_bodies.begin(), filter.ignored_bodies.end(), body) !=
         filter.ignored_bodies.end();
}
bool HitBefore(const WorldRayHit& a, const WorldRayHit& b) {
  return a.distance < b.distance || (a.distance == b.distance && TargetLess(a.target, b.target));
}

namespace {

// True when the ray passes within `radius` of `centre` (closest approach on
// the ray's range), with a relative margin for rounding.
bool RayNearSphere(const Ray& ray, const Vec3& centre, double radius) {
  const Vec3 unit = NormalizedOr(ray.direction, Vec3{1, 0, 0});
  const Vec3 to = centre - ray.origin;
  const double along = std::clamp(Dot(to, unit), 0.0, ray.max_distance);
  const double r = radius * (1 + 1e-9) + 1e-9 * (Length(to) + 1.0);
  return LengthSquared(to - unit * along) <= r * r;
}

// The ray in the frame whose rotation and origin in the outer frame are
// given (outer = rotation * inner + origin).
Ray ToFrame(const Ray& ray, const Mat3& rotation, const Vec3& origin) {
  return {TransposeMul(rotation, ray.origin - origin), TransposeMul(rotation, ray.direction),
          ray.max_distance};
}

WorldRayHit FromMesh(const MeshRayHit& h, std::int64_t id) {
  return {h.distance, h.point, h.normal, {HitTarget::Kind::kStatic, id, h.triangle, 0}};
}
WorldRayHit FromShape(const RayHit& h, HitTarget target) { return {h.distance, h.point, h.normal, target}; }

// Closest or any: keeps the best hit in `best` (distance = range when none).
struct Nearest {
  bool found = false;
  WorldRayHit hit;
  void Offer(const WorldRayHit& h) {
    if (!found || HitBefore(h, hit)) hit = h;
    found = true;
  }
};

}  // namespace

std::size_t CastRay(const Scene& scene, const Ray& ray, const QueryFilter& filter, RayMode mode,
                    std::size_t max_hits, const Inflation& inflation, std::vector<WorldRayHit>& hits) {
  hits.clear();
  const Vec3 unit = NormalizedOr(ray.direction, Vec3{1, 0, 0});
  const StaticSet& statics = *scene.statics;
  Nearest nearest;
  std::size_t total = 0;
  std::vector<MeshRayHit> mesh_hits;
  const auto range = [&] {
    return mode == RayMode::kClosest && nearest.found ? nearest.hit.distance : ray.max_distance;
  };
  const auto done = [&] { return mode == RayMode::kAny && nearest.found; };

  // Bodies first: in closest mode their hits shorten the mesh rays.
  if (scene.s0 != nullptr && !done()) {
    std::vector<PlacedPart> parts;
    // The inflated body reaches past its tree bounds: it is visited first,
    // directly, and skipped in the tree.
    const bool inflated = inflation.amount > 0.0;
    const std::size_t grown = inflated ? scene.s0->IndexOf(inflation.body) : scene.body_count();
    PosedBody posed;
    const auto visit = [&](std::uint32_t i) -> double {
      const BodyState& b = scene.body(i);
      if (!Passes(filter, b.category) || Ignored(filter, b.id)) return range();
      const double inflate = i == grown ? inflation.amount : 0.0;
      scene.Posed(i, posed);
      const Ray reach{ray.origin, ray.direction, range()};
      if (!RayNearSphere(reach, posed.centre, posed.radius + inflate)) return range();
      // The ray goes into the body frame (and into a part's frame when it
      // has a local pose) instead of every part into the world.
      const Ray local_ray = ToFrame(reach, posed.rotation, posed.pose.position);
      const PartSet& set = *b.parts;
      for (std::size_t k = 0; k < set.ids.size(); ++k) {
        const Pose& local = (*posed.locals)[k];
        const bool identity = local == Pose{};
        const Mat3 part_rotation = identity ? Mat3{} : RotationFromQuat(local.rotation);
        const Ray part_ray = identity ? Ray{local_ray.origin, local_ray.direction, range()}
                                      : ToFrame(Ray{local_ray.origin, local_ray.direction, range()},
                                                part_rotation, local.position);
        if (!RayNearSphere(part_ray, set.spheres[k].center, set.spheres[k].radius + inflate)) continue;
        const RayHit h = inflate > 0.0 ? RayCast(part_ray, Inflate(set.shapes[k], inflate))
                                       : RayCast(part_ray, set.shapes[k]);
        if (!h.hit) continue;
        // Back to the world: the distance is unchanged by rigid motions.
        const Mat3 r = identity ? posed.rotation : posed.rotation * part_rotation;
        const Vec3 p = identity ? posed.pose.position : posed.rotation * local.position + posed.pose.position;
        const WorldRayHit w{
            h.distance, r * h.point + p, r * h.normal, {HitTarget::Kind::kBody, b.id, 0, set.ids[k]}};
        if (mode == RayMode::kAll) {
          ++total;
          hits.push_back(w);
        } else {
          nearest.Offer(w);
          if (mode == RayMode::kAny) return -1.0;  // ends the traversal.
        }
      }
      return range();
    };
    if (grown < scene.body_count()) visit(static_cast<std::uint32_t>(grown));
    if (!done()) {
      scene.s0->tree.Ray(ray.origin, unit, range(),
                         [&](std::uint32_t i) { return i == grown ? range() : visit(i); });
    }
  }

  for (std::size_t i = 0; i < statics.elements.size() && !done(); ++i) {
    const StaticElement& e = statics.elements[i];
    if (!Passes(filter, e.category)) continue;
    const Ray r{ray.origin, ray.direction, range()};
    if (const TriangleMesh* mesh = statics.MeshOf(i)) {
      if (mode == RayMode::kAll) {
        total += RayCastAll(*mesh, r, max_hits, mesh_hits);
        for (const MeshRayHit& h : mesh_hits) hits.push_back(FromMesh(h, e.id));
      } else {
        const MeshRayHit h = mode == RayMode::kAny ? RayCastAny(*mesh, r) : RayCastClosest(*mesh, r);
        if (h.hit) nearest.Offer(FromMesh(h, e.id));
      }
    } else {
      const RayHit h = RayCast(r, *statics.ShapeOf(i));
      if (!h.hit) continue;
      const WorldRayHit w = FromShape(h, {HitTarget::Kind::kStatic, e.id, 0, 0});
      if (mode == RayMode::kAll) {
        ++total;
        hits.push_back(w);
      } else {
        nearest.Offer(w);
      }
    }
  }

  if (mode == RayMode::kAll) {
    std::sort(hits.begin(), hits.end(), HitBefore);
    if (hits.size() > max_hits) hits.resize(max_hits);
    return total;
  }
  if (nearest.found) hits.push_back(nearest.hit);
  return hits.size();
}

}  // namespace collide::internal

namespace collide {

std::vector<RayQueryResult> World::RayCasts(std::span<const RayQuery> queries) const {
  std::vector<RayQueryResult> out(queries.size());
  for (std::size_t q = 0; q < queries.size(); ++q) {
    const RayQuery& query = queries[q];
    RayQueryResult& r = out[q];
    Validate(query.ray, r.problems);
    const std::optional<internal::Scene> at = internal::Begin(*this, query.at, r);
    if (!at) continue;
    const internal::Scene& scene = *at;
    r.total_hits = internal::CastRay(scene, query.ray, query.filter, query.mode, query.max_hits, {}, r.hits);
  }
  return out;
}

}  // namespace collide
