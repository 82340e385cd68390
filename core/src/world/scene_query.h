// Scene queries at a resolved time, shared by the batched queries and the
// verdicts.
#ifndef COLLIDE_CORE_SRC_WORLD_SCENE_QUERY_H_
#define COLLIDE_CORE_SRC_WORLD_SCENE_QUERY_H_

#include <vector>

#include "query/sweep/sweep_internal.h"
#include "world/scene.h"

namespace collide::internal {

// Parts of body `body` are grown by `amount` (a shot's tolerance): each by a
// ball of that radius (its Minkowski sum), see RayCastGrown.
struct Inflation {
  std::int64_t body = 0;
  double amount = 0.0;
};

// The ray against `shape` grown by a ball of radius `grow` >= 0 (the points
// within `grow` of it): spheres and capsules by their radius, a point becomes
// a sphere, a segment a capsule, boxes and triangles are rounded.
RayHit RayCastGrown(const Ray& ray, const Shape& shape, double grow);

// Whether `ray` (over its whole range) meets a part of body i of the scene
// grown by `grow`: the same arithmetic as CastRay's for that body.
bool RayMeetsBody(const Scene& scene, std::size_t i, const Ray& ray, double grow);

// Ray hits per `mode` into `hits` (closest/any: at most one; all: sorted by
// distance then TargetLess, at most max_hits); returns the number of hits
// before the cap. `ray` must be valid.
std::size_t CastRay(const Scene& scene, const Ray& ray, const QueryFilter& filter, RayMode mode,
                    std::size_t max_hits, const Inflation& inflation, std::vector<WorldRayHit>& hits);

// The first contact of `shape` moved by `translation` against the static
// elements in `mask` (and the bodies passing `filter` when with_bodies).
struct SceneCast {
  SweepResult sweep;
  HitTarget target;
  std::size_t element = 0;  // a static target's index in the StaticSet.
};
SceneCast CastShape(const Scene& scene, const Shape& shape, const Vec3& translation,
                    const QueryFilter& filter, bool with_bodies, const SweepOptions& options);

bool Passes(const QueryFilter& filter, CategoryMask category);
bool Ignored(const QueryFilter& filter, std::int64_t body);
// Hit order: distance, then TargetLess.
bool HitBefore(const WorldRayHit& a, const WorldRayHit& b);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_SCENE_QUERY_H_
