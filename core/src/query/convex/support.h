// Support functions of the convex kinds, as a polytope "core" inflated by a
// radius: a sphere is its center plus its radius, a capsule its segment plus
// its radius, every other kind a polytope with radius 0. GJK and EPA run on
// the cores (where they converge exactly in finitely many steps) and the
// radii are added afterwards, so curved surfaces are never sampled
// (van den Bergen, "Collision Detection in Interactive 3D Environments",
// 2003, 4.3.4 on "core" shapes with margins).
#ifndef COLLIDE_CORE_SRC_QUERY_CONVEX_SUPPORT_H_
#define COLLIDE_CORE_SRC_QUERY_CONVEX_SUPPORT_H_

#include <span>

#include "collide/math.h"
#include "collide/shapes.h"

namespace collide::internal {

// The core of one shape, in a frame translated by -shift. Queries shift both
// shapes by a point of A so that coordinates stay small and round-off stays
// relative to the shapes' sizes rather than to their distance from the world
// origin (box2d computes "in frame A for round-off" for the same reason).
class ConvexCore {
 public:
  ConvexCore(const Point& s, const Vec3& shift);
  ConvexCore(const Segment& s, const Vec3& shift);
  ConvexCore(const Sphere& s, const Vec3& shift);
  ConvexCore(const Capsule& s, const Vec3& shift);
  ConvexCore(const Aabb& s, const Vec3& shift);
  ConvexCore(const Obb& s, const Vec3& shift);
  ConvexCore(const Triangle& s, const Vec3& shift);
  ConvexCore(const ConvexHull& s, const Vec3& shift);
  // Any kind but a halfspace, which has no bounded support.
  ConvexCore(const Shape& s, const Vec3& shift);

  // A point of the core maximizing dot(d, p), always one of its vertices
  // (exact coordinates, no sampling). Ties go deterministically: the first
  // listed vertex, and a box's positive extent along a zero component.
  Vec3 Support(const Vec3& d) const;
  // The same core moved by t.
  ConvexCore Translated(const Vec3& t) const;
  // Some point of the core (its first vertex or its center).
  Vec3 AnyPoint() const;
  double radius() const { return radius_; }

 private:
  enum class Type { kVertices, kAabb, kObb, kHull };
  Type type_ = Type::kVertices;
  double radius_ = 0.0;
  // kVertices: up to three (shifted) vertices; kAabb: min, max; kObb:
  // center and the three half-extent vectors (local axis * half extent).
  Vec3 v_[4];
  int count_ = 0;
  // kHull: the unshifted vertices and the shift.
  std::span<const Vec3> hull_;
  Vec3 shift_;
};

// A point of `shape` (a vertex or its center): the shift origin of a query.
Vec3 ReferencePoint(const Shape& shape);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_CONVEX_SUPPORT_H_
