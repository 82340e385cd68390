// Plain triangle-mesh geometry: what a map importer produces and what a
// TriangleMesh (mesh.h) is built from. No acceleration structure, no
// validation: ValidateMesh (mesh.h) says whether it may be built.
#ifndef COLLIDE_MESH_DATA_H_
#define COLLIDE_MESH_DATA_H_

#include <array>
#include <cstdint>
#include <vector>

#include "collide/math.h"

namespace collide {

// Three indices into MeshData::vertices. Winding does not matter: mesh
// surfaces are two-sided.
using TriangleIndices = std::array<std::uint32_t, 3>;

// Vertices and triangles in one world frame, in the caller's length unit.
struct MeshData {
  std::vector<Vec3> vertices;
  std::vector<TriangleIndices> triangles;
};

}  // namespace collide

#endif  // COLLIDE_MESH_DATA_H_
