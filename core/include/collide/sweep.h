// Shape casts (sweeps): a convex shape translated along a vector, against a
// fixed shape, to the first time of impact.
#ifndef COLLIDE_SWEEP_H_
#define COLLIDE_SWEEP_H_

#include "collide/math.h"
#include "collide/result.h"
#include "collide/shapes.h"

namespace collide {

// The touch tolerance of ShapeCast, relative to the problem's length scale L
// = the largest of |translation| and the magnitudes of the shapes'
// coordinates, radii and half extents: at a hit's t, Distance(A moved by t *
// translation, B) <= kSweepRelativeTolerance * L (and the shapes do not
// overlap by more than Contact's rounding). Closed forms (a point or sphere
// against a point, segment, sphere, capsule, box, triangle or halfspace; a
// segment or capsule against a segment or capsule; a box against a
// triangle; either order) are exact to rounding; pairs without a Contact
// kernel (hulls; triangles against triangles and hulls) and segment- and
// capsule-triangle (faster so) take a GJK ray cast against the Minkowski
// difference (van den Bergen 2004), which stops within about 1e-12 * L, and
// every other pair the conservative advancement on Contact, which stops
// within this distance of the contact.
inline constexpr double kSweepRelativeTolerance = 1e-9;

// Result of sweeping shape A (moving) by `translation` against shape B (fixed).
//
// hit: A, translated by t * translation, touches or overlaps B for some t in
//   [0, 1]. A pair whose sweep misses stays apart along the whole path.
// t: the first such t (time of impact as a fraction of the translation):
//   for every t' < t the shapes do not overlap, and at t they touch within the
//   documented tolerance. 0 on a miss.
// point: a contact point at time t, world space (on both surfaces at t).
// normal: unit, from A towards B at the contact (PairResult's convention:
//   moving A by -normal separates it from B). Zero on a miss.
// depth: 0 unless the shapes already overlap at t = 0; then t = 0, depth is
//   the penetration depth (> 0, or 0 when exactly touching) and normal the
//   penetration normal of Contact(A, B).
struct SweepResult {
  QueryStatus status = QueryStatus::kOk;
  bool hit = false;
  double t = 0.0;
  Vec3 point;
  Vec3 normal;
  double depth = 0.0;
  friend bool operator==(const SweepResult&, const SweepResult&) = default;
};

// Sweeps convex `a` by `translation` against `b`. `a` must not be a
// halfspace (it is not bounded): a moving halfspace returns status
// kUnsupported, no hit. `b` may be any shape. Zero translation answers
// whether the shapes touch at t = 0. Status kNotConverged: the generic
// sweep hit its step cap (a long grazing path); t is then a time before any
// contact and no hit is claimed.
SweepResult ShapeCast(const Shape& a, const Vec3& translation, const Shape& b);

}  // namespace collide

#endif  // COLLIDE_SWEEP_H_
