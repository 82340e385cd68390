// A triangle mesh as Bullet's static-mesh shape (btBvhTriangleMeshShape over a
// btTriangleIndexVertexArray, double build), owning the flat vertex and index
// arrays Bullet reads in place: the one setup the mesh and world benchmarks
// give their Bullet peers.
#ifndef COLLIDE_BENCH_BULLET_MESH_H_
#define COLLIDE_BENCH_BULLET_MESH_H_

#include <btBulletCollisionCommon.h>

#include <memory>
#include <span>
#include <vector>

#include "collide/math.h"
#include "collide/mesh_data.h"

namespace collide::bench {

class BulletTriangleMesh {
 public:
  BulletTriangleMesh(std::span<const Vec3> vertices, std::span<const TriangleIndices> triangles) {
    for (const Vec3& v : vertices) vertices_.insert(vertices_.end(), {v.x, v.y, v.z});
    for (const TriangleIndices& t : triangles) {
      for (int k = 0; k < 3; ++k) indices_.push_back(static_cast<int>(t[k]));
    }
    btIndexedMesh part;
    part.m_numTriangles = static_cast<int>(triangles.size());
    part.m_triangleIndexBase = reinterpret_cast<const unsigned char*>(indices_.data());
    part.m_triangleIndexStride = 3 * sizeof(int);
    part.m_numVertices = static_cast<int>(vertices.size());
    part.m_vertexBase = reinterpret_cast<const unsigned char*>(vertices_.data());
    part.m_vertexStride = 3 * sizeof(btScalar);
    part.m_indexType = PHY_INTEGER;
    part.m_vertexType = PHY_DOUBLE;
    array_.addIndexedMesh(part, PHY_INTEGER);
    shape_ = std::make_unique<btBvhTriangleMeshShape>(&array_, true);
  }
  // Bullet keeps pointers into the arrays: neither copied nor moved.
  BulletTriangleMesh(const BulletTriangleMesh&) = delete;
  BulletTriangleMesh& operator=(const BulletTriangleMesh&) = delete;

  btBvhTriangleMeshShape* shape() { return shape_.get(); }

 private:
  std::vector<btScalar> vertices_;
  std::vector<int> indices_;
  btTriangleIndexVertexArray array_;
  std::unique_ptr<btBvhTriangleMeshShape> shape_;
};

}  // namespace collide::bench

#endif  // COLLIDE_BENCH_BULLET_MESH_H_
