// The broadphase filter of the mesh queries on its own, for callers that
// can skip their whole query when it finds nothing.
#ifndef COLLIDE_CORE_SRC_MESH_MESH_BROADPHASE_H_
#define COLLIDE_CORE_SRC_MESH_MESH_BROADPHASE_H_

#include "collide/mesh.h"

namespace collide::internal {

// Whether some triangle's box touches `box`: the filter OverlapTriangles and
// QueryMesh (kIntersect) apply to each triangle before any pair kernel, the
// same arithmetic. When false, OverlapTriangles of any shape (or box) whose
// box lies inside `box` finds nothing.
bool AnyTriangleBoxTouches(const TriangleMesh& mesh, const Aabb& box);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_MESH_MESH_BROADPHASE_H_
