// The world's shape cast: conservative advancement (Mirtich 1996) of a
// translating convex shape against one fixed shape, on the existing Contact
// kernels. For a pure translation the distance d(t) between two convex sets is
// a convex function of t (the distance from the point t * v to the fixed
// Minkowski difference), so d(t + h) >= d(t) - h * dot(v, n) with n the
// contact normal at t: advancing by d / dot(v, n) never passes the first
// contact, whatever the speed (no tunnelling), and reaches it in a few steps
// (one for a flat face).
//
// ShapeCast (sweep.h) is the library's exact sweep contract; this is the
// world's own until ShapeCast is implemented on main (it is declared only).
#ifndef COLLIDE_CORE_SRC_WORLD_CAST_H_
#define COLLIDE_CORE_SRC_WORLD_CAST_H_

#include "collide/sweep.h"

namespace collide::internal {

struct CastOptions {
  // The contact is where the signed distance reaches -margin (the signed
  // distance to a convex set is convex too, so the same step is safe). 0 for
  // scene shape casts (touching is a hit, as in sweep.h); moves use
  // skin_width / 2, so that a body touching a floor walks across the floor
  // triangles' shared edges, which it touches but never enters.
  double margin = 0.0;
  // Moves: a pair already in contact at t = 0 blocks only when approaching
  // (a body standing on the floor may walk along it).
  bool start_contacts_block = true;
};

// SweepResult as in sweep.h; status kNotConverged when the step cap was hit
// (t is then a time before the contact, no hit claimed past it).
SweepResult ConservativeCast(const Shape& a, const Vec3& translation, const Shape& b,
                             const CastOptions& options);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_CAST_H_
