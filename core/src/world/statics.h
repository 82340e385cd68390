// The world's static elements, with what queries need: each primitive's
// bounds, and the owned vertices of convex hulls.
#ifndef COLLIDE_CORE_SRC_WORLD_STATICS_H_
#define COLLIDE_CORE_SRC_WORLD_STATICS_H_

#include <memory>
#include <vector>

#include "collide/world.h"

namespace collide::internal {

struct StaticSet {
  std::vector<StaticElement> elements;
  std::vector<Aabb> bounds;  // per element (a mesh's bounds, a halfspace's all of space).
  std::vector<std::unique_ptr<std::vector<Vec3>>> hull_vertices;  // owned storage of hull spans.

  // A valid element's mesh, or null for a primitive (or an element left out).
  const TriangleMesh* MeshOf(std::size_t i) const;
  const Shape* ShapeOf(std::size_t i) const;
};

std::unique_ptr<StaticSet> MakeStaticSet(std::vector<StaticElement> statics);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_STATICS_H_
