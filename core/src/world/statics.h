// The world's static elements, with what queries need: each primitive's
// bounds, and the owned vertices of convex hulls.
#ifndef COLLIDE_CORE_SRC_WORLD_STATICS_H_
#define COLLIDE_CORE_SRC_WORLD_STATICS_H_

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "collide/world.h"
#include "world/body_tree.h"

namespace collide::internal {

struct StaticSet {
  std::vector<StaticElement> elements;
  std::vector<Aabb> bounds;  // per element (a mesh's bounds, a halfspace's all of space).
  std::vector<std::unique_ptr<std::vector<Vec3>>> hull_vertices;  // owned storage of hull spans.
  // A tree over the bounded elements' bounds (padded for the slab test's
  // rounding), and the elements without finite bounds (halfspaces), so that
  // a query visits the elements near it, not every one (a world of 100,000
  // primitives answers a ray in microseconds).
  BodyTree tree;  // item k is element bounded[k].
  std::vector<std::uint32_t> bounded;
  std::vector<std::uint32_t> unbounded;

  // A valid element's mesh, or null for a primitive (or an element left out).
  const TriangleMesh* MeshOf(std::size_t i) const;
  const Shape* ShapeOf(std::size_t i) const;

  // visit(i) for every element the segment origin + t * dir, t in
  // [0, t_max], may meet; visit returns the new t_max (< 0 stops).
  template <typename Visit>
  void Ray(const Vec3& origin, const Vec3& dir, double t_max, Visit&& visit) const {
    for (std::uint32_t i : unbounded) {
      if (!(t_max >= 0.0)) return;
      t_max = visit(i);
    }
    if (t_max >= 0.0) tree.Ray(origin, dir, t_max, [&](std::uint32_t k) { return visit(bounded[k]); });
  }
  // visit(i) for every element whose bounds overlap `box`.
  template <typename Visit>
  void Overlap(const Aabb& box, Visit&& visit) const {
    for (std::uint32_t i : unbounded) visit(i);
    tree.Overlap(box, [&](std::uint32_t k) { visit(bounded[k]); });
  }
};

std::unique_ptr<StaticSet> MakeStaticSet(std::vector<StaticElement> statics);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_STATICS_H_
