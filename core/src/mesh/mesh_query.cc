// Overlap, distance and contact of a convex shape against a mesh: the BVH
// gives the candidate triangles, the pair kernels (Query with a Triangle)
// answer each.
#include <algorithm>
#include <cmath>
#include <limits>

#include "collide/mesh.h"
#include "collide/query.h"
#include "mesh/bvh.h"
#include "mesh/bvh_traverse.h"
#include "mesh/shape_bounds.h"

namespace collide {
namespace {

struct ShapeBox {
  __m128 lo[3], hi[3];
};
ShapeBox LanesOf(const Shape& shape) {
  const Aabb b = internal::BoundsOf(shape);
  ShapeBox s;
  internal::BoxLanes(b.min, b.max, s.lo, s.hi);
  return s;
}

}  // namespace

std::size_t OverlapTriangles(const TriangleMesh& mesh, const Shape& shape, std::size_t max_results,
                             std::vector<std::uint32_t>& out) {
  out.clear();
  const ShapeBox box = LanesOf(shape);
  struct Visitor {
    const TriangleMesh& mesh;
    const Shape& shape;
    std::vector<std::uint32_t>& out;
    bool Leaf(std::uint32_t first, std::uint32_t count) {
      for (std::uint32_t i = first; i < first + count; ++i) {
        const std::uint32_t id = mesh.bvh().triangles[i].id;
        if (Intersect(shape, mesh.triangle(id)).hit) out.push_back(id);
      }
      return false;
    }
  } visitor{mesh, shape, out};
  internal::TraverseBox(mesh.bvh(), box.lo, box.hi, visitor);
  const std::size_t total = out.size();
  const std::size_t keep = std::min(max_results, total);
  std::partial_sort(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(keep), out.end());
  out.resize(keep);
  return total;
}

MeshPairResult QueryMesh(QueryLevel level, const Shape& shape, const TriangleMesh& mesh) {
  const ShapeBox box = LanesOf(shape);
  MeshPairResult best;
  if (level == QueryLevel::kIntersect) {
    struct Visitor {
      const TriangleMesh& mesh;
      const Shape& shape;
      MeshPairResult& best;
      bool Leaf(std::uint32_t first, std::uint32_t count) {
        for (std::uint32_t i = first; i < first + count; ++i) {
          const std::uint32_t id = mesh.bvh().triangles[i].id;
          const PairResult r = Intersect(shape, mesh.triangle(id));
          if (r.hit) {
            best = {r, id, true};
            return true;
          }
        }
        return false;
      }
    } visitor{mesh, shape, best};
    internal::TraverseBox(mesh.bvh(), box.lo, box.hi, visitor);
    if (!best.found && !mesh.bvh().nodes.empty()) best.found = true;  // a miss over a non-empty mesh.
    if (!best.result.hit) best.triangle = 0;
    return best;
  }
  // Branch and bound over the gap between the shape's box and the nodes'
  // boxes, a lower bound of the distance to any triangle inside: nodes
  // farther than the best distance so far (or, once a penetration is found,
  // any node not touching the shape's box) are skipped.
  struct Visitor {
    const TriangleMesh& mesh;
    const Shape& shape;
    QueryLevel level;
    MeshPairResult& best;
    float Bound2() const {
      if (!best.found) return std::numeric_limits<float>::infinity();
      const double d = std::max(best.result.distance, 0.0);
      return internal::RoundUp(d * d * (1.0 + 0x1p-40));
    }
    bool Leaf(std::uint32_t first, std::uint32_t count) {
      for (std::uint32_t i = first; i < first + count; ++i) {
        const std::uint32_t id = mesh.bvh().triangles[i].id;
        const PairResult r = Query(level, shape, mesh.triangle(id));
        const bool better = !best.found || r.distance < best.result.distance ||
                            (r.distance == best.result.distance && id < best.triangle);
        if (better) best = {r, id, true};
      }
      return false;
    }
  } visitor{mesh, shape, level, best};
  internal::TraverseNearest(mesh.bvh(), box.lo, box.hi, visitor);
  return best;
}

}  // namespace collide
