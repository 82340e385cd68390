// The axis-aligned box of a shape (the broad phase of mesh queries).
#ifndef COLLIDE_CORE_SRC_SHAPES_SHAPE_BOUNDS_H_
#define COLLIDE_CORE_SRC_SHAPES_SHAPE_BOUNDS_H_

#include "collide/shapes.h"

namespace collide::internal {

// A box containing the shape (exact for points, segments, boxes, triangles,
// hulls and spheres up to one rounding, which is widened); a halfspace's box
// is all of space.
Aabb BoundsOf(const Shape& shape);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_SHAPES_SHAPE_BOUNDS_H_
