// The one result convention shared by every pair query and every ray cast.
#ifndef COLLIDE_RESULT_H_
#define COLLIDE_RESULT_H_

#include <cstdint>
#include <string_view>

#include "collide/math.h"

namespace collide {

// How much a pair query computes; each level costs more than the one before.
enum class QueryLevel : std::uint8_t {
  kIntersect,  // hit only.
  kDistance,   // hit, separation distance and closest points.
  kContact,    // hit, signed distance, witness points and normal.
};

// "intersect", "distance" or "contact": the level's name in logs, test names
// and benchmark tables.
constexpr std::string_view QueryLevelName(QueryLevel level) {
  switch (level) {
    case QueryLevel::kIntersect:
      return "intersect";
    case QueryLevel::kDistance:
      return "distance";
    case QueryLevel::kContact:
      return "contact";
  }
  return "unknown";
}

// Outcome of a query, beside its geometric answer.
enum class QueryStatus : std::uint8_t {
  kOk,
  // No kernel and no fallback answers this pair of kinds (halfspace vs
  // halfspace). The geometric fields are zero. Never a silent miss.
  kUnsupported,
  // The iterative convex fallback hit its iteration cap; the fields hold the
  // best estimate found, which may be off by more than the usual tolerance.
  kNotConverged,
};

// Result of a query between shape A and shape B. All points are world space.
//
// hit: the shapes touch or overlap. Touching counts as a hit: hit is true
//   exactly when the signed distance is <= 0.
//
// distance:
//   kIntersect: 0.
//   kDistance:  the separation, >= 0; 0 when hit.
//   kContact:   the signed distance: the separation when apart, minus the
//               penetration depth when overlapping (the length of the
//               shortest translation of B that separates the shapes).
//
// point_a, point_b (zero at kIntersect):
//   apart: the closest points, on the surfaces of A and B;
//          |point_b - point_a| == distance.
//   overlapping, kDistance: both equal one point that lies in A and in B.
//   overlapping, kContact:  the witnesses of the penetration: point_a is the
//          point of A's surface farthest along the normal, point_b the point
//          of B's surface farthest along -normal, and point_b - point_a ==
//          distance * normal (moving B by -distance * normal separates the
//          shapes; they then touch at those points). In a partial overlap
//          these are the deepest points, each inside the other shape; when
//          one shape contains the other they need not be.
//   Parallel faces or edges (apart or overlapping) make the pair non-unique;
//   the box kernels (box, segment, capsule against a box) then report the
//   middle of the contact: the other feature clipped by the reference face's
//   side planes, averaged, or the middle of two parallel edges' overlap.
//
// normal: unit vector from A towards B.
//   kIntersect: zero. kDistance: (point_b - point_a) / distance when apart,
//   zero when hit. kContact: always unit. When the shapes are apart it is the
//   direction from point_a to point_b; when they overlap, the direction to
//   move B to separate them fastest; when that is ambiguous (coincident
//   sphere centers, a point exactly at a box center) each kernel breaks the
//   tie deterministically, preferring +x, then +y, then +z. Never NaN.
struct PairResult {
  QueryStatus status = QueryStatus::kOk;
  bool hit = false;
  double distance = 0.0;
  Vec3 point_a;
  Vec3 point_b;
  Vec3 normal;

  // The same result with A and B exchanged: witness points swapped, normal
  // negated. Query(b, a) == Query(a, b).Flipped() exactly whenever a != b
  // (for identical shapes no unit normal can equal its own negation).
  PairResult Flipped() const { return {status, hit, distance, point_b, point_a, -normal}; }
  friend bool operator==(const PairResult&, const PairResult&) = default;
};

// Result of a ray cast against a shape.
//
// hit: the ray meets the shape at some 0 <= t <= max_distance.
// distance: t at the first contact, world units from the ray origin.
// point: origin + distance * unit direction, on the shape's surface.
// normal: the unit outward surface normal at `point` (for a flat shape hit
//   from either side: the face normal facing the ray origin).
// A ray that starts inside or on a solid shape hits at distance 0 with
//   point = origin and normal = -unit direction (the shape is solid; the ray
//   is inside from its start).
// Triangles (and mesh triangles) are decided exactly on the double inputs
//   (src/query/raycast/watertight.h): a ray that meets the closed triangle
//   hits it, one that does not (parallel and off its plane by any amount)
//   misses; rays through a shared edge or vertex hit both neighbours.
//   Coplanar rays (exactly in the triangle's plane) hit where they first
//   meet the closed triangle: at 0 when the origin is in it, else where they
//   enter through an edge, with that edge's in-plane outward normal (the
//   solid flat triangle's normal there; perpendicular to the ray when the ray
//   runs along the edge). Only distances are rounded, and the end of a finite
//   range is compared on the rounded distance: a hit's distance is within
//   2^-50 (relative) of the exact one for a ray within 3.3e-6 rad of the
//   triangle's plane, however grazing, and within about 2^-32 for others.
// On a miss every field but hit is zero.
struct RayHit {
  QueryStatus status = QueryStatus::kOk;
  bool hit = false;
  double distance = 0.0;
  Vec3 point;
  Vec3 normal;
  friend bool operator==(const RayHit&, const RayHit&) = default;
};

// The kDistance result of a pair whose kContact result is `contact`: the
// same when apart; when overlapping, distance 0 and both points at the
// midpoint of the witnesses. That midpoint lies in both shapes when each
// witness lies in the other shape (a partial overlap: the intersection of two
// convex sets is convex), but not always under containment: a kernel must
// only use this where it has established that, or find a common point itself.
inline PairResult DistanceFromContact(const PairResult& contact) {
  if (!contact.hit) return contact;
  const Vec3 mid = (contact.point_a + contact.point_b) * 0.5;
  return {contact.status, true, 0.0, mid, mid, Vec3{}};
}

}  // namespace collide

#endif  // COLLIDE_RESULT_H_
