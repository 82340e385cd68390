// Scene queries at a resolved time, shared by the batched queries and the
// verdicts.
#ifndef COLLIDE_CORE_SRC_WORLD_SCENE_QUERY_H_
#define COLLIDE_CORE_SRC_WORLD_SCENE_QUERY_H_

#include <vector>

#include "query/sweep/sweep_internal.h"
#include "world/scene.h"

namespace collide::internal {

// Parts of body `body` are grown by `amount` (a shot's tolerance).
struct Inflation {
  std::int64_t body = 0;
  double amount = 0.0;
};

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
};
SceneCast CastShape(const Scene& scene, const Shape& shape, const Vec3& translation,
                    const QueryFilter& filter, bool with_bodies, const SweepOptions& options);

bool Passes(const QueryFilter& filter, CategoryMask category);
bool Ignored(const QueryFilter& filter, std::int64_t body);
// Hit order: distance, then TargetLess.
bool HitBefore(const WorldRayHit& a, const WorldRayHit& b);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_SCENE_QUERY_H_
