// Triangle meshes (level geometry) and queries against them in logarithmic
// time: ray casts (closest, any, all), overlaps, distance and contact for
// every convex shape kind.
//
// A TriangleMesh is built once from MeshData (mesh_data.h): double-precision
// vertices, two-sided triangles, and a bounding volume hierarchy over them
// (src/mesh/bvh.h: binned SAH build, 8-wide nodes whose float boxes are
// rounded outward so no query ever misses a triangle). Zero-area triangles
// are kept out of every query and counted. Queries follow result.h; a mesh
// query also names the triangle (its index in MeshData::triangles).
//
// Ray casts use the exact, watertight ray/triangle test of
// src/query/raycast/watertight.h: a ray through an edge or vertex shared by
// triangles never slips between them, a ray that misses every closed
// triangle never hits. A ray exactly in a triangle's plane hits it where it
// first meets the closed triangle (see result.h, "coplanar rays").
#ifndef COLLIDE_MESH_H_
#define COLLIDE_MESH_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "collide/mesh_data.h"
#include "collide/result.h"
#include "collide/shapes.h"
#include "collide/sweep.h"
#include "collide/validate.h"

namespace collide {

namespace internal {
struct Bvh;
}

// Most triangles (and vertices) a mesh may have: 2^29 (536 million, some
// 30 GB of mesh): the BVH traversal packs a leaf's triangle count into the
// top 3 bits of a 32-bit index.
inline constexpr std::size_t kMaxMeshTriangles = std::size_t{1} << 29;
// At most this many violations are listed; one more entry says how many
// were left out.
inline constexpr std::size_t kMaxMeshViolations = 100;

// Appends a Violation per bad item of `mesh` ("vertices[12].x": not a valid
// number per IsValidNumber; "triangles[3][1]": index out of range; "vertices"
// or "triangles": too many) and returns true when it appended none. Linear
// time, bounded output (kMaxMeshViolations).
bool ValidateMesh(const MeshData& mesh, std::vector<Violation>& out);

// An immutable mesh with its BVH. Thread-safe to query concurrently.
class TriangleMesh {
 public:
  // Builds the BVH. Meant for data that passed ValidateMesh; anything else
  // still builds (no crash): a triangle with an out-of-range index or an
  // invalid vertex is left out of queries like a zero-area one and counted in
  // invalid_count(). O(n log n).
  explicit TriangleMesh(MeshData data);
  TriangleMesh(TriangleMesh&&) noexcept;
  TriangleMesh& operator=(TriangleMesh&&) noexcept;
  ~TriangleMesh();

  const std::vector<Vec3>& vertices() const { return data_.vertices; }
  const std::vector<TriangleIndices>& triangles() const { return data_.triangles; }
  std::size_t triangle_count() const { return data_.triangles.size(); }
  // Triangles i of MeshData::triangles as a shape (indices must be valid).
  Triangle triangle(std::size_t i) const;
  // Zero-area triangles (exactly collinear vertices), left out of queries.
  std::size_t degenerate_count() const { return degenerate_count_; }
  // Triangles with a bad index or vertex, left out of queries.
  std::size_t invalid_count() const { return invalid_count_; }
  // The box of every queried triangle; min > max when there is none.
  const Aabb& bounds() const { return bounds_; }
  // Heap bytes held: vertices, triangles and the BVH.
  std::size_t memory_bytes() const;

  const internal::Bvh& bvh() const { return *bvh_; }

 private:
  MeshData data_;
  std::unique_ptr<internal::Bvh> bvh_;
  std::size_t degenerate_count_ = 0;
  std::size_t invalid_count_ = 0;
  Aabb bounds_;
};

// A ray hit on a mesh: RayHit's fields (normal facing the ray origin) and the
// index of the triangle in MeshData::triangles.
struct MeshRayHit {
  bool hit = false;
  double distance = 0.0;
  Vec3 point;
  Vec3 normal;
  std::uint32_t triangle = 0;
  friend bool operator==(const MeshRayHit&, const MeshRayHit&) = default;
};

// The first hit along the ray (smallest distance; among equally distant hits
// the smallest triangle index).
MeshRayHit RayCastClosest(const TriangleMesh& mesh, const Ray& ray);
// Some hit within the ray's range, found as fast as possible (for line of
// sight: hit == blocked). Which hit is unspecified.
MeshRayHit RayCastAny(const TriangleMesh& mesh, const Ray& ray);
// RayCastAny(mesh, ray).hit without the hit's point and normal: a line of
// sight test (true: blocked).
bool RayBlocked(const TriangleMesh& mesh, const Ray& ray);
// Every triangle hit within the ray's range, sorted by distance then triangle
// index, at most max_hits of them (the nearest). Returns the total number of
// triangles hit (> out.size() when capped). `out` is replaced.
std::size_t RayCastAll(const TriangleMesh& mesh, const Ray& ray, std::size_t max_hits,
                       std::vector<MeshRayHit>& out);

// Indices of the triangles that `shape` touches or overlaps (Intersect(shape,
// triangle).hit), ascending, at most max_results of them (the smallest
// indices). Returns the total count. `out` is replaced.
std::size_t OverlapTriangles(const TriangleMesh& mesh, const Shape& shape, std::size_t max_results,
                             std::vector<std::uint32_t>& out);

// A pair query between a shape (A) and the mesh's triangles (B).
struct MeshPairResult {
  PairResult result;  // as Query(level, shape, triangle), result.h.
  // The triangle answering: kIntersect, any hit; kDistance, the closest
  // (any touching one when hit); kContact, the one with the smallest signed
  // distance (the deepest). Ties go to the smallest index. Meaningful only
  // when found.
  std::uint32_t triangle = 0;
  bool found = false;  // false for a mesh with no queryable triangle.
};
MeshPairResult QueryMesh(QueryLevel level, const Shape& shape, const TriangleMesh& mesh);

// A shape cast against a mesh: ShapeCast(shape, translation, triangle) for
// the triangle met first (smallest t; ties, e.g. several triangles touching
// at t = 0, go to the smallest index), found by a front-to-back traversal of
// the BVH with the shape's swept bounding box, pruned by the best t so far.
// status kNotConverged when a triangle's generic sweep hit its step cap
// before the reported t (or with no hit); kUnsupported for a halfspace.
struct MeshSweepResult {
  SweepResult sweep;
  std::uint32_t triangle = 0;  // meaningful only when sweep.hit.
  friend bool operator==(const MeshSweepResult&, const MeshSweepResult&) = default;
};
MeshSweepResult ShapeCast(const Shape& shape, const Vec3& translation, const TriangleMesh& mesh);

}  // namespace collide

#endif  // COLLIDE_MESH_H_
