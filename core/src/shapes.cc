// Names of the shape kinds.
#include "collide/shapes.h"

namespace collide {

std::string_view ShapeKindName(ShapeKind kind) {
  switch (kind) {
    case ShapeKind::kPoint: return "point";
    case ShapeKind::kSegment: return "segment";
    case ShapeKind::kSphere: return "sphere";
    case ShapeKind::kCapsule: return "capsule";
    case ShapeKind::kAabb: return "aabb";
    case ShapeKind::kObb: return "obb";
    case ShapeKind::kTriangle: return "triangle";
    case ShapeKind::kConvexHull: return "convex_hull";
    case ShapeKind::kHalfspace: return "halfspace";
  }
  return "unknown";
}

}  // namespace collide
