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
#include "mesh/mesh_broadphase.h"
#include "shapes/shape_bounds.h"

namespace collide {
namespace {

// The shape's box, in double for the per-triangle filter and as floats
// (rounded outward) for the node tests.
struct ShapeBox {
  Aabb box;
  internal::FloatBox rounded;
};
ShapeBox BoxOf(const Aabb& box) { return {box, internal::RoundedOutward(box.min, box.max)}; }

// A leaf triangle as a shape, and the squared gap between its box and the
// shape's box: a lower bound of their squared distance (0 when the boxes
// overlap), which skips the pair kernel for triangles that cannot touch the
// shape or cannot beat the best distance so far. Exact: both boxes contain
// their shapes, and the gap of two boxes never exceeds the distance of any
// two points in them (computed in double; a rounded gap errs low by at most
// a few ulp, covered by the 1 - 2^-40 factor).
struct Candidate {
  std::uint32_t id;
  Triangle triangle;
  double gap2;
};
Candidate CandidateAt(const TriangleMesh& mesh, std::uint32_t i, const Aabb& box) {
  const Triangle tri = internal::LeafTriangle(mesh.bvh(), mesh.vertices(), i);
  const Vec3 lo = Min(tri.a, Min(tri.b, tri.c)), hi = Max(tri.a, Max(tri.b, tri.c));
  const Vec3 gap = Max(Max(lo - box.max, box.min - hi), Vec3{});
  return {mesh.bvh().triangles[i].id, tri, LengthSquared(gap) * (1.0 - 0x1p-40)};
}

}  // namespace

bool internal::AnyTriangleBoxTouches(const TriangleMesh& mesh, const Aabb& box) {
  const ShapeBox shape_box = BoxOf(box);
  struct Visitor {
    const TriangleMesh& mesh;
    const Aabb& box;
    bool found = false;
    bool Leaf(std::uint32_t first, std::uint32_t count) {
      for (std::uint32_t i = first; i < first + count && !found; ++i)
        found = CandidateAt(mesh, i, box).gap2 == 0.0;
      return found;
    }
  } visitor{mesh, shape_box.box};
  internal::TraverseBox(mesh.bvh(), shape_box.rounded, visitor);
  return visitor.found;
}

std::size_t OverlapTriangles(const TriangleMesh& mesh, const Shape& shape, std::size_t max_results,
                             std::vector<std::uint32_t>& out) {
  out.clear();
  const ShapeBox box = BoxOf(internal::BoundsOf(shape));
  struct Visitor {
    const TriangleMesh& mesh;
    const Shape& shape;
    const Aabb& box;
    std::vector<std::uint32_t>& out;
    bool Leaf(std::uint32_t first, std::uint32_t count) {
      internal::PrefetchLeafVertices(mesh.bvh(), mesh.vertices(), first, count);
      for (std::uint32_t i = first; i < first + count; ++i) {
        const Candidate c = CandidateAt(mesh, i, box);
        if (c.gap2 == 0.0 && Intersect(shape, c.triangle).hit) out.push_back(c.id);
      }
      return false;
    }
  } visitor{mesh, shape, box.box, out};
  internal::TraverseBox(mesh.bvh(), box.rounded, visitor);
  const std::size_t total = out.size();
  const std::size_t keep = std::min(max_results, total);
  std::partial_sort(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(keep), out.end());
  out.resize(keep);
  return total;
}

MeshPairResult QueryMesh(QueryLevel level, const Shape& shape, const TriangleMesh& mesh) {
  const ShapeBox box = BoxOf(internal::BoundsOf(shape));
  MeshPairResult best;
  if (level == QueryLevel::kIntersect) {
    struct Visitor {
      const TriangleMesh& mesh;
      const Shape& shape;
      const Aabb& box;
      MeshPairResult& best;
      bool Leaf(std::uint32_t first, std::uint32_t count) {
        internal::PrefetchLeafVertices(mesh.bvh(), mesh.vertices(), first, count);
        for (std::uint32_t i = first; i < first + count; ++i) {
          const Candidate c = CandidateAt(mesh, i, box);
          if (c.gap2 != 0.0) continue;
          const PairResult r = Intersect(shape, c.triangle);
          if (r.hit) {
            best = {r, c.id, true};
            return true;
          }
        }
        return false;
      }
    } visitor{mesh, shape, box.box, best};
    internal::TraverseBox(mesh.bvh(), box.rounded, visitor);
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
    const Aabb& box;
    QueryLevel level;
    MeshPairResult& best;
    float Bound2() const {
      if (!best.found) return std::numeric_limits<float>::infinity();
      const double d = std::max(best.result.distance, 0.0);
      return internal::RoundUp(d * d * (1.0 + 0x1p-40));
    }
    bool Leaf(std::uint32_t first, std::uint32_t count) {
      for (std::uint32_t i = first; i < first + count; ++i) {
        const Candidate c = CandidateAt(mesh, i, box);
        if (best.found) {
          // Farther than the best for certain (the gap bounds the distance
          // from below): cannot win, nor tie.
          const double d = std::max(best.result.distance, 0.0);
          if (c.gap2 > d * d) continue;
        }
        const PairResult r = Query(level, shape, c.triangle);
        const bool better = !best.found || r.distance < best.result.distance ||
                            (r.distance == best.result.distance && c.id < best.triangle);
        if (better) best = {r, c.id, true};
      }
      return false;
    }
  } visitor{mesh, shape, box.box, level, best};
  internal::TraverseNearest(mesh.bvh(), box.rounded, visitor);
  return best;
}

}  // namespace collide
