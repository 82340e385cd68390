// Seeded synthetic meshes for the mesh tests and benchmarks: a terrain
// height field, many axis-aligned boxes, a closed sphere, a random triangle
// soup, and a large mesh of any size made of terrain tiles.
#ifndef COLLIDE_TESTS_SUPPORT_SYNTHETIC_MESHES_H_
#define COLLIDE_TESTS_SUPPORT_SYNTHETIC_MESHES_H_

#include <cstdint>

#include "collide/mesh_data.h"

namespace collide::testing {

// A (n x n)-cell height field over [0, size]^2 in x, y (2 n^2 triangles),
// heights in [0, 0.1 * size] from a few seeded sines. Shared edges and
// vertices everywhere.
MeshData MakeTerrain(int n, double size, std::uint64_t seed);

// `count` axis-aligned boxes (12 triangles each, 8 shared vertices) of
// sizes in [0.02, 0.1] * extent with positions in [0, extent]^3, some
// stacked on grid-aligned coordinates (exactly shared planes).
MeshData MakeBoxes(int count, double extent, std::uint64_t seed);

// A closed geodesic sphere: an octahedron with each face subdivided into
// `level`^2 triangles, vertices pushed onto the sphere (8 level^2
// triangles), every vertex shared.
MeshData MakeClosedSphere(int level, double radius, const Vec3& center);

// `count` random triangles with vertices in [-extent, extent]^3, sizes up to
// `size`, plus a few zero-area ones (repeated vertices: 2 in 50).
MeshData MakeSoup(int count, double extent, double size, std::uint64_t seed);

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_SYNTHETIC_MESHES_H_
