// The primitive shapes. Every value is in world space, in the caller's length
// unit, double precision. Solid shapes (sphere, capsule, boxes, hull,
// halfspace) include their interior; a query against one reports a hit when
// the other shape touches the boundary or lies inside.
#ifndef COLLIDE_SHAPES_H_
#define COLLIDE_SHAPES_H_

#include <algorithm>
#include <cstdint>
#include <span>
#include <string_view>
#include <variant>

#include "collide/math.h"

namespace collide {

// A single point.
struct Point {
  Vec3 position;
  friend bool operator==(const Point&, const Point&) = default;
};

// The closed segment between two endpoints; a = b is a point.
struct Segment {
  Vec3 a;
  Vec3 b;
  friend bool operator==(const Segment&, const Segment&) = default;
};

// The points origin + t * d for 0 <= t <= max_distance, d = direction /
// |direction|. `direction` must be non-zero but need not be unit length: t
// and max_distance are world-space distances from the origin. max_distance
// >= 0 and may be +infinity.
struct Ray {
  Vec3 origin;
  Vec3 direction;
  double max_distance = kInfinity;
  friend bool operator==(const Ray&, const Ray&) = default;
};

// The infinite line through `point` along the non-zero `direction`.
struct Line {
  Vec3 point;
  Vec3 direction;
  friend bool operator==(const Line&, const Line&) = default;
};

// Solid ball. radius >= 0; radius 0 is a point.
struct Sphere {
  Vec3 center;
  double radius = 0.0;
  friend bool operator==(const Sphere&, const Sphere&) = default;
};

// Solid capsule: all points within `radius` of segment [a, b]. a = b is a
// sphere; radius 0 is a segment.
struct Capsule {
  Vec3 a;
  Vec3 b;
  double radius = 0.0;
  friend bool operator==(const Capsule&, const Capsule&) = default;
};

// Solid axis-aligned box, min <= max on every axis. A zero extent on an axis
// makes it a rectangle, a segment or a point.
struct Aabb {
  Vec3 min;
  Vec3 max;
  friend bool operator==(const Aabb&, const Aabb&) = default;
};

// Solid oriented box: the points center + rotation * l with |l_i| <=
// half_extents_i. `rotation` is a proper rotation matrix whose columns are
// the box's local axes in world space; build it from a unit quaternion with
// Obb::FromQuat. half_extents >= 0 (zero extents as for Aabb).
struct Obb {
  Vec3 center;
  Mat3 rotation;
  Vec3 half_extents;

  static Obb FromQuat(const Vec3& center, const Quat& q, const Vec3& half_extents) {
    return {center, RotationFromQuat(q), half_extents};
  }
  friend bool operator==(const Obb&, const Obb&) = default;
};

// Solid (flat) triangle. Collinear or coincident vertices make it a segment
// or a point.
struct Triangle {
  Vec3 a;
  Vec3 b;
  Vec3 c;
  friend bool operator==(const Triangle&, const Triangle&) = default;
};

// The convex hull of a non-empty list of vertices (they need not all be
// extreme points, and no faces are given). The span is not owned: the
// vertices must outlive every query on the hull.
struct ConvexHull {
  std::span<const Vec3> vertices;
  // Equal when the vertex lists are equal (wherever they are stored).
  friend bool operator==(const ConvexHull& a, const ConvexHull& b) {
    return std::equal(a.vertices.begin(), a.vertices.end(), b.vertices.begin(), b.vertices.end());
  }
};

// The closed halfspace {x : dot(normal, x) <= offset}, `normal` unit length
// and pointing out of the solid.
struct Halfspace {
  Vec3 normal;
  double offset = 0.0;
  friend bool operator==(const Halfspace&, const Halfspace&) = default;
};

// Shape kinds of the pair matrix, in the order of the Shape variant.
enum class ShapeKind : std::uint8_t {
  kPoint,
  kSegment,
  kSphere,
  kCapsule,
  kAabb,
  kObb,
  kTriangle,
  kConvexHull,
  kHalfspace,
};
inline constexpr int kShapeKindCount = 9;

using Shape = std::variant<Point, Segment, Sphere, Capsule, Aabb, Obb, Triangle, ConvexHull, Halfspace>;

inline ShapeKind KindOf(const Shape& s) { return static_cast<ShapeKind>(s.index()); }

// Lower-case name of a kind ("point", "convex_hull", ...), as in the proto.
std::string_view ShapeKindName(ShapeKind kind);

}  // namespace collide

#endif  // COLLIDE_SHAPES_H_
