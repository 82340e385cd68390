// Convex shapes as triangle lists, for pictures (the glTF export): spheres
// and capsules as UV-sphere patches, boxes as their 12 triangles, a triangle
// as itself, points as small spheres, segments as thin capsules. Halfspaces
// (unbounded) and hulls give nothing.
#ifndef COLLIDE_CLIENT_CLI_SHAPE_TRIANGLES_H_
#define COLLIDE_CLIENT_CLI_SHAPE_TRIANGLES_H_

#include <cstdint>
#include <vector>

#include "collide/shapes.h"

namespace collide::cli {

struct TriangleList {
  std::vector<Vec3> vertices;
  std::vector<std::uint32_t> indices;  // 3 per triangle.
};

// Appends `shape`'s surface to `out`. `thin` is the radius points and
// segments are drawn with.
void AppendTriangles(const Shape& shape, double thin, TriangleList& out);

}  // namespace collide::cli

#endif  // COLLIDE_CLIENT_CLI_SHAPE_TRIANGLES_H_
