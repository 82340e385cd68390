// Ray casts against the world at a time: the bodies the broadphase tree finds
// along the ray, then the statics (meshes through their BVH, primitives
// directly), each pruned by the best hit so far in closest mode.
#include <algorithm>
#include <cmath>

#include "collide/query.h"
#include "collide/sweep.h"
#include "shapes/shape_bounds.h"
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

// The ray against a box or triangle grown by a ball of radius `grow`: the
// ball swept along the ray (ShapeCast's closed forms) over a length that
// reaches past every point of the grown shape (not the ray's range, so that
// the answer does not depend on what was hit before).
RayHit RayCastRounded(const Ray& ray, const Shape& shape, double grow) {
  const Vec3 unit = NormalizedOr(ray.direction, Vec3{1, 0, 0});
  const Aabb b = BoundsOf(shape);
  const double reach =
      (Length(Max(Abs(b.min - ray.origin), Abs(b.max - ray.origin))) + grow) * (1 + 1e-9) + 1e-9;
  const SweepResult s = ShapeCast(Sphere{ray.origin, grow}, unit * reach, shape);
  if (!s.hit || !(s.t * reach <= ray.max_distance)) return {};
  RayHit h;
  h.hit = true;
  h.distance = s.t * reach;
  h.point = ray.origin + unit * h.distance;
  // The grown surface's outward normal at the ball's centre; -direction when
  // the ray starts inside (RayCast's convention for solids).
  h.normal = s.t == 0.0 ? -unit : -s.normal;
  return h;
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

RayHit RayCastGrown(const Ray& ray, const Shape& shape, double grow) {
  if (!(grow > 0.0)) return RayCast(ray, shape);
  return std::visit(
      [&](const auto& s) -> RayHit {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, Point>) {
          return RayCast(ray, Sphere{s.position, grow});
        } else if constexpr (std::is_same_v<T, Segment>) {
          return RayCast(ray, Capsule{s.a, s.b, grow});
        } else if constexpr (std::is_same_v<T, Sphere>) {
          return RayCast(ray, Sphere{s.center, s.radius + grow});
        } else if constexpr (std::is_same_v<T, Capsule>) {
          return RayCast(ray, Capsule{s.a, s.b, s.radius + grow});
        } else {
          return RayCastRounded(ray, shape, grow);
        }
      },
      shape);
}

namespace {

// Casts `ray` at the parts of body i at the scene's time, each grown by
// `grow`, over the length range() (the caller's best hit so far), passing each
// hit to offer(hit), which returns false to stop. The ray goes into the body
// frame (and into a part's frame when it has a local pose) instead of every
// part into the world.
template <typename Range, typename Offer>
void CastAtParts(const Scene& scene, std::size_t i, const Ray& ray, double grow, PosedBody& posed,
                 Range range, Offer offer) {
  const BodyState& b = scene.body(i);
  scene.Posed(i, posed);
  const Ray reach{ray.origin, ray.direction, range()};
  if (!RayNearSphere(reach, posed.centre, posed.radius + grow)) return;
  const Ray local_ray = ToFrame(reach, posed.rotation, posed.pose.position);
  const PartSet& set = *b.parts;
  for (std::size_t k = 0; k < set.ids.size(); ++k) {
    const Pose& local = (*posed.locals)[k];
    const bool identity = local == Pose{};
    const Mat3 part_rotation = identity ? Mat3{} : RotationFromQuat(local.rotation);
    const Ray part_ray = identity ? Ray{local_ray.origin, local_ray.direction, range()}
                                  : ToFrame(Ray{local_ray.origin, local_ray.direction, range()},
                                            part_rotation, local.position);
    if (!RayNearSphere(part_ray, set.spheres[k].center, set.spheres[k].radius + grow)) continue;
    const RayHit h = RayCastGrown(part_ray, set.shapes[k], grow);
    if (!h.hit) continue;
    // Back to the world: the distance is unchanged by rigid motions.
    const Mat3 r = identity ? posed.rotation : posed.rotation * part_rotation;
    const Vec3 p = identity ? posed.pose.position : posed.rotation * local.position + posed.pose.position;
    if (!offer(WorldRayHit{
            h.distance, r * h.point + p, r * h.normal, {HitTarget::Kind::kBody, b.id, 0, set.ids[k]}})) {
      return;
    }
  }
}

}  // namespace

bool RayMeetsBody(const Scene& scene, std::size_t i, const Ray& ray, double grow) {
  PosedBody posed;
  bool met = false;
  CastAtParts(
      scene, i, ray, grow, posed, [&] { return ray.max_distance; },
      [&](const WorldRayHit&) {
        met = true;
        return false;
      });
  return met;
}

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
    // The inflated body reaches past its tree bounds: it is visited first,
    // directly, and skipped in the tree.
    const bool inflated = inflation.amount > 0.0;
    const std::size_t grown = inflated ? scene.s0->IndexOf(inflation.body) : scene.body_count();
    PosedBody posed;
    const auto visit = [&](std::uint32_t i) -> double {
      const BodyState& b = scene.body(i);
      if (!Passes(filter, b.category) || Ignored(filter, b.id)) return range();
      bool stop = false;
      CastAtParts(scene, i, ray, i == grown ? inflation.amount : 0.0, posed, range,
                  [&](const WorldRayHit& w) {
                    if (mode == RayMode::kAll) {
                      ++total;
                      hits.push_back(w);
                      return true;
                    }
                    nearest.Offer(w);
                    stop = mode == RayMode::kAny;
                    return !stop;
                  });
      return stop ? -1.0 : range();  // -1 ends the traversal.
    };
    if (grown < scene.body_count()) visit(static_cast<std::uint32_t>(grown));
    if (!done()) {
      scene.s0->tree.Ray(ray.origin, unit, range(),
                         [&](std::uint32_t i) { return i == grown ? range() : visit(i); });
    }
  }

  // The statics near the ray (the order does not change the answer: hits
  // are ranked by HitBefore).
  const auto visit_static = [&](std::uint32_t i) -> double {
    const StaticElement& e = statics.elements[i];
    if (!Passes(filter, e.category)) return range();
    const Ray r{ray.origin, ray.direction, range()};
    if (const TriangleMesh* mesh = statics.MeshOf(i)) {
      if (mode == RayMode::kAll) {
        total += RayCastAll(*mesh, r, max_hits, mesh_hits);
        for (const MeshRayHit& h : mesh_hits) hits.push_back(FromMesh(h, e.id));
      } else {
        const MeshRayHit h = mode == RayMode::kAny ? RayCastAny(*mesh, r) : RayCastClosest(*mesh, r);
        if (h.hit) nearest.Offer(FromMesh(h, e.id));
      }
    } else if (const RayHit h = RayCast(r, *statics.ShapeOf(i)); h.hit) {
      const WorldRayHit w = FromShape(h, {HitTarget::Kind::kStatic, e.id, 0, 0});
      if (mode == RayMode::kAll) {
        ++total;
        hits.push_back(w);
      } else {
        nearest.Offer(w);
      }
    }
    return done() ? -1.0 : range();
  };
  if (!done()) statics.Ray(ray.origin, unit, range(), visit_static);

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
