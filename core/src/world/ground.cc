#include "world/ground.h"

#include "world/scene_query.h"

namespace collide::internal {

Probe Cast(const Scene& scene, std::span<const Shape> shapes, const Vec3& translation, CategoryMask mask) {
  QueryFilter filter;
  filter.mask = mask;
  SweepOptions options;
  options.start_contacts_block = false;
  Probe best;
  const double length = Length(translation);
  for (const Shape& s : shapes) {
    const SceneCast c = CastShape(scene, s, translation, filter, false, options);
    if (!c.sweep.hit || (best.hit && c.sweep.t * length >= best.distance)) continue;
    // The sweep's normal points from the shape towards what it met.
    best = {true, c.sweep.t * length, -c.sweep.normal, c.target};
  }
  return best;
}

Ground FindGround(const Scene& scene, std::span<const Shape> shapes, double probe, double walkable_normal_z,
                  CategoryMask mask) {
  Ground g;
  g.probe = Cast(scene, shapes, {0, 0, -probe}, mask);
  g.walkable = g.probe.hit && g.probe.normal.z >= walkable_normal_z;
  return g;
}

}  // namespace collide::internal
